"""A real downloader for the tests: Debian's NZBGet, run headless on loopback
with a configuration of its own and a news server of the tests' as its only
server.

    with NzbGet(tmp_path, host=inn.host, port=inn.reader_port) as nzbget:
        done = nzbget.download(nzb_bytes, "release")
        # done.status ("SUCCESS/ALL"), done.par_status ("SUCCESS"), done.files ({name: path})

The configuration (tmpdir/nzbget.conf) keeps everything under tmpdir, listens
for JSON-RPC on a free 127.0.0.1 port with a password of its own, checks
every article's CRC, always verifies with the par2 set (ParCheck=force), lets
the par2 set give obfuscated files their names back (ParRename) and unpacks
nothing (what is compared is what was posted); .par2 files are kept.
`nzbget -c CONF -s` runs in the foreground as a child of the tests, and is
shut down over JSON-RPC on exit (killed if it does not go). A failure raises
NzbGetFailed with NZBGet's own log.
"""
from __future__ import annotations

import base64
import os
import json
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from tests.inn import HOST, _parent_death_signal, free_port

NZBGET = shutil.which("nzbget") or "/usr/bin/nzbget"


class NzbGetUnavailable(RuntimeError):
    """nzbget is not installed (scripts/setup.sh installs Debian's)."""


class NzbGetFailed(RuntimeError):
    """NZBGet did not start, or a download did not end as it should."""


@dataclass
class Download:
    name: str
    status: str                  # NZBGet's history Status, e.g. SUCCESS/ALL, FAILURE/PAR
    par_status: str              # NONE, FAILURE, REPAIR_POSSIBLE, SUCCESS, MANUAL
    dest_dir: Path
    files: dict = field(default_factory=dict)      # file name -> path, as NZBGet left them
    history: dict = field(default_factory=dict)    # the whole history entry


class NzbGet:
    def __init__(self, tmpdir, *, host: str, port: int, connections: int = 4, start_timeout: float = 30.0):
        self.root = Path(tmpdir)
        self.server = (host, port)
        self.connections = connections
        self.start_timeout = start_timeout
        self.control_port: int | None = None
        self.password = base64.b32encode(os.urandom(10)).decode().lower()
        self._proc: subprocess.Popen | None = None
        self._out = None

    @property
    def conf(self) -> Path:
        return self.root / "nzbget.conf"

    @property
    def log_file(self) -> Path:
        return self.root / "nzbget.log"

    def __enter__(self) -> "NzbGet":
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _write_conf(self) -> None:
        r = self.root
        for d in ("dst", "inter", "nzb", "queue", "tmp", "scripts"):
            (r / d).mkdir(parents=True, exist_ok=True)
        self.control_port = free_port()
        host, port = self.server
        conf = {
            "MainDir": r, "DestDir": r / "dst", "InterDir": r / "inter", "NzbDir": r / "nzb",
            "QueueDir": r / "queue", "TempDir": r / "tmp", "ScriptDir": r / "scripts",
            "LockFile": r / "nzbget.lock", "LogFile": self.log_file,
            "WebDir": "", "ConfigTemplate": "/usr/share/nzbget/webui/nzbget.conf",
            "Server1.Active": "yes", "Server1.Name": "inn", "Server1.Level": "0",
            "Server1.Host": host, "Server1.Port": port, "Server1.Username": "", "Server1.Password": "",
            "Server1.JoinGroup": "no", "Server1.Encryption": "no", "Server1.Connections": self.connections,
            "Server1.Retention": "0", "Server1.IpVersion": "ipv4",
            "ControlIP": HOST, "ControlPort": self.control_port, "ControlUsername": "voyager",
            "ControlPassword": self.password, "RestrictedUsername": "", "AddUsername": "",
            "FormAuth": "no", "SecureControl": "no", "AuthorizedIP": "127.0.0.1", "UpdateCheck": "none",
            "DaemonUsername": "root", "UMask": "0022", "AppendCategoryDir": "no",
            "NzbDirInterval": "0", "DupeCheck": "no", "FlushQueue": "yes", "ContinuePartial": "no",
            "PropagationDelay": "0", "ArticleCache": "0", "DirectWrite": "yes", "FileNaming": "auto",
            "ReorderFiles": "yes", "DiskSpace": "0", "KeepHistory": "1",
            "ArticleRetries": "1", "ArticleInterval": "1", "ArticleTimeout": "20",
            "WriteLog": "append", "ErrorTarget": "both", "WarningTarget": "both", "InfoTarget": "both",
            "DetailTarget": "log", "DebugTarget": "none", "NzbLog": "yes", "CrashTrace": "no",
            "OutputMode": "loggable", "CrcCheck": "yes",
            "ParCheck": "force", "ParRepair": "yes", "ParScan": "full", "ParQuick": "no",
            "ParRename": "yes", "RarRename": "no", "DirectRename": "no", "HealthCheck": "none",
            "ParIgnoreExt": "", "Unpack": "no", "DirectUnpack": "no", "ExtCleanupDisk": "",
            "UnpackCleanupDisk": "no", "ScriptOrder": "", "Extensions": "",
        }
        self.conf.write_text("".join(f"{k}={v}\n" for k, v in conf.items()))

    def start(self) -> "NzbGet":
        if not Path(NZBGET).is_file():
            raise NzbGetUnavailable(f"nzbget is not installed ({NZBGET}): run scripts/setup.sh")
        self.root.mkdir(parents=True, exist_ok=True)
        self._write_conf()
        self._out = open(self.root / "nzbget.out", "wb")
        kw = {}
        preexec = _parent_death_signal()
        if preexec is not None:
            kw["preexec_fn"] = preexec
        # -s: the server in the foreground; output goes to nzbget.out beside the log
        self._proc = subprocess.Popen([NZBGET, "-c", str(self.conf), "-s"], cwd=self.root,
                                      stdin=subprocess.DEVNULL, stdout=self._out, stderr=subprocess.STDOUT,
                                      start_new_session=True, **kw)
        deadline = time.monotonic() + self.start_timeout
        last = None
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise NzbGetFailed(f"nzbget exited with {self._proc.returncode}:\n{self.log()}")
            try:
                self.call("version")
                return self
            except (OSError, NzbGetFailed) as exc:
                last = exc
            time.sleep(0.1)
        raise NzbGetFailed(f"nzbget did not answer JSON-RPC on {HOST}:{self.control_port} ({last!r}):\n{self.log()}")

    def call(self, method: str, *params, timeout: float = 30):
        """One JSON-RPC call; its result."""
        req = urllib.request.Request(
            f"http://{HOST}:{self.control_port}/jsonrpc",
            data=json.dumps({"method": method, "params": list(params), "id": 1}).encode(),
            headers={"Content-Type": "application/json",
                     "Authorization": "Basic " + base64.b64encode(f"voyager:{self.password}".encode()).decode()})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                answer = json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            raise NzbGetFailed(f"JSON-RPC {method}: HTTP {exc.code}") from exc
        if answer.get("error"):
            raise NzbGetFailed(f"JSON-RPC {method}: {answer['error']}")
        return answer.get("result")

    def download(self, nzb: bytes, name: str, timeout: float = 120) -> Download:
        """Adds the NZB (as `name`.nzb), waits until NZBGet has downloaded,
        par-checked and moved it, and returns how it ended."""
        nzb_id = self.call("append", f"{name}.nzb", base64.b64encode(nzb).decode(), "", 0, False, False,
                           "", 0, "SCORE", [])
        if not isinstance(nzb_id, int) or nzb_id <= 0:
            raise NzbGetFailed(f"NZBGet refused the NZB {name!r} (append gave {nzb_id!r}):\n{self.log()}")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done = [h for h in self.call("history", False) if h.get("NZBID") == nzb_id]
            if done:
                h = done[0]
                dest = Path(h.get("DestDir") or h.get("FinalDir") or "")
                files = {p.name: p for p in sorted(dest.iterdir()) if p.is_file()} if dest.is_dir() else {}
                return Download(name=h.get("Name", name), status=h.get("Status", ""),
                                par_status=h.get("ParStatus", ""), dest_dir=dest, files=files, history=h)
            time.sleep(0.2)
        groups = self.call("listgroups", 0)
        raise NzbGetFailed(f"NZBGet did not finish {name!r} in {timeout:.0f} s "
                           f"(queue: {json.dumps(groups)[:2000]}):\n{self.log()}")

    def log(self, tail: int = 6000) -> str:
        """NZBGet's log and its output, for failures."""
        out = []
        for p in (self.log_file, self.root / "nzbget.out"):
            try:
                out.append(f"--- {p.name}\n{p.read_text(errors='replace')[-tail:]}")
            except OSError:
                out.append(f"--- {p.name}: none")
        return "\n".join(out)

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            try:
                self.call("shutdown", timeout=5)
            except (OSError, NzbGetFailed):
                pass
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.send_signal(signal.SIGKILL)
                self._proc.wait(timeout=10)
        self._proc = None
        if self._out is not None:
            self._out.close()
            self._out = None
