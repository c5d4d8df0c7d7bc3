"""The worker's NNTP client: one blocking connection per thread (the window
runs in threads too), a small pool, and overview fetched in the chunks of the
grid.

    conn = NntpConnection(NntpConfig.from_env())
    text = fetch_overview(conn, "alt.binaries.boneless", 1, 100_000)
    window.feed(text, 100_000)

`NntpConnection.over()` returns what the window's `feed` takes: the overview
lines of the range as one bytes blob, CRLF-ended, without dot-stuffing or the
terminating dot line (an inflated corpus chunk has the same form). It asks in
the best mode the server offers (compressed first): XFEATURE COMPRESS GZIP
with or without TERMINATOR, XZVER, COMPRESS DEFLATE (RFC 8054), plain
XOVER/OVER; each compressed reply is inflated once, here, and nowhere else.

Providers misbehave: Eweka cuts a compressed reply at the first b".\\r\\n" in
its output (OverviewCutShort, refetched by `fetch_overview`, plain when the
cut repeats), drops quiet connections (so the pool closes its own
after 60 s), refuses connections past the account's limit (backoff).
"""
from __future__ import annotations

import contextlib
import datetime as dt
import os
import random
import re
import select
import socket
import ssl
import threading
import time
import zlib
from dataclasses import dataclass
from typing import Callable, Iterator, NamedTuple, TypeVar

CRLF = b"\r\n"
CHUNK_ARTICLES = 100_000           # voyager.settings chunk_articles, the grid's default
RECV_BYTES = 1 << 18
# A reply's bytes land in one preallocated buffer (recv_into): a megabyte
# costs a few Python operations, so fetch threads rarely want the GIL while
# the window holds it. Grown by doubling when less than RECV_ROOM is free;
# kept for the connection's next reply up to BULK_KEEP (a compressed
# 100,000-line chunk is ~5.5 MB; plain ones, ~25 MB, get a buffer each), and
# let go when the connection closes.
BULK_BYTES = 8 << 20
BULK_KEEP = 8 << 20
RECV_ROOM = 1 << 20
# The most one reply may hold, on the wire or inflated: a 100,000-article
# overview chunk is ~25-55 MB as text, so a reply past this is a server's
# garbage (a body without its dot line, a stream that never ends), refused
# before it takes the worker's memory (NntpReplyTooLarge).
MAX_REPLY_BYTES = 256 << 20
# Overview modes, best first. gzip-term first: its end is inside the stream.
MODES = ("gzip-term", "gzip", "xzver", "deflate", "plain")
COMPRESSED = frozenset(MODES) - {"plain"}
# Modes whose payload is one zlib stream of the lines: over_raw() hands it on
# as it came (the spool keeps it so, the window's thread inflates it once).
RAW_MODES = ("gzip", "xzver")
# What over_raw() returns, by kind:
TEXT = "text"                      # the lines as the window takes them (over()'s blob)
ZLIB = "zlib"                      # a zlib stream of the lines as they are (XZVER; a corpus chunk)
ZLIB_STUFFED = "zlib-stuffed"      # a zlib stream of the dot-stuffed lines (XFEATURE COMPRESS GZIP)
# What a refusal says when it means "full", not "wrong password".
_BUSY = re.compile(rb"too many|connection|limit|maximum|slot|session|busy|try again|later", re.I)
_AUTH = re.compile(rb"auth|password|user|credential|login", re.I)
# What a 502 says when it means "not allowed here", for good: INN's nnrpd greets a
# host its readers.conf does not know with "502 You have no permission to talk",
# and innd (a feeder port) answers a reader's GROUP with "502 Permission denied".
_DENIED = re.compile(rb"permission|denied|not allowed|forbidden", re.I)
_DATE_SHAPE = b"111 99999999999999\r\n"
_INT = re.compile(rb"[-+]?\d{1,40}")
_DATE_REPLY = re.compile(rb"111 (\d{14})\r\n")
# A reply's dot line and the answer to the DATE sent behind it, at the end of
# what came (a server without DATE answers 500-503: the end all the same)
_REPLY_THEN_DATE = re.compile(rb"\.\r\n(?:111 \d{14}|50[0-3][^\r\n]{0,200})\r\n")

T = TypeVar("T")


# -- errors ---------------------------------------------------------------------------------------

class NntpError(RuntimeError):
    """Anything that went wrong talking to the news server (a RuntimeError,
    so the command line reports it like any other failure)."""


class NntpConnectionLost(NntpError):
    """Closed, reset, refused or timed out: reconnect and ask again."""


class NntpTimeout(NntpConnectionLost):
    pass


class NntpProtocolError(NntpError):
    """A reply this client does not understand (a garbage server: a greeting
    that is no status line, a short 211, a body without its dot line, a yEnc
    trailer that is no number); the connection is closed, and call() asks
    again on a new one."""


class NntpReplyTooLarge(NntpProtocolError):
    """A reply past max_reply_bytes (MAX_REPLY_BYTES), on the wire or inflated."""


class NntpBodyTooLarge(NntpError):
    """A BODY past the cap its caller set (the prober's bound on one body):
    not read on, the connection dropped (it is out of step)."""


class NntpReplyError(NntpError):
    """The server answered with an unexpected status."""

    def __init__(self, code: int, line: bytes, what: str = "", hint: str = ""):
        self.code, self.line = code, line
        text = line.decode("utf-8", "replace")
        super().__init__(f"{what}: {text}{hint}" if what else text + hint)


class NntpBusy(NntpReplyError):
    """Too many connections or service unavailable for now: back off."""


class NntpTemporaryError(NntpReplyError):
    """A data command refused for now (400, 403, 503): try again."""


class NntpAuthError(NntpReplyError):
    """The account was refused; retrying will not help."""


class NntpDenied(NntpAuthError):
    """A 502 that says "permission denied": this host or account may not
    read there (or the port is a feeder's); retrying will not help."""


class NntpUnsupported(NntpReplyError):
    """The server does not know the command (500/501)."""


class NntpNoSuchGroup(NntpReplyError):
    pass


class OverviewCutShort(NntpError):
    """A compressed overview reply ended early (the stream stops before the
    zlib end or the terminator, or inflates to a partial last line).
    `fetch_overview` asks again, then in plain mode."""


RETRYABLE = (NntpConnectionLost, NntpBusy, NntpTemporaryError, NntpProtocolError)


# -- configuration -------------------------------------------------------------------------------

def _env(environ, name: str, default: str | None) -> str | None:
    value = environ.get(name)
    return value if value not in (None, "") else default


def _flag(value: str | None, name: str) -> bool:
    v = (value or "").strip().lower()
    if v in ("1", "true", "yes", "on"):
        return True
    if v in ("0", "false", "no", "off", ""):
        return False
    raise ValueError(f"{name}={value!r}: expected 0 or 1")


@dataclass(frozen=True)
class NntpConfig:
    host: str = "127.0.0.1"
    port: int = 0                      # 0: 119, or 563 with TLS
    user: str | None = None
    password: str | None = None
    tls: bool = False
    verify: bool = True                # TLS certificate checked (0 for the simulator's self-signed one)
    connections: int = 8               # the pool's size
    timeout: float = 60.0              # seconds of silence before a reply counts as lost
    modes: tuple[str, ...] = MODES     # overview modes by preference; used as far as the server offers them
    idle_seconds: float = 60.0         # a pooled connection idle this long is closed (providers drop quiet ones)
    retries: int = 8                   # reconnects / repeats of one request before giving up
    backoff_base: float = 1.0          # seconds; doubles per failure ...
    backoff_max: float = 60.0          # ... up to this, jittered
    cut_retries: int = 1               # a cut compressed reply asked again this often, then plain
    max_reply_bytes: int = MAX_REPLY_BYTES   # one reply at most, on the wire or inflated

    def __post_init__(self):
        if not self.port:
            object.__setattr__(self, "port", 563 if self.tls else 119)
        unknown = [m for m in self.modes if m not in MODES]
        if unknown:
            raise ValueError(f"unknown overview modes {unknown}; known: {', '.join(MODES)}")

    @classmethod
    def from_env(cls, environ=None, **overrides) -> "NntpConfig":
        """VOYAGER_NNTP_HOST, _PORT, _USER, _PASS, _TLS, _VERIFY, _CONNECTIONS
        (and _TIMEOUT, _MODES: comma-separated, best first)."""
        e = os.environ if environ is None else environ
        tls = _flag(_env(e, "VOYAGER_NNTP_TLS", "0"), "VOYAGER_NNTP_TLS")
        values = dict(
            host=_env(e, "VOYAGER_NNTP_HOST", "127.0.0.1"),
            port=int(_env(e, "VOYAGER_NNTP_PORT", "563" if tls else "119")),
            user=_env(e, "VOYAGER_NNTP_USER", None),
            password=_env(e, "VOYAGER_NNTP_PASS", None),
            tls=tls,
            verify=_flag(_env(e, "VOYAGER_NNTP_VERIFY", "1"), "VOYAGER_NNTP_VERIFY"),
            connections=int(_env(e, "VOYAGER_NNTP_CONNECTIONS", "8")),
            timeout=float(_env(e, "VOYAGER_NNTP_TIMEOUT", "60")),
            max_reply_bytes=int(float(_env(e, "VOYAGER_NNTP_MAX_REPLY_MB", str(MAX_REPLY_BYTES >> 20))) * (1 << 20)),
        )
        modes = _env(e, "VOYAGER_NNTP_MODES", None)
        if modes:
            values["modes"] = tuple(m.strip().lower() for m in modes.split(",") if m.strip())
        values.update(overrides)
        return cls(**values)


def tls_context(verify: bool = True) -> ssl.SSLContext:
    ctx = ssl.create_default_context()
    if not verify:
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    return ctx


class Backoff:
    """Exponential, capped, jittered waits ("equal jitter": half fixed, half
    random), so connections refused together do not come back together."""

    def __init__(self, base: float = 1.0, cap: float = 60.0, rng: random.Random | None = None):
        self.base, self.cap, self.attempt = base, cap, 0
        self.rng = rng or random.Random()

    def next(self) -> float:
        d = min(self.cap, self.base * (2 ** min(self.attempt, 30)))
        self.attempt += 1
        return d / 2 + self.rng.uniform(0, d / 2)

    def reset(self) -> None:
        self.attempt = 0


# -- reply helpers -------------------------------------------------------------------------------

def unstuff(body: bytes) -> bytes:
    """RFC 3977 3.1.1 undone: a line sent as '..x' was '.x'."""
    if body.startswith(b".."):
        body = body[1:]
    if b"\r\n.." in body:
        body = body.replace(b"\r\n..", b"\r\n.")
    return body


def _zlib_header(b: bytes) -> bool:
    """A zlib stream with a 32 KiB window opens 0x78 plus a check byte; an
    overview line opens with a digit and an empty reply with '.'."""
    return len(b) >= 2 and b[0] == 0x78 and (0x7800 | b[1]) % 31 == 0


_YESC = {bytes((e,)): bytes(((e - 64) & 0xFF,)) for e in range(256)}
_YTABLE = bytes((i - 42) & 0xFF for i in range(256))
_YKEY = re.compile(rb"\b(size|crc32|pcrc32)=(\S*)")


# The escapes yEnc encoders write: "=" and the critical character plus 64 (NUL,
# LF, CR and "=" always; TAB, space and "." at a line's start or end)
_YPAIRS = tuple((b"=" + bytes(((c + 64) & 0xFF,)), bytes((c,))) for c in (0, 10, 13, 9, 32, 46))


def _yunescape(payload: bytes) -> bytes:
    """yEnc's escapes undone (before the -42): a few C-speed replaces, "=}"
    (the escaped "=") last so that no "=" it makes pairs with what follows;
    an escape of any other character takes the general, slower way."""
    if b"=" not in payload:
        return payload
    for pair, c in _YPAIRS:
        payload = payload.replace(pair, c)
    if payload.count(b"=") == payload.count(b"=}"):
        return payload.replace(b"=}", b"=")
    return re.sub(rb"=(.)", lambda m: _YESC[m.group(1)], payload, flags=re.S)


def _ykeys(line: bytes) -> dict[bytes, bytes]:
    return {k: v for k, v in _YKEY.findall(line)}


def ydecode(block: bytes) -> bytes:
    """The data of a single yEnc block (=ybegin [=ypart] lines =yend, already
    unstuffed), checked against its size and CRC32."""
    if not block.startswith(b"=ybegin"):
        raise NntpProtocolError(f"XZVER reply is not yEnc: {block[:40]!r}")
    pos = block.find(CRLF) + 2
    if pos < 2:
        raise OverviewCutShort("XZVER reply ends in its =ybegin line")
    if block.startswith(b"=ypart", pos):
        pos = block.find(CRLF, pos) + 2
    if block.startswith(b"=yend", pos):
        at = pos - 2
    else:
        at = block.rfind(b"\r\n=yend")
        if at < pos - 2:
            raise OverviewCutShort("XZVER reply has no =yend")
    end = _ykeys(block[at + 2:].split(CRLF, 1)[0])
    payload = _yunescape(block[pos:at].replace(CRLF, b""))
    data = payload.translate(_YTABLE)
    size = end.get(b"size")
    if size is not None and not size.isdigit():
        raise NntpProtocolError(f"XZVER reply's =yend size is not a number: {size[:40]!r}")
    if size is not None and int(size) != len(data):
        raise OverviewCutShort(f"XZVER reply decodes to {len(data)} bytes, its =yend says {int(size)}")
    crc = end.get(b"crc32") or end.get(b"pcrc32")
    if crc is not None and not re.fullmatch(rb"[0-9A-Fa-f]{1,64}", crc):
        raise NntpProtocolError(f"XZVER reply's =yend crc32 is not hex digits: {crc[:40]!r}")
    if crc is not None and int(crc, 16) != zlib.crc32(data):
        raise OverviewCutShort("XZVER reply fails its CRC32")
    return data


def inflate_any(data: bytes, cap: int = MAX_REPLY_BYTES) -> bytes:
    """A zlib, gzip or raw deflate stream inflated whole (providers differ in
    what XZVER carries); OverviewCutShort when it stops early,
    NntpReplyTooLarge when it inflates past cap."""
    if data[:2] == b"\x1f\x8b":
        tries = (31,)
    elif len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0:
        tries = (15, -15)
    else:
        tries = (-15,)
    problem = ""
    for wbits in tries:
        d = zlib.decompressobj(wbits)
        try:
            text = d.decompress(data, cap + 1)
        except zlib.error as e:
            problem = str(e)
            continue
        if len(text) > cap:
            raise NntpReplyTooLarge(f"compressed overview inflates past {cap} bytes")
        if d.eof:
            return text
        problem = "the stream stops before its end"
    raise OverviewCutShort(f"compressed overview does not inflate: {problem}")


def _could_be_date_reply(side: bytes) -> bool | None:
    """True when `side` opens with a whole DATE answer, None while it might
    still become one, False when it cannot."""
    for i, c in enumerate(side[:len(_DATE_SHAPE)]):
        want = _DATE_SHAPE[i]
        if not (48 <= c <= 57 if want == 57 else c == want):
            return False
    return True if len(side) >= len(_DATE_SHAPE) else None


def _denied(code: int, line: bytes, what: str) -> NntpDenied | None:
    """NntpDenied for a 502 that says permission denied (and not "too many
    connections"), else None: a busy or unavailable server is tried again."""
    if code == 502 and _DENIED.search(line) and not _BUSY.search(line):
        return NntpDenied(code, line, what, " (the server refuses this host or account; "
                                            "is VOYAGER_NNTP_PORT its reader port?)")
    return None


class GroupInfo(NamedTuple):
    name: str
    count: int
    low: int
    high: int


class Overview(NamedTuple):
    """over_raw()'s answer: kind TEXT (the lines), ZLIB or ZLIB_STUFFED (a
    zlib stream of them, as the server sent it, not yet inflated)."""
    kind: str
    data: bytes


# -- the connection ------------------------------------------------------------------------------

class NntpConnection:
    """One connection to the news server, used by one thread at a time. It
    connects when first used (and again after close()); every command raises
    an NntpError subclass, and the connection closes itself when its state is
    no longer known (a lost or garbled reply)."""

    def __init__(self, config: NntpConfig | None = None):
        self.config = config or NntpConfig.from_env()
        self.sock: socket.socket | None = None
        self._buf = bytearray()
        self._big: bytearray | None = None   # _fill's buffer, reused from reply to reply
        self._inflater = None            # COMPRESS DEFLATE, both ways
        self._deflater = None
        self.capabilities: dict[str, list[str]] | None = None   # None: the server has no CAPABILITIES
        self.modes: tuple[str, ...] = ()   # the overview modes this server offers, best first
        self._probed: set[str] | None = None   # without CAPABILITIES: what XFEATURE answered
        self.gzip: str | None = None     # "gzip" / "gzip-term" once XFEATURE is on (it cannot be turned off)
        self.deflate = False
        self.group_name: str | None = None
        self.idle_since = time.monotonic()
        self.connects = 0
        self.wire_bytes = 0              # bytes read off the socket (compressed, as they came)
        self.probes = 0                  # DATEs sent to tell a cut reply from a pause
        self.last_mode: str | None = None  # the mode of the last overview reply read whole

    # -- opening and closing ---------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self.sock is not None

    def __enter__(self) -> "NntpConnection":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def connect(self) -> None:
        cfg = self.config
        self.close(quit=False)
        where = f"{cfg.host}:{cfg.port}"
        try:
            sock = socket.create_connection((cfg.host, cfg.port), timeout=cfg.timeout)
        except TimeoutError as e:
            raise NntpTimeout(f"{where}: connect timed out") from e
        except OSError as e:
            raise NntpConnectionLost(f"{where}: {e}") from e
        # commands are small and each waits for its answer
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if cfg.tls:
            try:
                sock = tls_context(cfg.verify).wrap_socket(sock, server_hostname=cfg.host)
            except ssl.SSLCertVerificationError as e:
                sock.close()
                raise NntpError(f"{where}: TLS certificate not trusted ({e.verify_message}); "
                                "VOYAGER_NNTP_VERIFY=0 accepts a self-signed one") from e
            except (ssl.SSLError, OSError) as e:
                sock.close()
                raise NntpConnectionLost(f"{where}: TLS handshake failed: {e}") from e
        self.sock = sock
        self.connects += 1
        try:
            self._handshake()
        except BaseException:
            self.close(quit=False)
            raise
        self.idle_since = time.monotonic()

    def close(self, quit: bool = True) -> None:
        """QUIT (politely, briefly) and close; the next command reconnects."""
        if self.sock is not None and quit:
            # a failure here closes the socket itself (quit=False)
            with contextlib.suppress(NntpError, OSError):
                self.sock.settimeout(2)
                self._send("QUIT")
                self._line()
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.close()
        self.sock = None
        self._buf.clear()
        self._big = None
        self._inflater = self._deflater = None
        self.gzip, self.deflate, self.group_name = None, False, None

    def _ensure(self) -> None:
        if self.sock is None:
            self.connect()

    def _handshake(self) -> None:
        code, line = self._status()
        if code not in (200, 201):
            # 400 and 502 at the greeting: the server (or the account) is full for now,
            # unless it says permission denied
            raise _denied(code, line, "greeting") or NntpBusy(code, line, "greeting")
        self._read_capabilities()
        if self.capabilities is None or "MODE-READER" in self.capabilities:
            code, line = self._cmd("MODE READER")
            if code in (400, 502):
                raise _denied(code, line, "MODE READER") or NntpBusy(code, line, "MODE READER")
            if self.capabilities is not None:
                self._read_capabilities()     # RFC 3977 5.3: a reader's list differs (INN's does)
        if self.config.user is not None:
            self._authenticate()
            self._read_capabilities()         # RFC 4643 2.5: they may change once authenticated
        self._choose_modes()

    def _read_capabilities(self) -> None:
        code, line = self._cmd("CAPABILITIES")
        if code != 101:
            self.capabilities = None          # an old server (500), or one that wants AUTHINFO first (480)
            return
        caps: dict[str, list[str]] = {}
        for raw in unstuff(self._read_block()).split(CRLF):
            words = raw.decode("utf-8", "replace").upper().split()
            if words:
                caps[words[0]] = words[1:]
        self.capabilities = caps

    def _authenticate(self) -> None:
        cfg = self.config
        code, line = self._cmd(f"AUTHINFO USER {cfg.user}")
        if code == 381:
            code, line = self._cmd(f"AUTHINFO PASS {cfg.password or ''}")
        if code == 281:
            return
        what = f"AUTHINFO as {cfg.user}"
        if code == 400 or _BUSY.search(line) or (code == 502 and not _AUTH.search(line)):
            raise NntpBusy(code, line, what)
        raise NntpAuthError(code, line, what, " (check VOYAGER_NNTP_USER and VOYAGER_NNTP_PASS)")

    def _choose_modes(self) -> None:
        caps = self.capabilities
        offered = {"plain"}
        if caps is not None:
            xf = caps.get("XFEATURE-COMPRESS", [])
            if "GZIP" in xf:
                offered.add("gzip")
                if "TERMINATOR" in xf:
                    offered.add("gzip-term")
            if "XZVER" in caps:
                offered.add("xzver")
            if "DEFLATE" in caps.get("COMPRESS", []):
                offered.add("deflate")
        else:
            # No CAPABILITIES: ask for the XFEATURE itself (once per server;
            # it stays on for this session). XZVER and COMPRESS are not guessed.
            if self._probed is None:
                self._probed = set()
                for mode in ("gzip-term", "gzip"):
                    if mode in self.config.modes and self._xfeature(mode):
                        self._probed.update(("gzip", mode))
                        break
            offered |= self._probed
        self.modes = tuple(m for m in self.config.modes if m in offered)
        if "plain" not in self.modes:
            self.modes += ("plain",)          # the last resort (cut replies) is always there

    # -- the wire --------------------------------------------------------------------------------
    def _send(self, text: str) -> None:
        data = text.encode("utf-8", "surrogateescape") + CRLF
        if self._deflater is not None:
            data = self._deflater.compress(data) + self._deflater.flush(zlib.Z_SYNC_FLUSH)
        try:
            self.sock.sendall(data)
        except OSError as e:
            self.close(quit=False)
            raise NntpConnectionLost(f"sending {text.split()[0]}: {e}") from e

    def _lost(self, e: OSError | None) -> NntpError:
        """A read that failed (e) or found the connection closed (None): the
        connection is dropped, and the error to raise says which."""
        self.close(quit=False)
        if isinstance(e, TimeoutError):
            return NntpTimeout(f"no answer within {self.config.timeout:g} s")
        return NntpConnectionLost(str(e) if e is not None else "connection closed by the server")

    def _recv(self) -> bytes:
        """The next bytes of the conversation (inflated under COMPRESS DEFLATE)."""
        while True:
            if self.sock is None:
                raise NntpConnectionLost("not connected")
            try:
                data = self.sock.recv(RECV_BYTES)
            except OSError as e:
                raise self._lost(e) from e
            if not data:
                raise self._lost(None)
            self.wire_bytes += len(data)
            if self._inflater is not None:
                try:
                    data = self._inflater.decompress(data)
                except zlib.error as e:
                    self.close(quit=False)
                    raise NntpProtocolError(f"COMPRESS DEFLATE stream: {e}") from e
                if not data:
                    continue
            return data

    def _readable(self) -> bool:
        """Bytes already waiting (so a pause is not the end of a reply)."""
        if isinstance(self.sock, ssl.SSLSocket) and self.sock.pending():
            return True
        return bool(select.select([self.sock], [], [], 0)[0])

    def _line(self) -> bytes:
        buf = self._buf
        while True:
            i = buf.find(b"\n")
            if i >= 0:
                line = bytes(buf[:i]).rstrip(b"\r")
                del buf[:i + 1]
                return line
            if len(buf) > 1 << 16:
                self.close(quit=False)
                raise NntpProtocolError("a status line longer than 64 KiB")
            buf += self._recv()

    def _status(self) -> tuple[int, bytes]:
        line = self._line()
        if len(line) < 3 or not line[:3].isdigit():
            self.close(quit=False)
            raise NntpProtocolError(f"not a status line: {line[:80]!r}")
        return int(line[:3]), line

    def _cmd(self, text: str) -> tuple[int, bytes]:
        self._send(text)
        return self._status()

    def _fill(self, done: Callable[[bytearray, int], int]) -> tuple[bytearray, int]:
        """Reads until done(buf, n) (the first n bytes of buf came) gives the
        length of the reply (>= 0), into one preallocated buffer with
        recv_into: a megabyte is a few Python operations, so a fetch thread
        seldom wants the GIL (the window's thread holds it while it reads
        lines). Returns the buffer and the reply's length; what came after
        it goes back to the conversation. The buffer is this connection's
        and is reused: the caller copies out what it keeps at once."""
        pending = self._buf
        cap = self.config.max_reply_bytes
        if self._inflater is not None:    # COMPRESS DEFLATE: the bytes come inflated, through _recv
            while (end := done(pending, len(pending))) < 0:
                if len(pending) > cap:
                    self._too_large(cap)
                pending += self._recv()
            with memoryview(pending) as view:
                out = bytearray(view[:end])
            del pending[:end]
            return out, end
        big = self._big
        n = len(pending)
        if big is None or len(big) < max(BULK_BYTES, 2 * n):
            big = bytearray(max(BULK_BYTES, 2 * n))
        self._big = None                   # in use (a failure drops it)
        big[:n] = pending                  # as long as pending: copied in place
        pending.clear()
        sock = self.sock
        while (end := done(big, n)) < 0:
            if n > cap:
                self._too_large(cap)
            if len(big) - n < RECV_ROOM:
                big += bytes(len(big))
            if sock is None:
                raise NntpConnectionLost("not connected")
            try:
                got = sock.recv_into(memoryview(big)[n:])
            except OSError as e:
                raise self._lost(e) from e
            if not got:
                raise self._lost(None)
            n += got
            self.wire_bytes += got
        if n > end:
            self._buf += memoryview(big)[end:n]
        if len(big) <= BULK_KEEP:
            self._big = big
        return big, end

    def _too_large(self, cap: int):
        self._buf.clear()
        self.close(quit=False)               # the rest of the reply is not read
        raise NntpReplyTooLarge(f"a reply larger than {cap} bytes (max_reply_bytes): refused")

    def _read_block(self, cap: int | None = None) -> bytes:
        """A multi-line body up to its terminating dot line (still dot-stuffed).
        A server that closes before the dot line sent a body without one:
        NntpProtocolError (a silent one times out: NntpTimeout). With a cap,
        a body past it is not read on: NntpBodyTooLarge, the connection closed."""
        scanned = 0

        def done(buf: bytearray, n: int) -> int:
            nonlocal scanned
            if n >= 3 and buf[0] == 46 and buf[1] == 13 and buf[2] == 10:    # b".\r\n": empty
                return 3
            i = buf.find(b"\r\n.\r\n", max(0, scanned - 4), n)
            scanned = n
            if i < 0 and cap is not None and n > cap:
                raise NntpBodyTooLarge(f"body past {cap} bytes")
            return -1 if i < 0 else i + 5

        try:
            buf, end = self._fill(done)
        except NntpBodyTooLarge:
            self.close(quit=False)
            raise
        except NntpTimeout:
            raise
        except NntpConnectionLost as e:
            raise NntpProtocolError(f"a multi-line reply without its terminating dot line ({e})") from e
        with memoryview(buf) as view:
            return bytes(view[:end - 3])       # one copy, without the dot line

    def _refused(self, code: int, line: bytes, what: str) -> NntpReplyError:
        """The error for an unexpected answer to a data command."""
        if code in (400, 502):
            self.close(quit=False)            # the server closes after these
            return _denied(code, line, what) or \
                (NntpBusy if code == 502 else NntpTemporaryError)(code, line, what)
        if code in (403, 503):
            return NntpTemporaryError(code, line, what)
        if code == 480:
            return NntpAuthError(code, line, what, " (set VOYAGER_NNTP_USER and VOYAGER_NNTP_PASS)")
        if code in (500, 501):
            return NntpUnsupported(code, line, what)
        if code == 411:
            return NntpNoSuchGroup(code, line, what)
        return NntpReplyError(code, line, what)

    # -- commands --------------------------------------------------------------------------------
    def date(self) -> dt.datetime:
        """The server's clock (DATE), in UTC."""
        self._ensure()
        code, line = self._cmd("DATE")
        m = re.fullmatch(rb"111 (\d{14})", line.strip())
        if not m:
            raise self._refused(code, line, "DATE")
        return dt.datetime.strptime(m.group(1).decode(), "%Y%m%d%H%M%S").replace(tzinfo=dt.timezone.utc)

    def list_active(self, wildmat: str | None = None) -> list[dict]:
        """LIST ACTIVE [wildmat] as voyager.plan_groups takes it: [{"name", "low", "high"}]."""
        self._ensure()
        cmd = "LIST ACTIVE" + (f" {wildmat}" if wildmat else "")
        code, line = self._cmd(cmd)
        if code != 215:
            raise self._refused(code, line, cmd)
        rows = []
        for raw in unstuff(self._read_block()).split(CRLF):
            f = raw.split()
            if len(f) < 3 or not (_INT.fullmatch(f[1]) and _INT.fullmatch(f[2])):
                continue                        # not a row: no watermarks to read
            # parsed as they are: plan_groups decides (an absurd, negative or
            # reversed row is refused there by its name)
            rows.append({"name": f[0].decode("utf-8", "surrogateescape"), "low": int(f[2]), "high": int(f[1])})
        return rows

    def group(self, name: str) -> GroupInfo:
        self._ensure()
        code, line = self._cmd(f"GROUP {name}")
        if code != 211:
            self.group_name = None
            raise self._refused(code, line, f"GROUP {name}")
        f = line.split()
        if len(f) < 4 or not all(x.isdigit() for x in f[1:4]):
            self.close(quit=False)
            raise NntpProtocolError(f"GROUP {name}: a 211 without its count, low and high: {line[:80]!r}")
        self.group_name = name
        return GroupInfo(name, int(f[1]), int(f[2]), int(f[3]))

    def _select(self, name: str) -> None:
        if self.group_name != name:
            self.group(name)

    def stat(self, group: str, article: int) -> str | None:
        """The message-id of an article, or None when the server has none by that number."""
        self._ensure()
        self._select(group)
        code, line = self._cmd(f"STAT {article}")
        if code == 223:
            return line.split()[2].decode("utf-8", "surrogateescape")
        if code in (423, 430):
            return None
        raise self._refused(code, line, f"STAT {article}")

    def body(self, message_id: str, cap: int | None = None) -> bytes | None:
        """BODY <message-id>: the body unstuffed, without the dot line; None when
        the server has no such article; past `cap` bytes, NntpBodyTooLarge."""
        self._ensure()
        mid = message_id if message_id.startswith("<") else f"<{message_id}>"
        code, line = self._cmd(f"BODY {mid}")
        if code in (423, 430):
            return None
        if code != 222:
            raise self._refused(code, line, "BODY")
        return unstuff(self._read_block(cap))

    def head_raw(self, group: str, article: int | str, cap: int | None = None) -> bytes | None:
        """An article's header as sent (unstuffed, every line kept, without
        the dot line), or None when there is no such article."""
        self._ensure()
        if isinstance(article, int):
            self._select(group)
        code, line = self._cmd(f"HEAD {article}")
        if code in (423, 430):
            return None
        if code != 221:
            raise self._refused(code, line, f"HEAD {article}")
        return unstuff(self._read_block(cap))

    def head(self, group: str, article: int | str) -> dict[str, str] | None:
        """An article's headers (names lower-cased, folded lines joined), or
        None when there is no such article."""
        raw_head = self.head_raw(group, article)
        if raw_head is None:
            return None
        headers: dict[str, str] = {}
        last = None
        for raw in raw_head.split(CRLF):
            text = raw.decode("utf-8", "surrogateescape")
            if text[:1] in (" ", "\t") and last:
                headers[last] += " " + text.strip()
            elif ":" in text:
                name, _, value = text.partition(":")
                last = name.strip().lower()
                headers.setdefault(last, value.strip())
        return headers

    # -- overview ---------------------------------------------------------------------------------
    def _xfeature(self, mode: str) -> bool:
        code, _ = self._cmd("XFEATURE COMPRESS GZIP" + (" TERMINATOR" if mode == "gzip-term" else ""))
        if code == 290:
            self.gzip = mode
            return True
        return False

    def _drop_mode(self, mode: str) -> None:
        self.modes = tuple(m for m in self.modes if m != mode)

    def _prepare(self, mode: str) -> None:
        """The session as `mode` needs it. XFEATURE cannot be turned off, so a
        plain request on a gzip session starts a new session."""
        if mode in ("gzip", "gzip-term"):
            if self.gzip != mode and not self._xfeature(mode):
                self._drop_mode(mode)
                raise NntpUnsupported(500, b"XFEATURE COMPRESS GZIP refused", mode)
            return
        if mode in ("plain", "deflate") and self.gzip:
            self.close()
            self.connect()                     # (a server without CAPABILITIES is probed once only)
        if mode == "deflate" and not self.deflate:
            code, line = self._cmd("COMPRESS DEFLATE")
            if code != 206:
                self._drop_mode("deflate")
                raise NntpUnsupported(code, line, "COMPRESS DEFLATE")
            # everything after the 206 line is one raw deflate stream each way
            self._inflater = zlib.decompressobj(-15)
            self._deflater = zlib.compressobj(6, zlib.DEFLATED, -15)
            self.deflate = True
            if self._buf:
                self._buf = bytearray(self._inflater.decompress(bytes(self._buf)))

    def _ask(self, use: str, group: str, first: int, last: int) -> bool:
        """The overview command for first..last in mode `use`: True when its
        body follows (224), False when the range holds none (420, 423)."""
        self._prepare(use)
        self._select(group)
        if use == "xzver":
            code, line = self._cmd(f"XZVER {first}-{last}")
        else:
            # the compressed extensions are defined on XOVER
            verb = "OVER" if (self.gzip is None and self.capabilities is not None
                              and "OVER" in self.capabilities) else "XOVER"
            code, line = self._cmd(f"{verb} {first}-{last}")
        if code in (420, 423):
            return False
        if code != 224:
            err = self._refused(code, line, f"overview {group} {first}-{last} ({use})")
            if isinstance(err, NntpUnsupported) and use != "plain":
                self._drop_mode(use)
            raise err
        return True

    def over(self, group: str, first: int, last: int, mode: str | None = None) -> bytes:
        """The overview lines of articles first..last of a group as one blob:
        CRLF-ended lines as the server stores them, no dot-stuffing, no dot
        line (b"" when the range holds none). mode: one of MODES, by default
        the best the server offers. Raises OverviewCutShort for a compressed
        reply that ended early (the connection stays usable)."""
        self._ensure()
        while True:
            use = mode or self.modes[0]
            if use not in self.modes:
                raise NntpUnsupported(500, f"{use} not offered (the server offers {', '.join(self.modes)})".encode())
            try:
                if not self._ask(use, group, first, last):
                    self.last_mode = use
                    return b""
            except NntpUnsupported:
                if mode is None and use != "plain":
                    continue                   # the next best mode
                raise
            try:
                if use == "xzver":
                    text = self._read_xzver()
                elif self.gzip:
                    text = self._read_gzip(self.gzip == "gzip-term")
                else:
                    text = unstuff(self._read_block())
            except NntpError:
                raise
            except BaseException:
                self.close(quit=False)         # stopped mid-reply: what follows on the wire is unknown
                raise
            self.last_mode = use
            return text

    def over_raw(self, group: str, first: int, last: int) -> Overview:
        """The overview of first..last as it came, not inflated: in the first
        of RAW_MODES the server offers (XFEATURE COMPRESS GZIP without
        TERMINATOR, then XZVER), a zlib stream of the lines (ZLIB_STUFFED:
        dot-stuffed, as GZIP sends them; ZLIB: as they are), else over()'s
        TEXT. Whoever reads it inflates it once (libdeflate); one that does
        not inflate was cut short (Eweka) and is fetched again with
        fetch_overview, which tells cuts on the wire."""
        self._ensure()
        while True:
            use = next((m for m in RAW_MODES if m in self.modes), None)
            if use is None:
                return Overview(TEXT, self.over(group, first, last))
            try:
                if not self._ask(use, group, first, last):
                    self.last_mode = use
                    return Overview(TEXT, b"")
            except NntpUnsupported:
                self._drop_mode(use)
                continue                       # the next mode
            try:
                got = self._read_xzver_raw() if use == "xzver" else self._read_gzip_raw()
                self.last_mode = use
                return got
            except NntpError:
                raise
            except BaseException:
                self.close(quit=False)
                raise

    def _read_gzip_raw(self) -> Overview:
        """An XFEATURE COMPRESS GZIP reply (no TERMINATOR) as it came: a zlib
        stream of the dot-stuffed lines, then the dot line. Its end on the
        wire without inflating it: a DATE sent as the reply begins is
        answered right after it, and nothing else is sent meanwhile, so the
        reply ends where what came ends in b".\\r\\n" and the DATE answer.
        (The bytes before it could be a reply cut at its first b".\\r\\n":
        then it does not inflate, and it is fetched again.)"""
        self._send("DATE")

        def done(buf: bytearray, n: int) -> int:
            if n >= 23 and buf[n - 1] == 10 and buf[n - 2] == 13:
                m = _REPLY_THEN_DATE.search(buf, max(0, n - 224), n)
                if m is not None and m.end() == n:
                    return n
            return -1

        buf, n = self._fill(done)
        end = buf.rfind(b"\r\n", 0, n - 2) + 2 - 3     # the reply without the answer and its dot line
        with memoryview(buf) as view:
            if end >= 2 and _zlib_header(view[:2]):
                return Overview(ZLIB_STUFFED, bytes(view[:end]))
            body = bytes(view[:max(0, end)])
        return Overview(TEXT, unstuff(body))    # answered plainly after all

    def _read_xzver_raw(self) -> Overview:
        """An XZVER reply's yEnc decoded; a zlib payload as it came, any other
        (raw deflate, gzip) inflated here."""
        payload = ydecode(unstuff(self._read_block()))
        if _zlib_header(payload):
            return Overview(ZLIB, payload)
        text = inflate_any(payload, self.config.max_reply_bytes)
        if text and not text.endswith(b"\n"):
            raise OverviewCutShort("XZVER reply inflates to a partial last line")
        return Overview(TEXT, text)

    def _read_xzver(self) -> bytes:
        text = inflate_any(ydecode(unstuff(self._read_block())), self.config.max_reply_bytes)
        if text and not text.endswith(b"\n"):
            raise OverviewCutShort("XZVER reply inflates to a partial last line")
        return text

    def _read_gzip(self, terminator: bool) -> bytes:
        """An XFEATURE COMPRESS GZIP reply: a zlib stream of the dot-stuffed
        lines (with the dot line inside under TERMINATOR, after it otherwise).

        The cut: a provider that ends the reply at the first b".\\r\\n" of its
        output sends nothing more, so a pause right after such bytes with the
        stream unfinished is either the cut or chance. A pipelined DATE tells
        them apart: its answer comes at once after a cut, after the rest of
        the reply otherwise."""
        buf = self._buf
        while len(buf) < 3:
            buf += self._recv()
        if not _zlib_header(buf):
            return unstuff(self._read_block())   # answered plainly after all
        d = zlib.decompressobj()
        parts = []
        data = bytes(buf)
        buf.clear()
        tail = b""
        probed = False
        cap = self.config.max_reply_bytes
        inflated = 0
        while True:
            try:
                parts.append(d.decompress(data, cap + 1 - inflated))
            except zlib.error as e:
                self.close(quit=False)         # the rest of the reply cannot be found
                raise OverviewCutShort(f"compressed reply does not inflate: {e}") from e
            inflated += len(parts[-1])
            if inflated > cap:
                self._too_large(cap)
            if d.eof:
                buf += d.unused_data
                break
            tail = (tail + data)[-3:]
            if tail == b".\r\n" and not probed and not self._readable():
                probed = True
                data = self._probe_cut()
                continue
            data = self._recv()
        # the wire first (the dot line, the probe's answer), so a partial reply leaves it clean
        if not terminator and self._line() != b".":
            self.close(quit=False)
            raise NntpProtocolError("compressed reply not followed by its dot line")
        if probed:
            line = self._line()
            if not line.startswith(b"111"):
                self.close(quit=False)
                raise NntpProtocolError(f"expected the DATE answer, got {line[:80]!r}")
        tail = b""
        for part in reversed(parts):
            tail = part[-5:] + tail
            if len(tail) >= 5:
                break
        if terminator:
            if tail == b".\r\n":
                return b""
            if not tail.endswith(b"\r\n.\r\n"):
                raise OverviewCutShort("compressed reply inflates to a partial reply (no terminator)")
            cut = 3                            # the dot line goes before the join: no second copy
            while cut:
                n = min(cut, len(parts[-1]))
                parts[-1] = parts[-1][:len(parts[-1]) - n]
                cut -= n
                if not parts[-1]:
                    parts.pop()
        elif tail and not tail.endswith(CRLF):
            raise OverviewCutShort("compressed reply inflates to a partial last line")
        return unstuff(b"".join(parts))

    def _probe_cut(self) -> bytes:
        """After a suspected cut: DATE. Raises OverviewCutShort when its answer
        comes next; else returns the reply's next bytes (the answer follows
        the reply, read then)."""
        self.probes += 1
        try:
            self._send("DATE")
            side = b""
            while True:
                side += self._recv()
                state = _could_be_date_reply(side)
                if state is True:
                    m = _DATE_REPLY.match(side)
                    self._buf += side[m.end():]
                    raise OverviewCutShort("compressed reply cut short after a b'.\\r\\n' in its bytes")
                if state is False:
                    return side
        except NntpConnectionLost as e:
            raise OverviewCutShort(f"compressed reply cut short, then the connection closed: {e}") from e


# -- reliable fetching --------------------------------------------------------------------------

def call(conn: NntpConnection, fn: Callable[[], T], *, retries: int | None = None,
         sleep: Callable[[float], None] = time.sleep) -> T:
    """fn() on conn, reconnecting with backoff on dropped connections,
    timeouts, "too many connections" and temporary refusals. The first
    reconnect after a lost connection is immediate (an idle one the server
    dropped); refusals always wait."""
    cfg = conn.config
    retries = cfg.retries if retries is None else retries
    backoff = Backoff(cfg.backoff_base, cfg.backoff_max)
    failures = 0
    while True:
        try:
            return fn()
        except RETRYABLE as e:
            failures += 1
            if failures > retries:
                raise
            if isinstance(e, NntpConnectionLost) or not conn.connected:
                conn.close(quit=False)
            immediate = failures == 1 and isinstance(e, NntpConnectionLost) and not isinstance(e, NntpTimeout)
            sleep(0 if immediate else backoff.next())


def fetch_overview(conn: NntpConnection, group: str, first: int, last: int, mode: str | None = None,
                   cuts: int = 0) -> bytes:
    """conn.over() made reliable: reconnects as call() does; a cut compressed
    reply is asked again (config.cut_retries times), then in plain mode (the
    provider cuts the same reply the same way). cuts: those already seen
    (a spooled reply that did not inflate)."""
    state = {"mode": mode, "cuts": cuts}

    def attempt() -> bytes:
        while True:
            try:
                return conn.over(group, first, last, mode=state["mode"])
            except OverviewCutShort:
                state["cuts"] += 1
                if state["cuts"] > conn.config.cut_retries:
                    state["mode"] = "plain"

    return call(conn, attempt)


def fetch_overview_raw(conn: NntpConnection, group: str, first: int, last: int) -> Overview:
    """conn.over_raw() made reliable as call() makes it; a reply found cut
    short here (an XZVER payload off its size or CRC) goes to fetch_overview."""
    try:
        return call(conn, lambda: conn.over_raw(group, first, last))
    except OverviewCutShort:
        return Overview(TEXT, fetch_overview(conn, group, first, last, cuts=1))


def chunk_requests(first: int, last: int, chunk_articles: int = CHUNK_ARTICLES) -> list[tuple[int, int]]:
    """first..last cut on the chunk grid (tiled from article 1 in steps of
    voyager.settings chunk_articles): one (first, last) per chunk request."""
    if chunk_articles <= 0:
        raise ValueError("chunk_articles must be positive")
    out = []
    a = max(1, first)
    while a <= last:
        b = min(last, ((a - 1) // chunk_articles + 1) * chunk_articles)
        out.append((a, b))
        a = b + 1
    return out


def overview_chunks(conn: NntpConnection, group: str, first: int, last: int,
                    chunk_articles: int = CHUNK_ARTICLES) -> Iterator[tuple[int, int, bytes]]:
    """(chunk first, chunk last, lines) for first..last in article order."""
    for a, b in chunk_requests(first, last, chunk_articles):
        yield a, b, fetch_overview(conn, group, a, b)


def list_active(config: NntpConfig | None = None, wildmat: str | None = None, retries: int = 2) -> list[dict]:
    """LIST ACTIVE of the configured server on a connection of its own
    (`voyager plan`: an operator waits, so it gives up sooner)."""
    with NntpConnection(config) as conn:
        return call(conn, lambda: conn.list_active(wildmat), retries=retries)


# -- posting dates ------------------------------------------------------------------------------

def _plausible(epoch: int | None, now: float) -> bool:
    # skewed clocks and bogus headers: nothing before Usenet's binaries, nothing days ahead
    return epoch is not None and 315_532_800 <= epoch <= now + 2 * 86400


def _parse_date(value: bytes) -> int | None:
    try:
        from ext import scan                      # the window's own Date parser
        return scan.date(value)
    except ImportError:                           # pragma: no cover - a checkout without the build
        import email.utils
        try:
            return int(email.utils.parsedate_to_datetime(value.decode("latin-1")).timestamp())
        except (TypeError, ValueError, IndexError):
            return None


def sample_dates(conn: NntpConnection, group: str, low: int, high: int, n: int = 16,
                 slice_articles: int = 32, via: str = "over") -> list[dict]:
    """When a group's articles were posted: n slices spread over low..high,
    each read in plain mode (a small compressed reply is the one a provider
    cuts), each giving the median Date of its articles and that article:
    [{"article", "posted_at"}] as voyager.record_group_dates takes them.
    via="head" reads one article's Date per point by HEAD instead (the
    first present at or after it within the slice)."""
    if high < low or n <= 0:
        return []
    span = high - low + 1
    width = max(1, min(slice_articles, span))
    points = sorted({low + (span - width) * i // max(1, n - 1) for i in range(n)} if n > 1
                    else {low + (span - width) // 2})
    now = time.time()
    samples: dict[int, int] = {}
    for start in points:
        end = start + width - 1
        dated: list[tuple[int, int]] = []
        if via == "head":
            for article in range(start, end + 1):
                headers = call(conn, lambda a=article: conn.head(group, a))
                if headers is not None:
                    epoch = _parse_date(headers.get("date", "").encode("latin-1", "replace"))
                    if _plausible(epoch, now):
                        dated.append((epoch, article))
                        break
        else:
            text = fetch_overview(conn, group, start, end, mode="plain")
            for line in text.split(b"\n"):
                f = line.split(b"\t", 4)
                if len(f) >= 4 and f[0].isdigit():
                    epoch = _parse_date(f[3].strip())
                    if _plausible(epoch, now):
                        dated.append((epoch, int(f[0])))
        if dated:
            dated.sort()
            epoch, article = dated[len(dated) // 2]
            samples[article] = epoch
    return [{"article": a, "posted_at": dt.datetime.fromtimestamp(e, dt.timezone.utc).isoformat()}
            for a, e in sorted(samples.items())]


# -- the pool -------------------------------------------------------------------------------------

class NntpPool:
    """At most `size` connections (VOYAGER_NNTP_CONNECTIONS), opened when work
    comes, handed to one thread at a time, and closed after idle_seconds
    without work (providers drop quiet connections, and idle
    ones hold the account's slots)."""

    def __init__(self, config: NntpConfig | None = None, size: int | None = None,
                 idle_seconds: float | None = None):
        self.config = config or NntpConfig.from_env()
        self.size = self.config.connections if size is None else size
        self.idle_seconds = self.config.idle_seconds if idle_seconds is None else idle_seconds
        self._all: list[NntpConnection] = []
        self._idle: list[NntpConnection] = []       # the most recently used last
        self._cond = threading.Condition()
        self._closed = False
        self._reaper = threading.Thread(target=self._reap, name="nntp-idle-close", daemon=True)
        self._reaper.start()

    def acquire(self, timeout: float | None = None) -> NntpConnection:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while True:
                if self._closed:
                    raise NntpError("the pool is closed")
                if self._idle:
                    return self._idle.pop()          # the warmest: likely still open
                if len(self._all) < self.size:
                    conn = NntpConnection(self.config)
                    self._all.append(conn)
                    return conn
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise TimeoutError(f"no NNTP connection free within {timeout:g} s")
                self._cond.wait(left)

    def release(self, conn: NntpConnection) -> None:
        conn.idle_since = time.monotonic()
        with self._cond:
            if self._closed:
                conn.close()
                return
            if len(self._all) > self.size and conn in self._all:
                self._all.remove(conn)             # the pool was shrunk while it worked
                self._cond.notify_all()
                conn.close()
                return
            self._idle.append(conn)
            self._cond.notify_all()

    @contextlib.contextmanager
    def connection(self, timeout: float | None = None) -> Iterator[NntpConnection]:
        conn = self.acquire(timeout)
        try:
            yield conn
        except (NntpReplyError, OverviewCutShort):
            raise                              # answers: the connection is in step
        except BaseException:
            conn.close(quit=False)             # anything else may have left a reply half read
            raise
        finally:
            self.release(conn)

    def over(self, group: str, first: int, last: int, mode: str | None = None) -> bytes:
        with self.connection() as conn:
            return fetch_overview(conn, group, first, last, mode)

    def resize(self, size: int) -> None:
        """Follows the account's budget (voyager.nntp_claim): growing lets
        waiting threads open more; shrinking closes idle connections at once
        and busy ones as they come back."""
        size = max(0, int(size))
        with self._cond:
            self.size = size
            extra = []
            while len(self._all) > self.size and self._idle:
                c = self._idle.pop(0)              # the coldest first
                self._all.remove(c)
                extra.append(c)
            self._cond.notify_all()
        for c in extra:
            c.close()

    @property
    def open_connections(self) -> int:
        with self._cond:
            return sum(1 for c in self._all if c.connected)

    def _reap(self) -> None:
        tick = max(0.05, min(5.0, self.idle_seconds / 4))
        while True:
            with self._cond:
                self._cond.wait(tick)
                if self._closed:
                    return
                now = time.monotonic()
                stale = [c for c in self._idle if c.connected and now - c.idle_since >= self.idle_seconds]
                for c in stale:
                    self._idle.remove(c)           # out of reach while it closes
            for c in stale:
                c.close()
            if stale:
                with self._cond:
                    self._idle[:0] = stale         # closed, at the cold end; they reconnect when used
                    self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            idle, self._idle = self._idle, []
            self._cond.notify_all()
        for c in idle:
            c.close()
        self._reaper.join(10)

    def __enter__(self) -> "NntpPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
