"""A real news server for the tests: Debian's INN 2 run privately on loopback.

    with InnServer(tmp_path, groups=["alt.binaries.boneless", ...]) as inn:
        result = post_corpus(inn, corpus_dir, limit_articles=2500, out_dir=tmp_path / "posted")
        # inn.host, inn.reader_port (nnrpd: readers, OVER, COMPRESS DEFLATE),
        # inn.feeder_port (innd: MODE STREAM, CHECK/TAKETHIS)

InnServer builds an instance of its own under a folder (its own inn.conf
reached through INNCONF, never /etc/news's; `extra_overview` names header
fields the overview carries after Xref, inn.conf's extraoverviewadvertised):
innd listens on one free 127.0.0.1 port for feeds (incoming.conf lets
127.0.0.1 stream; `noreader`, so innd never hands a connection to a reader),
a standalone nnrpd
(`nnrpd -D -f -p PORT -b 127.0.0.1`) on another for readers (readers.conf
lets 127.0.0.1 read and post). Storage is timehash, overview tradindexed,
`artcutoff: 0` (a corpus's old Date header fields are accepted), no size
limit, no filters. Both daemons run as user `news` (the folder is given to
news); on exit innd and nnrpd are stopped, and with them every process that
carries this instance's INNCONF (nnrpd's per-connection children, anything
innd started): none is left behind.

post_corpus posts a simulator corpus (the layout of voyager/corpus.py) into it: one article per
message-id, in the corpus's article order (the groups merged so that every
group's own order is kept and a crosspost comes after what precedes it in each
of its groups), with the overview line's Subject, From, Date, Message-ID and
Newsgroups (the groups of its Xref), and a yEnc body: a short filler
(sim.bodies.synthetic_body, the default) or the corpus's real part
(`bodies="sim"`: sim.bodies, the size the overview announced). It streams
over one connection to innd (MODE STREAM, pipelined TAKETHIS; `check=True`
offers each with CHECK first). INN numbers the articles itself.

How the posted truth is derived (`out_dir`): truth.jsonl holds the corpus's
truth entries (unchanged, the corpus layout's format) whose every segment was
accepted, so `bench.replay.score_truth(out_dir, release_sets, pending)`
scores an index of the INN server exactly as it scores a replay of the
corpus; truth_partial.jsonl the entries only some of whose segments were
accepted (their `files` cut to the accepted segments, `complete` false,
`posted_segments`/`corpus_segments` added), which a comparison leaves out;
groups.json the groups as INN's LIST ACTIVE has them (the corpus layout's rows),
with the corpus's priorities (the owner rule); accepted.txt the accepted message-ids (without
<>) in posting order; posted.json the counts. These describe one
post_corpus call. Overview fields that INN makes
itself differ from the corpus: the article numbers, Xref, and :bytes/:lines
(from the body posted). Lines the corpus made malformed on purpose (no
Message-ID, an unparseable Date, missing fields) are skipped and counted; an
article INN refuses (a Date in the future, the corpus's bogus dates past
2038) is counted by INN's reason.
"""
from __future__ import annotations

import email.utils
import json
import os
import pwd
import grp
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import zlib
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NEWSBIN = Path(os.environ.get("VOYAGER_INN_BIN", "/usr/lib/news/bin"))
SETUP_SCRIPT = REPO / "scripts" / "setup_inn.sh"
HOST = "127.0.0.1"
PATHHOST = "voyager-inn.test"


class InnUnavailable(RuntimeError):
    """INN is not installed and could not be installed."""


def inn_installed() -> bool:
    return all((NEWSBIN / b).is_file() for b in ("innd", "nnrpd", "ctlinnd", "makedbz"))


def ensure_inn(install: bool = True) -> None:
    """INN's binaries, installed with scripts/setup_inn.sh when missing
    (root, or sudo). Raises InnUnavailable when that cannot be done."""
    if inn_installed():
        return
    if not install:
        raise InnUnavailable(f"INN is not installed ({NEWSBIN}/innd missing)")
    if os.geteuid() != 0 and shutil.which("sudo") is None:
        raise InnUnavailable("INN is not installed, and installing it needs root")
    proc = subprocess.run(["bash", str(SETUP_SCRIPT)], capture_output=True, text=True, timeout=900)
    if proc.returncode != 0 or not inn_installed():
        raise InnUnavailable(f"scripts/setup_inn.sh exited {proc.returncode} and left {NEWSBIN}/innd, "
                             f"nnrpd, ctlinnd or makedbz missing:\n"
                             f"{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")


def inn_version() -> str:
    """The Debian package's version (e.g. 2.7.1-1+deb12u1), or ''."""
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", "inn2"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _parent_death_signal():
    """A preexec_fn that has the kernel SIGKILL the daemon if the process that
    started it dies without stopping it (a test run killed hard), or None
    where prctl is not to be had. The daemons run in the foreground (innd -d,
    nnrpd -D -f), so the signal reaches the very processes started; nnrpd's
    per-connection children end with their connections. (The signal follows
    the starting thread: start InnServer from a thread that outlives it.)"""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None

    def preexec() -> None:
        prctl(1, int(signal.SIGKILL), 0, 0, 0)      # PR_SET_PDEATHSIG
    return preexec


def free_port(host: str = HOST) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


# --- the server ------------------------------------------------------------------------

class InnServer:
    """A private INN instance under `tmpdir` (see the module's doc).

    Attributes once started: host, reader_port (nnrpd), feeder_port (innd),
    root (the instance's folder), inn_conf (its inn.conf), groups.
    Methods: start(), stop(), ctlinnd(*args), newgroup(name), flush(),
    reader() (a connected NntpClient on nnrpd), list_active(), rejections()
    (innd's reasons by message-id), pids() (every process of the instance),
    log() (innd's and nnrpd's logs, for failures).
    """

    def __init__(self, tmpdir, groups=(), *, host: str = HOST, install: bool = True,
                 start_timeout: float = 30.0, extra_overview=()):
        self.tmpdir = Path(tmpdir)
        self.groups = list(dict.fromkeys(groups))
        # inn.conf's extraoverviewadvertised: header fields the overview carries after
        # Xref:full (LIST OVERVIEW.FMT lists them as "Name:full"), e.g. ("Newsgroups",)
        self.extra_overview = tuple(extra_overview)
        self.host = host
        # tradindexed: innd writes it itself and nnrpd reads it directly (ovdb and
        # ovsqlite would need their own server processes for the readers)
        self.ovmethod = "tradindexed"
        self.install = install
        self.start_timeout = start_timeout
        self.reader_port: int | None = None
        self.feeder_port: int | None = None
        self.root: Path | None = None
        self._own_root = False
        self._innd: subprocess.Popen | None = None
        self._nnrpd: subprocess.Popen | None = None
        self._logs: list = []
        self._ids: tuple[int, int] | None = None

    # -- context manager -------------------------------------------------------------
    def __enter__(self) -> "InnServer":
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- paths and users -------------------------------------------------------------
    @property
    def inn_conf(self) -> Path:
        return self.root / "etc" / "inn.conf"

    def _env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("INN", "NNTP"))}
        env.update(INNCONF=str(self.inn_conf), HOME=str(self.root), LC_ALL="C")
        return env

    def _user(self) -> tuple[str, str, int, int]:
        """(user, group, uid, gid) the daemons run as: news when root."""
        if os.geteuid() == 0:
            pw = pwd.getpwnam("news")
            return "news", grp.getgrgid(pw.pw_gid).gr_name, pw.pw_uid, pw.pw_gid
        pw = pwd.getpwuid(os.geteuid())
        return pw.pw_name, grp.getgrgid(os.getegid()).gr_name, os.geteuid(), os.getegid()

    def _popen_kw(self) -> dict:
        if os.geteuid() != 0:
            return {}
        _u, _g, uid, gid = self._user()
        return {"user": uid, "group": gid, "extra_groups": []}

    def _daemon_kw(self) -> dict:
        kw = self._popen_kw()
        preexec = _parent_death_signal()
        if preexec is not None:
            kw["preexec_fn"] = preexec
        return kw

    def _reachable(self, path: Path) -> bool:
        """Whether the daemons' user can reach (and so use) `path`."""
        if os.geteuid() != 0:
            return True
        r = subprocess.run(["test", "-x", str(path)], **self._popen_kw(), capture_output=True)
        return r.returncode == 0

    def _run_as_news(self, argv: list[str], timeout: float = 60, check: bool = True) -> subprocess.CompletedProcess:
        proc = subprocess.run(argv, env=self._env(), cwd=self.root, capture_output=True, text=True,
                              timeout=timeout, **self._popen_kw())
        if check and proc.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed ({proc.returncode}): {proc.stdout} {proc.stderr}")
        return proc

    # -- build ---------------------------------------------------------------------------
    def _build(self) -> None:
        self.tmpdir.mkdir(parents=True, exist_ok=True)
        if self._reachable(self.tmpdir):
            self.root = Path(tempfile.mkdtemp(prefix="inn-", dir=self.tmpdir))
        else:
            # pytest's tmp_path lies under a 0700 folder of root's: news cannot
            # pass through it, so the instance lives in a folder of its own
            self.root = Path(tempfile.mkdtemp(prefix="voyager-inn-"))
            self._own_root = True
        # the control socket's path must fit a sockaddr_un (108 bytes)
        if len(str(self.root / "run" / "control")) > 100:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = Path(tempfile.mkdtemp(prefix="voyager-inn-"))
            self._own_root = True
        os.chmod(self.root, 0o755)
        r = self.root
        for d in ("etc", "db", "run", "log", "http", "filter", "tmp", "spool/articles", "spool/overview",
                  "spool/incoming/tmp", "spool/incoming/bad", "spool/outgoing", "spool/archive"):
            (r / d).mkdir(parents=True, exist_ok=True)
        user, group, uid, gid = self._user()
        self.feeder_port = free_port(self.host)
        self.reader_port = free_port(self.host)
        while self.reader_port == self.feeder_port:
            self.reader_port = free_port(self.host)
        conf = {
            "domain": "localdomain",
            "pathhost": PATHHOST,
            "server": self.host,
            "organization": '"Voyager test instance"',
            "mta": '"/bin/false %s"',
            "mailcmd": "/bin/false",
            "runasuser": user,
            "runasgroup": group,
            "hismethod": "hisv6",
            "ovmethod": self.ovmethod,
            "enableoverview": "true",
            "bindaddress": self.host,
            "port": str(self.feeder_port),
            "artcutoff": "0",
            "maxartsize": "0",
            "localmaxartsize": "0",
            "maxconnections": "50",
            "maxcmdreadsize": str(1 << 20),   # innd reads a feed in 1 MB gulps, not BUFSIZ
            "noreader": "true",
            "readerswhenstopped": "false",
            "nnrpdposthost": self.host,
            "nnrpdpostport": str(self.feeder_port),
            "wanttrash": "false",
            "remembertrash": "false",     # a refused article may be offered again (a test's second run)
            "logtrash": "false",
            "verifygroups": "false",
            "pgpverify": "false",
            "docancels": "none",
            "wipcheck": "5",
            "hiscachesize": "1024",
            "status": "0",
            "timer": "0",
            "logstatus": "false",
            "nnrpdoverstats": "false",
            "nicekids": "0",
            "rlimitnofile": "-1",
            "articlemmap": "true",
            "storeonxref": "true",
            "keywords": "false",
            "extraoverviewadvertised": "[ " + " ".join(self.extra_overview) + " ]",
            "pathnews": str(NEWSBIN.parent),
            "pathbin": str(NEWSBIN),
            "pathcontrol": str(NEWSBIN / "control"),
            "pathfilter": str(r / "filter"),
            "pathdb": str(r / "db"),
            "pathetc": str(r / "etc"),
            "pathrun": str(r / "run"),
            "pathlog": str(r / "log"),
            "pathhttp": str(r / "http"),
            "pathtmp": str(r / "tmp"),
            "pathspool": str(r / "spool"),
            "patharticles": str(r / "spool/articles"),
            "pathoverview": str(r / "spool/overview"),
            "pathincoming": str(r / "spool/incoming"),
            "pathoutgoing": str(r / "spool/outgoing"),
            "patharchive": str(r / "spool/archive"),
        }
        etc = r / "etc"
        (etc / "inn.conf").write_text("".join(f"{k}: {v}\n" for k, v in conf.items()))
        (etc / "storage.conf").write_text("method timehash {\n    newsgroups: *\n    class: 0\n}\n")
        (etc / "newsfeeds").write_text("ME:*::\n")
        (etc / "incoming.conf").write_text(
            "streaming: true\nmax-connections: 16\n"
            f'peer ME {{\n    hostname: "{self.host}, localhost"\n}}\n')
        (etc / "readers.conf").write_text(
            f'auth "loopback" {{\n    hosts: "{self.host}, localhost"\n    default: "<loopback>"\n}}\n'
            'access "loopback" {\n    users: "<loopback>"\n    newsgroups: "*"\n    access: RPA\n'
            '    addcanlockuser: none\n}\n')
        (etc / "expire.ctl").write_text("/remember/:1\n*:A:never:never:never\n")
        (etc / "moderators").write_text("")
        (etc / "inn-secrets.conf").write_text("")
        db = r / "db"
        now = int(time.time())
        (db / "active").write_text(
            "control 0000000000 0000000001 n\ncontrol.cancel 0000000000 0000000001 n\n"
            "junk 0000000000 0000000001 n\n"
            + "".join(f"{g} 0000000000 0000000001 y\n" for g in self.groups))
        (db / "active.times").write_text("".join(f"{g} {now} voyager\n" for g in self.groups))
        (db / "newsgroups").write_text("".join(f"{g}\tVoyager test group\n" for g in self.groups))
        (db / "history").write_text("")
        for dirpath, dirnames, filenames in os.walk(r):
            for n in dirnames + filenames:
                os.lchown(os.path.join(dirpath, n), uid, gid)
        os.chown(r, uid, gid)
        self._run_as_news([str(NEWSBIN / "makedbz"), "-i", "-o", "-s", "100000"])

    # -- start and stop --------------------------------------------------------------
    def start(self) -> "InnServer":
        if self._innd is not None or self._nnrpd is not None:
            raise RuntimeError("this InnServer is already started")
        ensure_inn(self.install)
        self._build()
        log_innd = open(self.root / "log" / "innd.out", "wb")
        log_nnrpd = open(self.root / "log" / "nnrpd.out", "wb")
        self._logs = [log_innd, log_nnrpd]
        # -d: stay in the foreground, log to stdout; -N: no Perl/Python filters;
        # -c 0: no age cutoff (old Date header fields); -u: unbuffered news log
        self._innd = subprocess.Popen(
            [str(NEWSBIN / "innd"), "-d", "-N", "-u", "-c", "0", "-P", str(self.feeder_port)],
            env=self._env(), cwd=self.root, stdin=subprocess.DEVNULL, stdout=log_innd,
            stderr=subprocess.STDOUT, start_new_session=True, **self._daemon_kw())
        # -D -f: a standalone daemon in the foreground, a child per connection;
        # -n: no reverse lookups
        self._nnrpd = subprocess.Popen(
            [str(NEWSBIN / "nnrpd"), "-D", "-f", "-n", "-p", str(self.reader_port), "-b", self.host],
            env=self._env(), cwd=self.root, stdin=subprocess.DEVNULL, stdout=log_nnrpd,
            stderr=subprocess.STDOUT, start_new_session=True, **self._daemon_kw())
        deadline = time.monotonic() + self.start_timeout
        for port, proc, name in ((self.feeder_port, self._innd, "innd"),
                                 (self.reader_port, self._nnrpd, "nnrpd")):
            self._wait_ready(port, proc, name, deadline)
        return self

    def _wait_ready(self, port: int, proc: subprocess.Popen, name: str, deadline: float) -> None:
        last = None
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited with {proc.returncode}:\n{self.log()}")
            try:
                with socket.create_connection((self.host, port), timeout=2) as s:
                    s.settimeout(5)
                    greeting = s.makefile("rb").readline()
                    if greeting.startswith((b"200", b"201")):
                        s.sendall(b"QUIT\r\n")
                        return
                    last = greeting
            except OSError as exc:
                last = exc
            time.sleep(0.05)
        raise RuntimeError(f"{name} did not answer on {self.host}:{port} ({last!r}):\n{self.log()}")

    def _ours(self) -> list[int]:
        """Every process running with this instance's INNCONF (ours by
        construction: innd, nnrpd and their children), read from /proc."""
        if self.root is None:
            return []
        marker = f"INNCONF={self.inn_conf}".encode()
        pids = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                with open(f"/proc/{entry}/environ", "rb") as f:
                    env = f.read().split(b"\0")
            except OSError:
                continue
            if marker in env:
                pids.append(int(entry))
        return pids

    def stop(self) -> None:
        procs = [p for p in (self._nnrpd, self._innd) if p is not None]
        # 1. innd shuts down cleanly on ctlinnd's word (SIGTERM it lets wait)
        if self._innd is not None and self._innd.poll() is None:
            try:
                self._run_as_news([str(NEWSBIN / "ctlinnd"), "-t", "10", "shutdown", "voyager test done"],
                                  timeout=15, check=False)
            except (OSError, subprocess.SubprocessError):
                pass
        # 2. nnrpd's per-connection children first, while their parent lives to reap them
        #    (orphaned, they would stay zombies of a parent that does not reap)
        daemons = {p.pid for p in procs}
        self._signal_until_gone(lambda: [pid for pid in self._ours() if pid not in daemons], 3.0)
        # 3. the daemons
        for p in procs:
            if p.poll() is None:
                try:
                    os.kill(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 10
        for p in procs:
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        # 4. whatever still carries our INNCONF
        self._signal_until_gone(lambda: self._ours() + [p.pid for p in procs if p.poll() is None], 5.0)
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(5)
        self._innd = self._nnrpd = None
        for f in self._logs:
            f.close()
        self._logs = []
        if self._own_root and self.root is not None:
            # keep the logs where the caller looks: in tmpdir
            try:
                keep = self.tmpdir / "inn-logs"
                shutil.copytree(self.root / "log", keep, dirs_exist_ok=True)
            except OSError:
                pass
            shutil.rmtree(self.root, ignore_errors=True)
            self._own_root = False

    @staticmethod
    def _signal_until_gone(find, seconds: float) -> None:
        """SIGTERM what find() lists until it lists nothing; SIGKILL after
        `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            left = set(find())
            if not left:
                return
            sig = signal.SIGTERM if time.monotonic() < deadline else signal.SIGKILL
            for pid in left:
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
            if sig == signal.SIGKILL and time.monotonic() > deadline + 5:
                return
            time.sleep(0.05)

    @property
    def running(self) -> bool:
        return (self._innd is not None and self._innd.poll() is None
                and self._nnrpd is not None and self._nnrpd.poll() is None)

    def pids(self) -> list[int]:
        """innd's, nnrpd's and their children's process ids."""
        return sorted(set(self._ours()))

    # -- control ---------------------------------------------------------------------
    def ctlinnd(self, *args: str, timeout: float = 30) -> str:
        proc = self._run_as_news([str(NEWSBIN / "ctlinnd"), "-t", str(int(timeout)), *args],
                                 timeout=timeout + 5)
        return proc.stdout.strip()

    def newgroup(self, name: str, flag: str = "y") -> None:
        """Creates a group in the running server (ctlinnd newgroup)."""
        if name not in self.groups:
            self.ctlinnd("newgroup", name, flag, "voyager")
            self.groups.append(name)

    def flush(self) -> None:
        """innd writes its active file, history and overview out now."""
        self.ctlinnd("flush", "")

    def reader(self, timeout: float = 30) -> "NntpClient":
        """A connected NntpClient on nnrpd."""
        return NntpClient(self.host, self.reader_port, timeout=timeout)

    def list_active(self) -> dict[str, tuple[int, int, str]]:
        """LIST ACTIVE through nnrpd: {group: (high, low, flag)}."""
        with self.reader() as c:
            return c.list_active()

    def rejections(self) -> dict[bytes, str]:
        """The articles innd refused, from its news log: {message-id: reason}
        (TAKETHIS's 439 carries no reason; the log does)."""
        out = {}
        path = self.root / "log" / "innd.out" if self.root else None
        if path is None or not path.is_file():
            return out
        with open(path, "rb") as f:
            for line in f:
                m = REJECT_RE.match(line)
                if m:
                    out[m.group(1)] = m.group(2).split(b" -- ")[0].decode("utf-8", "replace").strip()
        return out

    def log(self, tail: int = 4000) -> str:
        out = []
        if self.root is not None:
            for p in sorted((self.root / "log").glob("*")):
                if p.is_file():
                    try:
                        data = p.read_bytes()[-tail:].decode("utf-8", "replace")
                    except OSError:
                        continue
                    out.append(f"--- {p.name}\n{data}")
        return "\n".join(out)


# --- a reader client -------------------------------------------------------------------

REJECT_RE = re.compile(rb"^\S+ +\d+ [\d:.]+ - \S+ (<[^>]*>) \d{3} (.*?)\r?\n?$")


class NntpError(RuntimeError):
    pass


class NntpClient:
    """A small NNTP reader client on raw sockets, with RFC 8054 COMPRESS
    DEFLATE (raw deflate both ways, each write ended by a sync flush).

        with NntpClient(host, port) as c:
            caps = c.capabilities(); c.compress(); count, low, high = c.group(g)
            lines = c.over(low, high)          # raw overview lines, no CRLF
    """

    def __init__(self, host: str, port: int, timeout: float = 30):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self._buf = bytearray()
        self._inflate = None
        self._deflate = None
        self.wire_in = 0           # bytes received on the wire while compressed
        self.plain_in = 0          # what they inflated to
        self.welcome = self.readline()
        if not self.welcome.startswith((b"200", b"201")):
            raise NntpError(f"greeting: {self.welcome!r}")

    def __enter__(self) -> "NntpClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.send(b"QUIT")
            self.readline()
        except (OSError, EOFError, NntpError):
            pass
        self.sock.close()

    # -- the wire ------------------------------------------------------------------------
    def _fill(self) -> None:
        data = self.sock.recv(1 << 16)
        if not data:
            raise EOFError("the server closed the connection")
        if self._inflate is not None:
            self.wire_in += len(data)
            data = self._inflate.decompress(data)
            self.plain_in += len(data)
        self._buf += data

    def readline(self) -> bytes:
        """One line without its CRLF."""
        while True:
            i = self._buf.find(b"\r\n")
            if i >= 0:
                line = bytes(self._buf[:i])
                del self._buf[:i + 2]
                return line
            self._fill()

    def send(self, line: bytes | str) -> None:
        if isinstance(line, str):
            line = line.encode()
        data = line + b"\r\n"
        if self._deflate is not None:
            data = self._deflate.compress(data) + self._deflate.flush(zlib.Z_SYNC_FLUSH)
        self.sock.sendall(data)

    def command(self, line: bytes | str, expect: tuple = ()) -> bytes:
        """Sends a command, returns the status line (NntpError unless its
        code is one of `expect`, when given)."""
        self.send(line)
        status = self.readline()
        if expect and status[:3].decode() not in expect:
            raise NntpError(f"{line!r}: {status!r}")
        return status

    def read_block(self) -> list[bytes]:
        """A multi-line data block, dot-stuffing undone, without the final dot."""
        out = []
        while True:
            line = self.readline()
            if line == b".":
                return out
            out.append(line[1:] if line.startswith(b"..") else line)

    # -- commands ------------------------------------------------------------------------
    def capabilities(self) -> list[str]:
        self.command("CAPABILITIES", ("101",))
        return [l.decode("utf-8", "replace") for l in self.read_block()]

    def compress(self) -> None:
        """COMPRESS DEFLATE (RFC 8054): raw deflate from the next byte on."""
        self.command("COMPRESS DEFLATE", ("206",))
        if self._buf:
            raise NntpError("data after the 206 answer")
        self._inflate = zlib.decompressobj(wbits=-15)
        self._deflate = zlib.compressobj(wbits=-15)

    def list_active(self, wildmat: str | None = None) -> dict[str, tuple[int, int, str]]:
        self.command("LIST ACTIVE" + (f" {wildmat}" if wildmat else ""), ("215",))
        out = {}
        for line in self.read_block():
            name, high, low, flag = line.decode("utf-8", "replace").split()[:4]
            out[name] = (int(high), int(low), flag)
        return out

    def group(self, name: str) -> tuple[int, int, int]:
        """(count, low, high) of GROUP."""
        status = self.command(f"GROUP {name}", ("211",)).split()
        return int(status[1]), int(status[2]), int(status[3])

    def over(self, low: int, high: int) -> list[bytes]:
        """OVER low-high: the raw overview lines (an empty range: [])."""
        status = self.command(f"OVER {low}-{high}", ("224", "423"))
        return self.read_block() if status.startswith(b"224") else []

    def article(self, ref: bytes | str, what: str = "ARTICLE") -> bytes:
        """ARTICLE/HEAD/BODY of a message-id or number: its lines joined by
        CRLF (dot-stuffing undone), ending with CRLF."""
        if isinstance(ref, bytes):
            ref = ref.decode("utf-8", "surrogateescape")
        self.command(f"{what} {ref}", ("220", "221", "222"))
        return b"".join(l + b"\r\n" for l in self.read_block())


# --- the poster ----------------------------------------------------------------------------

MID_RE = re.compile(rb"^<[^<>\s@]+@[^<>\s]+>$")


@dataclass
class Article:
    mid: bytes               # with <>
    subject: bytes
    poster: bytes
    date: bytes
    groups: list[str]        # from the Xref, else the group
    nbytes: int              # the corpus's :bytes


def parse_overview(line: bytes, group: str) -> Article | None:
    """An overview line as an article to post, or None when the corpus made
    it malformed (missing fields, no Message-ID, a Date that does not parse)."""
    f = line.rstrip(b"\r\n").split(b"\t")
    if len(f) < 8 or not f[0].isdigit():
        return None
    subject, poster, date, mid = f[1].strip(), f[2].strip(), f[3].strip(), f[4].strip()
    if not subject or not poster or not date or not MID_RE.match(mid):
        return None
    if email.utils.parsedate_tz(date.decode("latin-1")) is None:
        return None
    try:
        nbytes = int(f[6])
    except ValueError:
        return None
    if nbytes < 0:
        return None
    groups = []
    if len(f) >= 9 and f[8][:5].lower() == b"xref:":
        for item in f[8][5:].split()[1:]:
            name, _sep, num = item.rpartition(b":")
            if name and num.isdigit():
                groups.append(name.decode("latin-1"))
    if group not in groups:
        groups.insert(0, group)
    groups = list(dict.fromkeys(groups))
    return Article(mid, subject, poster, date, groups, nbytes)


def corpus_articles(corpus_dir) -> tuple[list[Article], dict]:
    """Every article of a corpus once, in posting order, and the counts
    (lines, malformed, crossposted duplicates).

    Each group's lines in article-number order; the groups merged so that each
    keeps its own order and a crosspost comes after everything that precedes
    it in any of its groups (the generator numbered all groups from one
    posting order). Where the corpus contradicts that (a pair stored out of
    order in two groups) the first group's order wins. Between groups the
    merge goes by each one's progress, so the groups interleave evenly."""
    from voyager.corpus import Corpus, line_number
    corpus = Corpus(corpus_dir)
    queues: dict[str, list[Article]] = {}
    counts = Counter()
    for g in corpus.group_names():
        rows = []
        for r in corpus.ranges(g):
            for c in r.chunks:
                for line in c.overview_lines():
                    counts["lines"] += 1
                    a = parse_overview(line, g)
                    if a is None:
                        counts["malformed"] += 1
                        continue
                    rows.append((line_number(line), a))
        rows.sort(key=lambda x: x[0])
        queues[g] = [a for _n, a in rows]
    where: dict[bytes, list[str]] = defaultdict(list)
    for g, q in queues.items():
        for a in q:
            where[a.mid].append(g)
    idx = {g: 0 for g in queues}
    done: set[bytes] = set()
    order: list[Article] = []

    def head(g: str) -> Article | None:
        q, i = queues[g], idx[g]
        while i < len(q) and q[i].mid in done:
            i += 1
        idx[g] = i
        return q[i] if i < len(q) else None

    def emit_head(g: str, stack: frozenset) -> None:
        """Emits g's head after what precedes it in its other groups."""
        a = head(g)
        if a is None:
            return
        for g2 in where[a.mid]:
            if g2 == g or g2 in stack:
                continue
            while True:
                h = head(g2)
                if h is None or h.mid == a.mid:
                    break
                emit_head(g2, stack | {g})
                if a.mid in done:
                    return
        if a.mid not in done:
            done.add(a.mid)
            order.append(a)
            if len(where[a.mid]) > 1:
                counts["crossposted"] += 1

    totals = {g: max(1, len(q)) for g, q in queues.items()}
    while True:
        live = [g for g in queues if head(g) is not None]
        if not live:
            break
        g = min(live, key=lambda g: idx[g] / totals[g])
        emit_head(g, frozenset())
    counts["articles"] = len(order)
    return order, dict(counts)


def dot_stuff(body: bytes) -> bytes:
    if body.startswith(b"."):
        body = b"." + body
    body = body.replace(b"\r\n.", b"\r\n..")
    if not body.endswith(b"\r\n"):
        body += b"\r\n"
    return body


def _header_value(v: bytes) -> bytes:
    return v.replace(b"\r", b" ").replace(b"\n", b" ").replace(b"\0", b" ")


def article_bytes(a: Article, body: bytes) -> bytes:
    """The article in wire format (dot-stuffed, ended by .CRLF)."""
    head = (b"Path: voyager-sim!not-for-mail\r\n"
            b"From: " + _header_value(a.poster) + b"\r\n"
            b"Newsgroups: " + ",".join(a.groups).encode("latin-1") + b"\r\n"
            b"Subject: " + _header_value(a.subject) + b"\r\n"
            b"Date: " + _header_value(a.date) + b"\r\n"
            b"Message-ID: " + a.mid + b"\r\n"
            b"\r\n")
    return head + dot_stuff(body) + b".\r\n"


@dataclass
class PostResult:
    offered: int = 0
    accepted: int = 0
    rejected: int = 0                  # 439 after TAKETHIS
    refused: int = 0                   # 438 after CHECK (already there)
    deferred: int = 0                  # 431 after CHECK, not retried
    malformed_skipped: int = 0
    corpus_lines: int = 0
    corpus_articles: int = 0           # distinct message-ids in well-formed lines
    crossposted: int = 0               # articles in more than one of the corpus's groups
    seconds: float = 0.0
    body_bytes: int = 0
    reasons: dict = field(default_factory=dict)     # INN's rejection reasons, counted
    per_group: dict = field(default_factory=dict)   # accepted articles filed in each server group
    accepted_mids: list = field(default_factory=list)   # without <>, in posting order
    rejected_mids: list = field(default_factory=list)   # with <> (bytes)
    truth: dict = field(default_factory=dict)       # counts of the posted truth (out_dir)

    @property
    def rate(self) -> float:
        return self.offered / self.seconds if self.seconds else 0.0

    def summary(self) -> dict:
        d = {k: v for k, v in self.__dict__.items() if k not in ("accepted_mids", "rejected_mids")}
        d["rate"] = round(self.rate, 1)
        d["seconds"] = round(self.seconds, 3)
        return d


class _Bodies:
    def __init__(self, corpus_dir, mode: str, filler_bytes: int):
        from sim import bodies as B
        self.B = B
        self.mode = mode
        self.filler = filler_bytes
        self.real = B.Bodies(corpus_dir).load() if mode == "sim" else None

    def __call__(self, a: Article) -> bytes:
        mid = a.mid[1:-1].decode("utf-8", "surrogateescape")
        if self.real is not None:
            return self.real.body(mid, a.nbytes)
        return self.B.synthetic_body(mid, self.filler)


def stream_articles(host: str, port: int, articles: list[Article], make_body, *, check: bool = False,
                    window: int = 100_000, flush_bytes: int = 256 * 1024,
                    timeout: float = 60.0) -> PostResult:
    """Feeds articles to innd over one streaming connection: MODE STREAM, then
    pipelined TAKETHIS (or CHECK, then TAKETHIS for each 238), at most
    `window` commands unanswered. Answers come in command order.

    Writes are coalesced up to `flush_bytes`: one small segment an article
    (TCP_NODELAY and a write each) made the loopback stall for ~200 ms every
    ~30 articles here, a delayed ACK each time (~150 articles/s against
    2,000-4,000)."""
    res = PostResult()
    started = time.monotonic()
    sock = socket.create_connection((host, port), timeout=timeout)
    rfile = sock.makefile("rb")
    greeting = rfile.readline()
    if not greeting.startswith(b"200"):
        sock.close()
        raise RuntimeError(f"innd refused the feed: {greeting!r}")
    sock.sendall(b"MODE STREAM\r\n")
    reply = rfile.readline()
    if not reply.startswith(b"203"):
        sock.close()
        raise RuntimeError(f"innd refused MODE STREAM: {reply!r}")

    lock = threading.Lock()
    slots = threading.Semaphore(window)
    sent: deque = deque()              # (command, index) in the order sent
    todo: deque = deque()              # TAKETHIS wanted after a 238, for the sender
    more = threading.Event()
    error: list[BaseException] = []
    finished = threading.Event()
    body_bytes = 0

    out = bytearray()                  # the sender's coalesced writes

    def flush() -> None:
        if out:
            sock.sendall(out)
            out.clear()

    def send(cmd: str, i: int) -> None:
        nonlocal body_bytes
        a = articles[i]
        if cmd == "CHECK":
            data = b"CHECK " + a.mid + b"\r\n"
        else:
            art = article_bytes(a, make_body(a))
            body_bytes += len(art)
            data = b"TAKETHIS " + a.mid + b"\r\n" + art
        if not slots.acquire(blocking=False):
            flush()
            slots.acquire()
        with lock:
            sent.append((cmd, i))
        out.extend(data)
        if len(out) >= flush_bytes:
            flush()

    def sender() -> None:
        try:
            for i in range(len(articles)):
                while todo:
                    send("TAKETHIS", todo.popleft())
                send("CHECK" if check else "TAKETHIS", i)
            flush()
            if check:
                # the 238s still to come: wait for every CHECK's answer
                while not finished.is_set():
                    while todo:
                        send("TAKETHIS", todo.popleft())
                    flush()
                    more.wait(0.05)
                    more.clear()
        except BaseException as exc:   # reported by the reader
            error.append(exc)
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    t = threading.Thread(target=sender, name="inn-poster", daemon=True)
    t.start()
    rejected_idx: list[int] = []
    accepted_idx: list[int] = []
    answered_takethis = 0
    checks_open = len(articles) if check else 0
    try:
        while answered_takethis + res.refused + res.deferred < len(articles):
            line = rfile.readline()
            if not line:
                raise RuntimeError(f"innd closed the feed ({error[0] if error else 'no error sent'})")
            with lock:
                cmd, i = sent.popleft()
            slots.release()
            code = line[:3]
            if cmd == "CHECK":
                checks_open -= 1
                if code == b"238":
                    todo.append(i)
                    more.set()
                elif code == b"438":
                    res.refused += 1
                elif code == b"431":
                    res.deferred += 1
                else:
                    raise RuntimeError(f"unexpected answer to CHECK: {line!r}")
            else:
                answered_takethis += 1
                if code == b"239":
                    res.accepted += 1
                    accepted_idx.append(i)
                elif code == b"439":
                    res.rejected += 1
                    rejected_idx.append(i)
                    text = line[3:].strip().split(None, 1)
                    if len(text) > 1:       # a reason in the answer (innd logs it instead)
                        res.reasons[text[1].decode("utf-8", "replace")] = \
                            res.reasons.get(text[1].decode("utf-8", "replace"), 0) + 1
                else:
                    raise RuntimeError(f"unexpected answer to TAKETHIS: {line!r}")
    finally:
        finished.set()
        more.set()
        t.join(timeout=30)
        try:
            sock.sendall(b"QUIT\r\n")
            rfile.readline()
        except OSError:
            pass
        sock.close()
    if error:
        raise RuntimeError(f"posting failed: {error[0]!r}")
    res.offered = len(articles)
    res.seconds = time.monotonic() - started
    res.body_bytes = body_bytes
    res.rejected_mids = [articles[i].mid for i in sorted(rejected_idx)]
    accepted_idx.sort()
    res.accepted_mids = [articles[i].mid[1:-1].decode("utf-8", "surrogateescape") for i in accepted_idx]
    per_group = Counter()
    for i in accepted_idx:
        for g in articles[i].groups:
            per_group[g] += 1
    res.per_group = dict(per_group)
    return res


def post_corpus(inn: InnServer, corpus_dir, limit_articles: int | None = None, *, out_dir=None,
                bodies: str = "filler", filler_bytes: int = 600, check: bool = False,
                create_groups: bool = True, window: int = 100_000) -> PostResult:
    """Posts a simulator corpus into a running InnServer (see the module's
    doc): the first `limit_articles` articles in posting order, all when None.
    bodies: "filler" (a short yEnc part of about `filler_bytes`) or "sim" (the
    corpus's real parts, as big as the overview said). Creates the corpus's
    groups in the server when missing (create_groups). Writes the posted
    truth to out_dir when given. Returns a PostResult (per_group counts only
    the server's groups)."""
    if bodies not in ("filler", "sim"):
        raise ValueError("bodies must be 'filler' or 'sim'")
    articles, counts = corpus_articles(corpus_dir)
    from voyager.corpus import Corpus
    corpus = Corpus(corpus_dir)
    if create_groups:
        for g in corpus.group_names():
            inn.newgroup(g)
    chosen = articles if limit_articles is None else articles[:max(0, int(limit_articles))]
    res = stream_articles(inn.host, inn.feeder_port, chosen, _Bodies(corpus_dir, bodies, filler_bytes),
                          check=check, window=window)
    res.malformed_skipped = counts.get("malformed", 0)
    res.corpus_lines = counts.get("lines", 0)
    res.corpus_articles = counts.get("articles", 0)
    res.crossposted = counts.get("crossposted", 0)
    if res.rejected_mids:
        logged = inn.rejections()
        why = Counter(logged.get(m, "no reason logged") for m in res.rejected_mids)
        for k, v in why.items():
            res.reasons[k] = res.reasons.get(k, 0) + v
    carried = set(inn.groups)
    res.per_group = {g: n for g, n in res.per_group.items() if g in carried}
    if out_dir is not None:
        res.truth = write_posted_truth(corpus, res, Path(out_dir), inn)
    return res


def write_posted_truth(corpus, res: PostResult, out: Path, inn: InnServer | None = None) -> dict:
    """truth.jsonl (fully posted uploads), truth_partial.jsonl, groups.json,
    accepted.txt and posted.json under `out` (see the module's doc)."""
    out.mkdir(parents=True, exist_ok=True)
    accepted = set(res.accepted_mids)
    tally = Counter()
    with open(out / "truth.jsonl", "w") as full, open(out / "truth_partial.jsonl", "w") as part:
        for up in corpus.truth():
            segs = [s for f in up["files"] for s in f["segments"]]
            got = sum(1 for s in segs if s[1] in accepted)
            if segs and got == len(segs):
                full.write(json.dumps(up, ensure_ascii=False) + "\n")
                tally[f"full_{up['kind']}"] += 1
                tally["full"] += 1
            elif got:
                cut = dict(up, complete=False, posted_segments=got, corpus_segments=len(segs))
                cut["files"] = [dict(f, segments=[s for s in f["segments"] if s[1] in accepted])
                                for f in up["files"]]
                cut["files"] = [f for f in cut["files"] if f["segments"]]
                part.write(json.dumps(cut, ensure_ascii=False) + "\n")
                tally["partial"] += 1
            else:
                tally["unposted"] += 1
    prio = {g["name"]: g.get("priority") for g in corpus.groups()}
    groups = []
    if inn is not None:
        active = {g: (low, high) for g, (high, low, _flag) in inn.list_active().items() if g in inn.groups}
    else:
        active = {g: (1, n) for g, n in res.per_group.items()}
    for name, (low, high) in active.items():
        row = {"name": name, "low": low, "high": high}
        if prio.get(name) is not None:
            row["priority"] = prio[name]
        groups.append(row)
    (out / "groups.json").write_text(json.dumps(groups, indent=1) + "\n")
    (out / "accepted.txt").write_text("".join(m + "\n" for m in res.accepted_mids))
    summary = res.summary()
    summary["truth"] = dict(tally)
    (out / "posted.json").write_text(json.dumps(summary, indent=1) + "\n")
    return dict(tally)
