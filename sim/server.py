"""The simulator's NNTP server (RFC 3977) over any corpus (the layout of voyager/corpus.py).

It serves a corpus the way a Usenet provider would: LIST ACTIVE, GROUP,
XOVER/OVER (plain, XFEATURE COMPRESS GZIP with or without TERMINATOR, XZVER),
COMPRESS DEFLATE (RFC 8054), articles built from the overview lines, AUTHINFO,
and the provider faults the workers must survive (connection limits, idle
drops, latency, bandwidth caps, cut-short compressed replies, replies dropped
mid-way, error answers, trickling replies), plus a live mode where groups grow.

Overview lines are bytes and are served exactly as stored; nothing here
decodes them.

    python -m sim.server --corpus DIR [--port P] ...
    (the `voyager sim serve` command calls main(argv))
"""
from __future__ import annotations

import argparse
import asyncio
import bisect
import collections
import concurrent.futures
import contextlib
import datetime as dt
import hashlib
import itertools
import json
import logging
import os
import random
import re
import signal
import ssl
import sys
import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import AsyncIterator, Iterator

from voyager.corpus import CRLF, ChunkInfo, Corpus, line_number
# RFC 3977 wildmat: the same matcher the database's voyager.wildmat() runs
from voyager_pl.wildmat import match as wildmat_match

log = logging.getLogger("sim.server")

TERMINATOR = b".\r\n"
SLICE = 1 << 20                    # write in 1 MiB pieces
PIECE = 1 << 20                    # compress in 1 MiB pieces ...
PARALLEL = 3                       # ... this many at a time per reply
OVERVIEW_FMT = ["Subject:", "From:", "Date:", "Message-ID:", "References:",
                ":bytes", ":lines", "Xref:full"]

# Commands an unauthenticated client may send when AUTHINFO is required.
PRE_AUTH = {"CAPABILITIES", "QUIT", "MODE", "AUTHINFO", "HELP", "DATE"}
# Commands that the error fault may answer with an error instead.
ERRORABLE = {"GROUP", "LISTGROUP", "LIST", "XOVER", "OVER", "XZVER",
             "HEAD", "BODY", "ARTICLE", "STAT"}
# Replies the latency fault delays (a big provider takes 1.5-2 s per XOVER).
SLOW = {"XOVER", "OVER", "XZVER"}
# Replies the drop fault cuts (the big ones).
DROPPABLE = {"XOVER", "OVER", "XZVER", "ARTICLE", "BODY", "LISTGROUP"}
CLOSING_ERRORS = {400, 502}
ERROR_TEXT = {400: "400 Service temporarily unavailable",
              502: "502 Service permanently unavailable",
              503: "503 Program fault - command not performed"}


@dataclass
class ServerOptions:
    corpus: str | None = None                  # or given to NewsServer / run_in_thread directly
    host: str = "127.0.0.1"
    port: int = 0                              # 0: pick a free port
    user: str | None = None                    # AUTHINFO required when set
    password: str | None = None
    accounts: dict[str, str] = field(default_factory=dict)   # more user -> password
    tls_cert: str | None = None
    tls_key: str | None = None
    max_connections: int = 0                   # per account; 0 = no limit
    idle_timeout: float = 0.0                  # seconds of silence before a drop; 0 = never
    latency: float = 0.0                       # seconds before each XOVER/OVER/XZVER reply
    bandwidth: int = 0                         # bytes/s per connection; 0 = no cap
    cut_short_rate: float = 0.0                # share of compressed XOVER replies cut at the first b".\r\n"
    drop_rate: float = 0.0                     # share of big replies dropped mid-way
    error_rate: float = 0.0                    # share of data commands answered with an error
    error_codes: tuple[int, ...] = (400, 503, 502)
    # The compressed overview a provider offers (any of XFEATURE, XZVER,
    # COMPRESS); () is a server with plain XOVER/OVER only.
    compression: tuple[str, ...] = ("XFEATURE", "XZVER", "COMPRESS")
    capabilities: bool = True                  # False: an old server, CAPABILITIES unknown (500)
    trickle: bool = False                      # replies in tiny pieces with pauses
    trickle_bytes: int = 16
    trickle_pause: float = 0.002
    live: bool = False                         # groups grow while serving
    live_rate: int = 5                         # new articles per group per tick
    live_interval: float = 1.0
    seed: int = 0
    compress_level: int = 1                    # zlib level of compressed replies built on the fly
    reply_cache_bytes: int = 64 << 20          # LRU of recently built XOVER replies; 0 = off
    chunk_cache: int = 4                       # inflated chunks kept
    # Learn every stored chunk's dot-stuffing before serving (a provider's
    # index): a request for one whole chunk in GZIP or XZVER then goes out as
    # the chunk file without inflating it first; else learnt at first use.
    index_chunks: bool = False
    path_host: str = "voyager-sim"

    def credentials(self) -> dict[str, str]:
        creds = dict(self.accounts)
        if self.user is not None:
            creds[self.user] = self.password or ""
        return creds


# -- byte helpers ---------------------------------------------------------------

def dot_stuff(text: bytes) -> bytes:
    """RFC 3977 3.1.1: a line starting with '.' gets another one."""
    if b"\r\n." in text:
        text = text.replace(b"\r\n.", b"\r\n..")
    if text.startswith(b"."):
        text = b"." + text
    return text


def zlib_header(level: int) -> bytes:
    """The two bytes that open an RFC 1950 stream made at this level."""
    flevel = 0 if level in (0, 1) else 1 if level < 6 else 2 if level in (6, -1) else 3
    flg = flevel << 6
    flg += 31 - ((0x78 << 8 | flg) % 31)
    return bytes((0x78, flg))


def deflate_piece(piece, zdict: bytes, level: int) -> tuple[bytes, int, int]:
    """One piece of a deflate stream: primed with the data before it, ended
    on a byte boundary without the final bit; with its Adler-32 and length."""
    if zdict:
        c = zlib.compressobj(level, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY, zdict)
    else:
        c = zlib.compressobj(level, zlib.DEFLATED, -15)
    return c.compress(piece) + c.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(piece), len(piece)


def adler32_combine(adler1: int, adler2: int, len2: int) -> int:
    """zlib's adler32_combine(): the Adler-32 of A+B from those of A and B."""
    base = 65521
    rem = len2 % base
    sum1 = adler1 & 0xFFFF
    sum2 = (rem * sum1) % base
    sum1 += (adler2 & 0xFFFF) + base - 1
    sum2 += ((adler1 >> 16) & 0xFFFF) + ((adler2 >> 16) & 0xFFFF) + base - rem
    if sum1 >= base:
        sum1 -= base
    if sum1 >= base:
        sum1 -= base
    if sum2 >= base << 1:
        sum2 -= base << 1
    if sum2 >= base:
        sum2 -= base
    return sum1 | (sum2 << 16)


try:
    import deflate as _libdeflate           # libdeflate: ~1.7x zlib's speed, lets go of the GIL
except ImportError:                         # pragma: no cover - a dependency
    _libdeflate = None


def inflate_chunk(data: bytes, copy: bool = True) -> bytes | bytearray:
    """A chunk file's zlib stream inflated (libdeflate with a guessed size,
    retried larger; zlib where that fails, raising its zlib.error). libdeflate
    gives a bytearray: bytes unless copy is False (a look that keeps nothing)."""
    if _libdeflate is not None and data:
        guess = max(len(data) * 8, 1 << 16)
        for _ in range(3):
            try:
                out = _libdeflate.zlib_decompress(data, guess)
                return bytes(out) if copy else out
            except _libdeflate.DeflateError:
                guess *= 4
    return zlib.decompress(data)


def join_lines(lines: list[bytes]) -> bytes:
    return b"\r\n".join(lines) + b"\r\n" if lines else b""


def yenc_encode(data: bytes) -> tuple[bytes, int]:
    """yEnc lines of 128 (CRLF between, none after) and the CRC32."""
    try:
        import sabctools
        return sabctools.yenc_encode(data)
    except ImportError:       # a hand encoder with the same escaping
        return _yenc_encode_py(data), zlib.crc32(data)


def _yenc_encode_py(data: bytes, line: int = 128) -> bytes:
    out, cur = [], bytearray()
    for b in data:
        c = (b + 42) & 0xFF
        if c in (0, 10, 13, 61) or (not cur and c in (9, 32, 46)) or (len(cur) >= line - 1 and c in (9, 32)):
            cur += bytes((61, (c + 64) & 0xFF))
        else:
            cur.append(c)
        if len(cur) >= line:
            out.append(bytes(cur))
            cur = bytearray()
    if cur:
        out.append(bytes(cur))
    return b"\r\n".join(out)


def yenc_block(data: bytes, name: str) -> bytes:
    """One single-part yEnc block, every line ended by CRLF."""
    enc, crc = yenc_encode(data)
    head = b"=ybegin line=128 size=%d name=%s\r\n" % (len(data), name.encode())
    return head + (enc + CRLF if enc else b"") + b"=yend size=%d crc32=%08x\r\n" % (len(data), crc & 0xFFFFFFFF)


_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def rfc5322_date(when: dt.datetime) -> str:
    return (f"{_DAYS[when.weekday()]}, {when.day:02d} {_MONTHS[when.month - 1]} {when.year} "
            f"{when:%H:%M:%S} +0000")


# -- the corpus as served -----------------------------------------------------------

# From a line's first TAB up to the CR that ends it. The cut parts hold no
# CR, so no CRLF is made or lost: the heads line up with the lines, and a
# head holding a stray CR or LF is not a number (the slow path then).
_AFTER_NUMBER = re.compile(rb"\t[^\r]*")


class DecodedChunk:
    """An inflated chunk. Its lines and numbers are worked out only when a
    request needs them (a request covering the chunk whole needs neither)."""

    def __init__(self, text: bytes, needs_stuffing: bool | None = None):
        if text and not text.endswith(CRLF):
            text += CRLF
        self.text = text
        self._needs_stuffing = needs_stuffing
        self._heads: list[bytes] | None = None     # each line's first field
        self._numbers: list[int | None] | None = None
        self._sorted = False                        # numbered, strictly increasing, plain CRLF lines
        self._lines: list[bytes] | None = None
        self._by_number: dict[int, bytes] | None = None

    @property
    def needs_stuffing(self) -> bool:
        if self._needs_stuffing is None:
            self._needs_stuffing = self.text.startswith(b".") or b"\r\n." in self.text
        return self._needs_stuffing

    @property
    def lines(self) -> list[bytes]:
        if self._lines is None:
            self._lines = self.text[:-2].split(CRLF) if self.text else []
        return self._lines

    @property
    def numbers(self) -> list[int | None]:
        if self._numbers is None:
            self._index()
        return self._numbers

    def _index(self) -> None:
        # The first fields without splitting the text into line objects.
        heads = _AFTER_NUMBER.sub(b"", self.text).split(CRLF)
        heads.pop()
        numbers = [int(h) if h.isdigit() else None for h in heads]
        # Lines out of order or unnumbered: work from the lines themselves.
        if None not in numbers and all(a < b for a, b in zip(numbers, numbers[1:])):
            self._heads, self._numbers, self._sorted = heads, numbers, True
        else:
            self._numbers = [line_number(line) for line in self.lines]

    def _line_start(self, i: int, lo: int = 0) -> int:
        if i == 0:
            return 0
        at = self.text.find(CRLF + self._heads[i] + b"\t", max(0, lo - 2))
        return -1 if at < 0 else at + 2

    def select(self, first: int, last: int) -> bytes:
        """Lines numbered first..last in stored order, CRLF-ended (Corpus.lines
        for a chunk the request covers in part: unnumbered lines left out)."""
        numbers = self.numbers
        if self._sorted:
            # In order: the selection is one slice of the text.
            i, j = bisect.bisect_left(numbers, first), bisect.bisect_right(numbers, last)
            if i >= j:
                return b""
            start = self._line_start(i)
            end = len(self.text) if j == len(numbers) else self._line_start(j, start)
            if start >= 0 and end >= 0:
                return self.text[start:end]
        return join_lines([line for line, n in zip(self.lines, numbers)
                           if n is not None and first <= n <= last])

    def get(self, number: int) -> bytes | None:
        if self._by_number is None:
            by: dict[int, bytes] = {}
            for line, n in zip(self.lines, self.numbers):
                if n is not None:
                    by.setdefault(n, line)
            self._by_number = by
        return self._by_number.get(number)


@dataclass
class GroupState:
    name: str
    low: int
    listed_high: int
    chunks: list[ChunkInfo]
    stored: int                                   # overview lines on disk
    lasts: list[int] = field(default_factory=list)
    firsts: list[int] = field(default_factory=list)
    live_numbers: list[int] = field(default_factory=list)
    live_lines: list[bytes] = field(default_factory=list)
    live_by_number: dict[int, bytes] = field(default_factory=dict)

    def __post_init__(self):
        self.lasts = [c.last for c in self.chunks]
        self.firsts = [c.first for c in self.chunks]

    @property
    def base_high(self) -> int:
        return max([self.listed_high] + self.lasts[-1:])

    @property
    def high(self) -> int:
        return self.live_numbers[-1] if self.live_numbers else self.listed_high

    @property
    def count(self) -> int:
        return self.stored + len(self.live_numbers)

    def parts(self, first: int, last: int) -> list[tuple[ChunkInfo, bool]]:
        """Chunks overlapping first..last, each with whether the request covers it whole."""
        out = []
        i = bisect.bisect_left(self.lasts, first)
        while i < len(self.chunks) and self.chunks[i].first <= last:
            c = self.chunks[i]
            out.append((c, first <= c.first and c.last <= last))
            i += 1
        return out

    def chunk_for(self, number: int) -> ChunkInfo | None:
        i = bisect.bisect_right(self.firsts, number) - 1
        if i >= 0 and self.chunks[i].first <= number <= self.chunks[i].last:
            return self.chunks[i]
        return None

    def live_between(self, first: int, last: int) -> list[bytes]:
        lo = bisect.bisect_left(self.live_numbers, first)
        hi = bisect.bisect_right(self.live_numbers, last)
        return self.live_lines[lo:hi]


@dataclass
class OverPlan:
    group: str
    first: int
    last: int
    parts: list[tuple[ChunkInfo, bool]]
    live: list[bytes]
    explicit: list[bytes] | None = None          # OVER <message-id>: the line itself

    def key(self, mode: str, level: int):
        if self.explicit is not None:
            return None
        return (self.group, self.first, self.last, len(self.live), mode, level)


class IdleTimeout(Exception):
    pass


# -- the server --------------------------------------------------------------------

class NewsServer:
    """An asyncio NNTP server over one corpus. `await start()`, `.port`,
    `await stop()`; options may be changed while it runs (each command
    reads them afresh)."""

    def __init__(self, corpus: str | Path | Corpus | ServerOptions | None = None,
                 options: ServerOptions | None = None):
        if isinstance(corpus, ServerOptions):
            corpus, options = None, corpus
        self.options = options or ServerOptions()
        corpus = corpus if corpus is not None else self.options.corpus
        if corpus is None:
            raise ValueError("no corpus to serve")
        self.corpus = corpus if isinstance(corpus, Corpus) else Corpus(corpus)
        self.port: int = self.options.port
        self.host: str = self.options.host
        self.groups: dict[str, GroupState] = {}
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task] = set()
        self._accounts: dict[str, int] = {}
        self._serial = 0
        self._lock = threading.Lock()             # chunk LRU and flags, touched from pool threads
        self._chunks: OrderedDict[Path, DecodedChunk] = OrderedDict()
        self._stuffing: dict[Path, bool] = {}       # per chunk, once known
        self._stored_ok: dict[Path, bool] = {}
        # CPU work of replies (inflate, cut, compress): zlib lets go of the GIL.
        self._cpu = concurrent.futures.ThreadPoolExecutor(
            max_workers=(os.cpu_count() or 2) + 1, thread_name_prefix="news-cpu")
        self._replies: OrderedDict[tuple, list[bytes]] = OrderedDict()
        self._replies_bytes = 0
        self._mid_index: asyncio.Future | None = None
        self._group_order: list[str] = []
        self._live_mids: dict[bytes, tuple[str, int]] = {}
        self._live_task: asyncio.Task | None = None
        self._live_templates: dict[str, list[list[bytes]]] = {}
        self._live_rng = random.Random(f"live:{self.options.seed}")
        self._bodies = None                         # sim.bodies.Bodies, indexed; see bodies()
        self._bodies_lock = threading.Lock()
        # open and peak_open: connections at once, what a client's pool is held to
        self.stats = {"connections": 0, "commands": 0, "over_lines_replies": 0, "open": 0, "peak_open": 0}

    # -- lifecycle ---------------------------------------------------------------
    def _load(self) -> None:
        for row in self.corpus.groups():
            name = row["name"]
            chunks = list(self.corpus.chunks(name, 1, None))
            self.groups[name] = GroupState(name=name, low=int(row["low"]), listed_high=int(row["high"]),
                                           chunks=chunks, stored=sum(c.lines for c in chunks))
        self._group_order = list(self.groups)

    def ssl_context(self) -> ssl.SSLContext | None:
        o = self.options
        if not o.tls_cert:
            return None
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(o.tls_cert, o.tls_key or None)
        return ctx

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self._load)
        if self.options.index_chunks:
            await asyncio.gather(*(loop.run_in_executor(self._cpu, self.learn_chunk, c)
                                   for g in self.groups.values() for c in g.chunks))
        self._server = await asyncio.start_server(
            self._on_client, self.options.host, self.options.port,
            ssl=self.ssl_context(), backlog=512, limit=1 << 16)
        sock = self._server.sockets[0].getsockname()
        self.host, self.port = sock[0], sock[1]
        if self.options.live:
            self._live_task = asyncio.create_task(self._live_loop())

    async def stop(self) -> None:
        if self._live_task:
            self._live_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._live_task
        if self._server:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server:
            await self._server.wait_closed()
        self._cpu.shutdown(wait=False, cancel_futures=True)

    async def _on_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        self._tasks.add(task)
        self._serial += 1
        self.stats["connections"] += 1
        self.stats["open"] += 1
        self.stats["peak_open"] = max(self.stats["peak_open"], self.stats["open"])
        session = Session(self, reader, writer, self._serial)
        try:
            await session.run()
        except asyncio.CancelledError:
            pass
        finally:
            self.stats["open"] -= 1
            self._tasks.discard(task)
            session.release_account()
            with contextlib.suppress(Exception):
                writer.close()

    # -- accounts --------------------------------------------------------------------
    def claim(self, account: str) -> bool:
        """Count a connection against its account; False past max_connections."""
        limit = self.options.max_connections
        if limit and self._accounts.get(account, 0) >= limit:
            return False
        self._accounts[account] = self._accounts.get(account, 0) + 1
        return True

    def unclaim(self, account: str) -> None:
        n = self._accounts.get(account, 0) - 1
        if n > 0:
            self._accounts[account] = n
        else:
            self._accounts.pop(account, None)

    # -- chunks -----------------------------------------------------------------------
    def decoded(self, chunk: ChunkInfo) -> DecodedChunk:
        """The inflated chunk, from a small LRU (runs in pool threads)."""
        with self._lock:
            dc = self._chunks.get(chunk.path)
            if dc is not None:
                self._chunks.move_to_end(chunk.path)
                return dc
        dc = DecodedChunk(inflate_chunk(chunk.read()), self._stuffing.get(chunk.path))
        with self._lock:
            self._chunks[chunk.path] = dc
            while len(self._chunks) > max(1, self.options.chunk_cache):
                self._chunks.popitem(last=False)
        return dc

    def stored_reply_ok(self, chunk: ChunkInfo) -> bool:
        """Whether the chunk file's zlib bytes can go out as they are: no line
        needs dot-stuffing and the text ends with CRLF. Learnt once per chunk."""
        ok = self._stored_ok.get(chunk.path)
        if ok is None:
            with self._lock:
                dc = self._chunks.get(chunk.path)
            ok = self.learn_chunk(chunk, dc)
        return ok

    def learn_chunk(self, chunk: ChunkInfo, dc: DecodedChunk | None = None) -> bool:
        """Whether a chunk's lines need dot-stuffing, and so whether its file
        can be a reply as it is (stored_reply_ok), from its text."""
        text = dc.text if dc is not None else inflate_chunk(chunk.read(), copy=False)
        stuffing = dc.needs_stuffing if dc is not None else (text.startswith(b".") or b"\r\n." in text)
        ok = not stuffing and (not text or text.endswith(CRLF))
        self._stuffing[chunk.path] = stuffing
        self._stored_ok[chunk.path] = ok
        return ok

    def article_line(self, group: GroupState, number: int) -> bytes | None:
        line = group.live_by_number.get(number)
        if line is not None:
            return line
        chunk = group.chunk_for(number)
        if chunk is None:
            return None
        return self.decoded(chunk).get(number)

    def has_lines(self, plan: OverPlan) -> bool:
        if plan.explicit is not None or plan.live:
            return bool(plan.explicit) or bool(plan.live)
        for chunk, whole in plan.parts:
            if whole and chunk.lines:
                return True
        for chunk, whole in plan.parts:
            if not whole and any(n is not None and plan.first <= n <= plan.last
                                 for n in self.decoded(chunk).numbers):
                return True
        return False

    def numbers(self, group: GroupState, first: int, last: int) -> list[int]:
        out = []
        for chunk, _ in group.parts(first, last):
            out.extend(n for n in self.decoded(chunk).numbers if n is not None and first <= n <= last)
        out.extend(n for n in group.live_numbers if first <= n <= last)
        return sorted(set(out))

    # -- overview replies ---------------------------------------------------------------
    def plan(self, group: GroupState, first: int, last: int) -> OverPlan:
        return OverPlan(group.name, first, last, group.parts(first, last), group.live_between(first, last))

    def part_text(self, chunk: ChunkInfo, whole: bool, first: int, last: int, stuff: bool) -> bytes:
        dc = self.decoded(chunk)
        if not whole:
            return dc.select(first, last)        # numbered lines only: nothing to stuff
        if not stuff:
            return dc.text
        self._stuffing[chunk.path] = dc.needs_stuffing
        return dot_stuff(dc.text) if dc.needs_stuffing else dc.text

    async def build(self, plan: OverPlan, mode: str) -> AsyncIterator[bytes]:
        """The reply body in pieces, without the plain terminator.
        mode: "plain" (dot-stuffed lines), "gzip" (one zlib stream of them),
        "gzip-term" (of them and the terminator), "zlib" (XZVER: of the lines
        as they are). The CPU work runs in the server's pool: the next part is
        inflated and cut while this one is compressed, and compression runs
        in pieces side by side (pigz style: each piece primed with the 32 KiB
        before it, ended on a byte boundary, the Adler-32s combined)."""
        loop = asyncio.get_running_loop()

        def run(fn, *args):
            return loop.run_in_executor(self._cpu, fn, *args)

        stuff = mode != "zlib"
        if (mode in ("gzip", "zlib") and plan.explicit is None and not plan.live
                and len(plan.parts) == 1 and plan.parts[0][1]
                and await run(self.stored_reply_ok, plan.parts[0][0])):
            # The request is one stored chunk: its file is the compressed reply.
            data = await run(plan.parts[0][0].read)
            if data:
                yield data
            return

        def texts() -> Iterator[asyncio.Future | bytes]:
            if plan.explicit is not None:
                text = join_lines(plan.explicit)
                yield dot_stuff(text) if stuff else text
            for chunk, whole in plan.parts:
                yield run(self.part_text, chunk, whole, plan.first, plan.last, stuff)
            if plan.live:
                text = join_lines(plan.live)
                yield dot_stuff(text) if stuff else text

        # Up to two parts ahead: their inflating and cutting overlap this
        # part's compressing and sending.
        ahead: list = []
        source = texts()
        ahead.extend(itertools.islice(source, 2))
        level = self.options.compress_level
        if mode != "plain":
            yield zlib_header(level)
        adler, tail = 1, b""                  # tail: the 32 KiB window before the next piece
        compressing: collections.deque = collections.deque()
        try:
            while ahead:
                item = ahead.pop(0)
                ahead.extend(itertools.islice(source, 1))
                text = await item if isinstance(item, asyncio.Future) else item
                if mode == "plain":
                    if text:
                        yield text
                    continue
                view = memoryview(text)
                for off in range(0, len(text), PIECE):
                    zdict = bytes(view[max(0, off - 32768):off]) if off else tail
                    compressing.append(run(deflate_piece, view[off:off + PIECE], zdict, level))
                    while len(compressing) >= PARALLEL:
                        out, a, n = await compressing.popleft()
                        adler = adler32_combine(adler, a, n)
                        yield out
                tail = (tail + bytes(view[-32768:]))[-32768:]
            while compressing:
                out, a, n = await compressing.popleft()
                adler = adler32_combine(adler, a, n)
                yield out
        finally:
            for fut in list(ahead) + list(compressing):
                if isinstance(fut, asyncio.Future):
                    fut.cancel()
        if mode != "plain":
            end = zlib.compressobj(level, zlib.DEFLATED, -15)
            last = TERMINATOR if mode == "gzip-term" else b""
            adler = adler32_combine(adler, zlib.adler32(last), len(last))
            yield end.compress(last) + end.flush() + adler.to_bytes(4, "big")

    async def over_pieces(self, plan: OverPlan, mode: str) -> AsyncIterator[bytes]:
        """build(), through a small LRU of recent replies."""
        key = plan.key(mode, self.options.compress_level) if self.options.reply_cache_bytes > 0 else None
        if key is not None and key in self._replies:
            self._replies.move_to_end(key)
            for piece in self._replies[key]:
                yield piece
            return
        kept: list[bytes] | None = [] if key is not None else None
        size = 0
        async with contextlib.aclosing(self.build(plan, mode)) as pieces:
            async for piece in pieces:
                if kept is not None:
                    kept.append(piece)
                    size += len(piece)
                    if size > self.options.reply_cache_bytes // 4:
                        kept = None
                yield piece
        if kept is not None:
            self._remember(key, kept, size)

    def _remember(self, key, pieces: list[bytes], size: int) -> None:
        self._replies[key] = pieces
        self._replies_bytes += size
        while self._replies_bytes > self.options.reply_cache_bytes and self._replies:
            _, old = self._replies.popitem(last=False)
            self._replies_bytes -= sum(len(p) for p in old)

    # -- message-ids --------------------------------------------------------------------
    def _build_mid_index(self) -> dict[int, int]:
        """hash(message-id) -> group index << 40 | number, over the whole
        corpus once (ints keep it small; a hit is checked against the line)."""
        index: dict[int, int] = {}
        for gi, name in enumerate(self._group_order):
            for chunk in self.groups[name].chunks:
                text = inflate_chunk(chunk.read())
                for line in text.split(CRLF):
                    f = line.split(b"\t", 5)
                    if len(f) < 6 or not f[0].isdigit():
                        continue
                    index.setdefault(hash(f[4]), gi << 40 | int(f[0]))
        log.info("message-id index: %d articles", len(index))
        return index

    async def locate(self, message_id: bytes) -> tuple[GroupState, int, bytes] | None:
        """(group, number, overview line) of a message-id, or None."""
        hit = self._live_mids.get(message_id)
        loop = asyncio.get_running_loop()
        if hit is None:
            if self._mid_index is None:
                self._mid_index = asyncio.ensure_future(loop.run_in_executor(None, self._build_mid_index))
            index = await asyncio.shield(self._mid_index)
            packed = index.get(hash(message_id))
            if packed is None:
                return None
            hit = (self._group_order[packed >> 40], packed & ((1 << 40) - 1))
        group = self.groups[hit[0]]
        line = await loop.run_in_executor(None, self.article_line, group, hit[1])
        if line is None:
            return None
        f = line.split(b"\t", 5)
        if len(f) < 5 or f[4] != message_id:
            return None
        return group, hit[1], line

    # -- bodies ---------------------------------------------------------------------------
    def bodies(self):
        """The corpus's bodies, their index built once: the first requests of a
        fresh server wait here for it, none answers from a half-built state."""
        b = self._bodies
        if b is None:
            with self._bodies_lock:
                b = self._bodies
                if b is None:
                    from sim.bodies import Bodies
                    b = self._bodies = Bodies(self.corpus.root).load()
        return b

    def spot_articles(self) -> dict[bytes, tuple[bytes, bytes]]:
        """<message-id> -> (head, body) of the corpus's spots/articles.jsonl
        (sim.spotfeed): spots and their NZBs carry headers and bodies of
        their own."""
        sa = getattr(self, "_spot_articles", None)
        if sa is None:
            sa = {}
            path = self.corpus.root / "spots" / "articles.jsonl"
            if path.exists():
                with open(path) as fh:
                    for line in fh:
                        a = json.loads(line)
                        sa[f"<{a['message_id']}>".encode("latin-1", "replace")] = (
                            a["head"].encode("latin-1", "replace"),
                            a["body"].encode("latin-1", "replace"))
            self._spot_articles = sa
        return sa

    def body_for(self, message_id: str, size_hint: int) -> bytes | None:
        """The body (CRLF lines, not dot-stuffed) from sim.bodies (a corpus
        without bodies/ gets each article's synthetic one), or None when it
        cannot be made or the file was taken down (gone: BODY answers 430):
        the article then has no body, never another's."""
        spot = self.spot_articles().get(f"<{message_id}>".encode("latin-1", "replace"))
        if spot is not None:
            return spot[1]
        try:
            body = self.bodies().body(message_id, size_hint)
        except Exception as exc:
            log.warning("bodies: %s: %s", message_id, exc)
            return None
        if body is None:
            return None
        body = bytes(body)
        return body if not body or body.endswith(CRLF) else body + CRLF

    # -- live mode --------------------------------------------------------------------------
    async def _live_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.options.live_interval)
            try:
                made = await loop.run_in_executor(None, self._live_make)
            except Exception:
                log.exception("live tick")
                continue
            for name, items in made.items():
                g = self.groups[name]
                for n, line, mid in items:
                    if g.live_numbers and n <= g.live_numbers[-1]:
                        continue
                    g.live_numbers.append(n)
                    g.live_lines.append(line)
                    g.live_by_number[n] = line
                    self._live_mids[mid] = (name, n)

    def _templates(self, g: GroupState) -> list[list[bytes]]:
        tpl = self._live_templates.get(g.name)
        if tpl is None:
            tpl = []
            for chunk in reversed(g.chunks):
                for line in self.decoded(chunk).lines[-500:]:
                    f = line.split(b"\t")
                    if len(f) >= 9 and f[0].isdigit():
                        tpl.append(f)
                if tpl:
                    break
            self._live_templates[g.name] = tpl
        return tpl

    def _live_make(self) -> dict[str, list[tuple[int, bytes, bytes]]]:
        """New overview lines after each group's high watermark: recent lines
        copied with new numbers, message-ids, dates and Xref."""
        rng = self._live_rng
        now = rfc5322_date(dt.datetime.now(dt.timezone.utc)).encode()
        host = self.options.path_host.encode()
        made = {}
        for name in self._group_order:
            g = self.groups[name]
            tpl = self._templates(g)
            n = max(g.high, g.base_high)
            items = []
            for _ in range(max(0, self.options.live_rate)):
                n += 1
                if tpl:
                    f = list(rng.choice(tpl))
                else:
                    f = [b"", b"live article", b"poster <poster@example.com>", b"", b"", b"",
                         b"2048", b"16", b""]
                mid = b"<%s@%s>" % (hashlib.sha1(b"%d:%s:%d" % (self.options.seed, name.encode(), n))
                                    .hexdigest()[:24].encode(), host)
                f[0], f[3], f[4] = str(n).encode(), now, mid
                f[8] = b"Xref: %s %s:%d" % (host, name.encode(), n)
                items.append((n, b"\t".join(f[:9]), mid))
            made[name] = items
        return made


class Session:
    """One client connection."""

    def __init__(self, server: NewsServer, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter, serial: int):
        self.server = server
        self.reader = reader
        self.writer = writer
        self.rng = random.Random(f"{server.options.seed}:{serial}")
        self.group: GroupState | None = None
        self.article: int | None = None
        self.account: str | None = None
        self.pending_user: str | None = None
        self.authed = not server.options.credentials()
        self.gzip = False
        self.gzip_term = False
        self.deflater = None
        self.inflater = None
        self.inbuf = bytearray()
        self._bw_clock = 0.0
        with contextlib.suppress(Exception):
            writer.transport.set_write_buffer_limits(high=4 << 20)

    @property
    def opts(self) -> ServerOptions:
        return self.server.options

    def release_account(self) -> None:
        if self.account is not None:
            self.server.unclaim(self.account)
            self.account = None

    # -- the wire -------------------------------------------------------------------
    async def _read_raw(self) -> bytes:
        timeout = self.opts.idle_timeout
        if timeout and timeout > 0:
            try:
                return await asyncio.wait_for(self.reader.read(65536), timeout)
            except asyncio.TimeoutError:
                raise IdleTimeout() from None
        return await self.reader.read(65536)

    async def readline(self) -> bytes | None:
        while True:
            i = self.inbuf.find(b"\n")
            if i >= 0:
                line = bytes(self.inbuf[:i + 1])
                del self.inbuf[:i + 1]
                return line.rstrip(b"\r\n")
            if len(self.inbuf) > 65536:
                return None                  # no command is that long
            data = await self._read_raw()
            if not data:
                return None
            if self.inflater is not None:
                data = self.inflater.decompress(data)
            self.inbuf += data

    async def _wire(self, data: bytes) -> None:
        """Bytes onto the socket, paced by the trickle and bandwidth faults."""
        w = self.writer
        o = self.opts
        loop = asyncio.get_running_loop()
        view = memoryview(data)
        if o.trickle:
            off = 0
            while off < len(data):
                n = self.rng.randint(1, max(1, o.trickle_bytes))
                w.write(view[off:off + n])
                await w.drain()
                await asyncio.sleep(o.trickle_pause)
                off += n
        elif o.bandwidth and o.bandwidth > 0:
            step = max(256, o.bandwidth // 20)
            for off in range(0, len(data), step):
                piece = view[off:off + step]
                start = max(self._bw_clock, loop.time())
                if start > loop.time():
                    await asyncio.sleep(start - loop.time())
                w.write(piece)
                await w.drain()
                self._bw_clock = start + len(piece) / o.bandwidth
        else:
            for off in range(0, len(data), SLICE):
                w.write(view[off:off + SLICE])
                await w.drain()

    async def send(self, data: bytes) -> None:
        if not data:
            return
        if self.deflater is not None:
            if len(data) > 1 << 18:
                data = await asyncio.get_running_loop().run_in_executor(None, self.deflater.compress, data)
            else:
                data = self.deflater.compress(data)
            if not data:
                return
        await self._wire(data)

    async def flush(self) -> None:
        """The end of a reply: COMPRESS DEFLATE pushes out what it holds."""
        if self.deflater is not None:
            await self._wire(self.deflater.flush(zlib.Z_SYNC_FLUSH))

    async def reply(self, line: str | bytes) -> None:
        await self.send((line.encode("utf-8", "surrogateescape") if isinstance(line, str) else line) + CRLF)
        await self.flush()

    async def multiline(self, status: str, body: bytes) -> None:
        """A status line and a dot-stuffed body of CRLF lines, then the terminator."""
        await self.send(status.encode("utf-8", "surrogateescape") + CRLF + dot_stuff(body) + TERMINATOR)
        await self.flush()

    async def close(self) -> None:
        # A transport flushes what it holds before the FIN, so a dropped
        # reply still arrives in part.
        with contextlib.suppress(Exception):
            self.writer.close()

    # -- the session --------------------------------------------------------------------
    async def run(self) -> None:
        try:
            if not self.opts.credentials():
                if not self.server.claim(""):
                    await self.reply("502 too many connections")
                    return
                self.account = ""
            await self.reply("201 voyager-sim NNTP service ready, posting prohibited")
            while True:
                line = await self.readline()
                if line is None:
                    return
                if not await self.dispatch(line):
                    return
        except IdleTimeout:
            return                            # dropped without a word, as providers do
        except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError):
            return
        except Exception:
            log.exception("connection %s failed", self.writer.get_extra_info("peername"))
        finally:
            await self.close()

    async def dispatch(self, raw: bytes) -> bool:
        """Answer one command; False closes the connection."""
        self.server.stats["commands"] += 1
        text = raw.decode("utf-8", "surrogateescape").strip()
        if not text:
            await self.reply("500 Unknown command")
            return True
        words = text.split()
        cmd, args = words[0].upper(), words[1:]
        o = self.opts
        if not self.authed and cmd not in PRE_AUTH:
            await self.reply("480 Authentication required")
            return True
        if cmd in ERRORABLE and o.error_rate > 0 and self.rng.random() < o.error_rate:
            code = self.rng.choice(tuple(o.error_codes) or (503,))
            await self.reply(ERROR_TEXT.get(code, f"{code} Error"))
            return code not in CLOSING_ERRORS
        handler = getattr(self, "cmd_" + cmd.lower(), None) if cmd.isalpha() else None
        if handler is None:
            await self.reply("500 Unknown command")
            return True
        return await handler(args) is not False

    # -- commands ------------------------------------------------------------------------
    async def cmd_quit(self, args):
        await self.reply("205 closing connection")
        return False

    def offers(self, command: str) -> bool:
        return command in self.opts.compression

    async def cmd_capabilities(self, args):
        if not self.opts.capabilities:
            await self.reply("500 Unknown command")
            return
        caps = ["VERSION 2", "IMPLEMENTATION voyager-sim", "READER", "OVER MSGID",
                "LIST ACTIVE NEWSGROUPS OVERVIEW.FMT"]
        if self.offers("XFEATURE"):
            caps.append("XFEATURE-COMPRESS GZIP TERMINATOR")
        if self.offers("XZVER"):
            caps.append("XZVER")
        if not self.authed:
            caps.append("AUTHINFO USER")
        if self.deflater is None and self.offers("COMPRESS"):
            caps.append("COMPRESS DEFLATE")
        await self.multiline("101 Capability list:", join_lines([c.encode() for c in caps]))

    async def cmd_mode(self, args):
        if len(args) != 1 or args[0].upper() != "READER":
            await self.reply("501 Syntax error")
            return
        await self.reply("201 Posting prohibited")

    async def cmd_help(self, args):
        await self.multiline("100 Help text follows", join_lines([
            b"ARTICLE|BODY|HEAD|STAT [message-id|number]", b"CAPABILITIES", b"COMPRESS DEFLATE",
            b"DATE", b"GROUP newsgroup", b"LIST [ACTIVE|NEWSGROUPS [wildmat]|OVERVIEW.FMT]",
            b"LISTGROUP [newsgroup [range]]", b"MODE READER", b"OVER|XOVER [range]",
            b"XFEATURE COMPRESS GZIP [TERMINATOR]", b"XZVER [range]", b"QUIT"]))

    async def cmd_date(self, args):
        await self.reply("111 " + dt.datetime.now(dt.timezone.utc).strftime("%Y%m%d%H%M%S"))

    async def cmd_authinfo(self, args):
        if len(args) < 2 or args[0].upper() not in ("USER", "PASS"):
            await self.reply("501 Syntax error")
            return
        creds = self.opts.credentials()
        if self.authed and self.account is not None:
            await self.reply("502 Already authenticated")
            return
        value = " ".join(args[1:])
        if args[0].upper() == "USER":
            self.pending_user = value
            await self.reply("381 Password required")
            return
        if self.pending_user is None:
            await self.reply("482 Authentication commands issued out of sequence")
            return
        user, self.pending_user = self.pending_user, None
        if not creds:
            await self.reply("281 Authentication accepted")
            return
        if creds.get(user) != value:
            await self.reply("481 Authentication failed")
            return
        if not self.server.claim(user):
            await self.reply("502 too many connections")
            return False
        self.account = user
        self.authed = True
        await self.reply("281 Authentication accepted")

    async def cmd_list(self, args):
        what = args[0].upper() if args else "ACTIVE"
        pattern = args[1] if len(args) > 1 else None
        if len(args) > 2:
            await self.reply("501 Syntax error")
            return
        groups = [g for g in self.server.groups.values() if pattern is None or wildmat_match(pattern, g.name)]
        if what == "ACTIVE":
            body = join_lines([f"{g.name} {g.high} {g.low} y".encode("utf-8", "surrogateescape") for g in groups])
            await self.multiline("215 list of newsgroups follows", body)
        elif what == "NEWSGROUPS":
            body = join_lines([f"{g.name}\t{g.name}".encode("utf-8", "surrogateescape") for g in groups])
            await self.multiline("215 descriptions follow", body)
        elif what == "OVERVIEW.FMT" and pattern is None:
            await self.multiline("215 Order of fields in overview database",
                                 join_lines([f.encode() for f in OVERVIEW_FMT]))
        else:
            await self.reply("501 Syntax error")

    def _select(self, name: str) -> GroupState | None:
        g = self.server.groups.get(name)
        if g is not None:
            self.group = g
            self.article = g.low if g.count else None
        return g

    async def cmd_group(self, args):
        if len(args) != 1:
            await self.reply("501 Syntax error")
            return
        g = self._select(args[0])
        if g is None:
            await self.reply("411 No such newsgroup")
            return
        await self.reply(f"211 {g.count} {g.low} {g.high} {g.name}")

    async def cmd_listgroup(self, args):
        if len(args) > 2:
            await self.reply("501 Syntax error")
            return
        if args:
            if self._select(args[0]) is None:
                await self.reply("411 No such newsgroup")
                return
        if self.group is None:
            await self.reply("412 No newsgroup selected")
            return
        g = self.group
        span = parse_range(args[1], g.high) if len(args) > 1 else (g.low, g.high)
        if span is None:
            await self.reply("501 Syntax error")
            return
        numbers = await asyncio.get_running_loop().run_in_executor(None, self.server.numbers, g, *span)
        if not args:
            self.article = g.low if g.count else None
        await self.multiline(f"211 {g.count} {g.low} {g.high} {g.name} list follows",
                             join_lines([str(n).encode() for n in numbers]))

    async def cmd_xfeature(self, args):
        if not self.offers("XFEATURE"):
            await self.reply("500 Unknown command")
            return
        words = [a.upper() for a in args]
        if words[:2] == ["COMPRESS", "GZIP"] and words[2:] in ([], ["TERMINATOR"]):
            self.gzip = True
            self.gzip_term = words[2:] == ["TERMINATOR"]
            await self.reply("290 feature enabled")
        else:
            await self.reply("501 Syntax error")

    async def cmd_compress(self, args):
        if not self.offers("COMPRESS"):
            await self.reply("500 Unknown command")
            return
        if len(args) != 1:
            await self.reply("501 Syntax error")
            return
        if self.deflater is not None:
            await self.reply("502 Command unavailable")
            return
        if args[0].upper() != "DEFLATE":
            await self.reply("503 Compression algorithm not supported")
            return
        await self.reply("206 Compression active")
        # Everything after this reply is one raw deflate stream each way.
        self.deflater = zlib.compressobj(self.opts.compress_level, zlib.DEFLATED, -15)
        self.inflater = zlib.decompressobj(-15)
        if self.inbuf:               # pipelined bytes already read are compressed too
            self.inbuf = bytearray(self.inflater.decompress(bytes(self.inbuf)))

    # -- overview ------------------------------------------------------------------------
    async def cmd_xover(self, args):
        return await self._over("XOVER", args)

    async def cmd_over(self, args):
        return await self._over("OVER", args)

    async def cmd_xzver(self, args):
        if not self.offers("XZVER"):
            await self.reply("500 Unknown command")
            return True
        return await self._over("XZVER", args)

    async def _over(self, cmd: str, args) -> bool:
        if len(args) > 1:
            await self.reply("501 Syntax error")
            return True
        srv = self.server
        if args and args[0].startswith("<"):
            if cmd == "XOVER":
                await self.reply("501 Syntax error")
                return True
            hit = await srv.locate(args[0].encode("utf-8", "surrogateescape"))
            if hit is None:
                await self.reply("430 No article with that message-id")
                return True
            line = hit[2]
            tab = line.find(b"\t")
            plan = OverPlan(hit[0].name, 0, 0, [], [], explicit=[b"0" + line[tab:]])
        else:
            if self.group is None:
                await self.reply("412 No newsgroup selected")
                return True
            g = self.group
            current = not args
            if current:
                if self.article is None:
                    await self.reply("420 Current article number is invalid")
                    return True
                span = (self.article, self.article)
            else:
                span = parse_range(args[0], g.high)
                if span is None:
                    await self.reply("501 Syntax error")
                    return True
            plan = srv.plan(g, *span)
            if not await asyncio.get_running_loop().run_in_executor(None, srv.has_lines, plan):
                await self.reply("420 Current article number is invalid" if current
                                 else "423 No articles in that range")
                return True
        if cmd in SLOW and self.opts.latency > 0:
            await asyncio.sleep(self.opts.latency)
        srv.stats["over_lines_replies"] += 1
        if cmd == "XZVER":
            return await self._xzver(plan)
        mode = ("gzip-term" if self.gzip_term else "gzip") if self.gzip else "plain"
        status = b"224 Overview information follows" + (b" (compressed)" if self.gzip else b"") + CRLF
        return await self._stream(status, plan, mode, cmd)

    async def _stream(self, status: bytes, plan: OverPlan, mode: str, cmd: str) -> bool:
        o = self.opts
        cut = mode != "plain" and o.cut_short_rate > 0 and self.rng.random() < o.cut_short_rate
        drop = cmd in DROPPABLE and o.drop_rate > 0 and self.rng.random() < o.drop_rate
        await self.send(status)
        tail = b""
        held = b""                    # drop: one piece held back, so the end never goes out
        budget = self.rng.randint(1, 1 << 16) if drop else 0
        async with contextlib.aclosing(self.server.over_pieces(plan, mode)) as pieces:
            async for piece in pieces:
                if drop:
                    if len(held) >= budget:
                        return await self._drop(held[:budget])
                    await self.send(held)
                    budget -= len(held)
                    held = piece
                    continue
                if cut:
                    # The provider bug: the compressed reply ends right after
                    # the first b".\r\n" inside the compressed bytes.
                    hay = tail + piece
                    i = hay.find(TERMINATOR)
                    if i >= 0:
                        await self.send(piece[:i + 3 - len(tail)])
                        await self.flush()
                        return True
                    tail = hay[-2:]
                await self.send(piece)
        if drop:
            return await self._drop(held[:len(held) // 2])
        if mode in ("plain", "gzip"):
            await self.send(TERMINATOR)
        await self.flush()
        return True

    async def _drop(self, part: bytes) -> bool:
        """The last part of a reply cut mid-way; then the connection goes away."""
        await self.send(part)
        await self.flush()
        return False

    async def _xzver(self, plan: OverPlan) -> bool:
        pieces = []
        async with contextlib.aclosing(self.server.over_pieces(plan, "zlib")) as it:
            async for piece in it:
                pieces.append(piece)
        block = await asyncio.get_running_loop().run_in_executor(None, yenc_block, b"".join(pieces), "xzver")
        reply = b"224 Overview information follows (yEnc, zlib)\r\n" + dot_stuff(block)
        if self.opts.drop_rate > 0 and self.rng.random() < self.opts.drop_rate:
            return await self._drop(reply[:len(reply) // 2])
        await self.send(reply + TERMINATOR)
        await self.flush()
        return True

    # -- articles ------------------------------------------------------------------------
    async def cmd_article(self, args):
        return await self._article("ARTICLE", args)

    async def cmd_head(self, args):
        return await self._article("HEAD", args)

    async def cmd_body(self, args):
        return await self._article("BODY", args)

    async def cmd_stat(self, args):
        return await self._article("STAT", args)

    async def _article(self, cmd: str, args) -> bool:
        if len(args) > 1:
            await self.reply("501 Syntax error")
            return True
        srv = self.server
        loop = asyncio.get_running_loop()
        if args and args[0].startswith("<"):
            hit = await srv.locate(args[0].encode("utf-8", "surrogateescape"))
            if hit is None:
                await self.reply("430 No article with that message-id")
                return True
            group, number, line = hit
            shown = 0
        else:
            if self.group is None:
                await self.reply("412 No newsgroup selected")
                return True
            group = self.group
            if args:
                if not (args[0].isascii() and args[0].isdigit()):
                    await self.reply("501 Syntax error")
                    return True
                number = int(args[0])
                line = await loop.run_in_executor(None, srv.article_line, group, number)
                if line is None:
                    await self.reply("423 No article with that number")
                    return True
                self.article = number
            else:
                number = self.article
                line = None if number is None else await loop.run_in_executor(
                    None, srv.article_line, group, number)
                if line is None:
                    await self.reply("420 Current article number is invalid")
                    return True
            shown = number
        f = line.split(b"\t")
        f += [b""] * (9 - len(f))
        mid = f[4]
        code = {"ARTICLE": 220, "HEAD": 221, "BODY": 222, "STAT": 223}[cmd]
        status = b"%d %d %s" % (code, shown, mid)
        if cmd == "STAT":
            await self.reply(status)
            return True
        head = self._head(f, group)
        body = b""
        if cmd in ("ARTICLE", "BODY"):
            size = int(f[6]) if f[6].isdigit() else 0
            body = await loop.run_in_executor(
                None, srv.body_for, mid.strip(b"<>").decode("utf-8", "surrogateescape"), size)
            if body is None:
                await self.reply("430 No article with that message-id" if args and args[0].startswith("<")
                                 else "423 No article with that number")
                return True
        text = {"ARTICLE": head + CRLF + body, "HEAD": head, "BODY": body}[cmd]
        reply = status + CRLF + dot_stuff(text)
        if cmd in DROPPABLE and self.opts.drop_rate > 0 and self.rng.random() < self.opts.drop_rate:
            return await self._drop(reply[:len(reply) // 2])
        await self.send(reply + TERMINATOR)
        await self.flush()
        return True

    def _head(self, f: list[bytes], group: GroupState) -> bytes:
        """Headers from the overview fields (a spot's: its own)."""
        spot = self.server.spot_articles().get(f[4])
        if spot is not None:
            return spot[0]
        xref = f[8]
        groups = []
        if xref[:5].lower() == b"xref:":
            groups = [t.split(b":", 1)[0] for t in xref[5:].split()[1:] if b":" in t]
        newsgroups = b",".join(groups) or group.name.encode("utf-8", "surrogateescape")
        rows = [b"Path: %s!not-for-mail" % self.opts.path_host.encode(),
                b"From: " + f[2], b"Newsgroups: " + newsgroups, b"Subject: " + f[1],
                b"Date: " + f[3], b"Message-ID: " + f[4]]
        if f[5]:
            rows.append(b"References: " + f[5])
        if xref[:5].lower() == b"xref:":
            rows.append(xref)
        if f[7]:
            rows.append(b"Lines: " + f[7])
        if f[6]:
            rows.append(b"Bytes: " + f[6])
        return join_lines(rows)


def parse_range(arg: str, high: int) -> tuple[int, int] | None:
    """`n`, `n-` (to the high watermark) or `n-m`."""
    m = re.fullmatch(r"(\d+)(?:(-)(\d*))?", arg, re.ASCII)
    if not m:
        return None
    first = int(m.group(1))
    if not m.group(2):
        return first, first
    return first, int(m.group(3)) if m.group(3) else max(high, first)


# -- in-process use ------------------------------------------------------------------------

class ServerThread:
    """A NewsServer on its own event loop in a background thread (tests,
    benches): `.port`, `.server`, `.stop()`; a context manager."""

    def __init__(self, corpus=None, options: ServerOptions | None = None):
        self.loop = asyncio.new_event_loop()
        self.server = NewsServer(corpus, options)
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="news-server", daemon=True)
        self.thread.start()
        self._ready.wait(60)
        if self._error:
            raise self._error

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def host(self) -> str:
        return self.server.host

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self.server.start())
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        self.loop.run_forever()

    def call(self, fn, *args):
        """Run fn(*args) on the server's loop and return its result."""
        async def go():
            return fn(*args)
        return asyncio.run_coroutine_threadsafe(go(), self.loop).result(30)

    def stop(self) -> None:
        if not self.thread.is_alive():
            return
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)
        self.loop.run_until_complete(self.loop.shutdown_default_executor())
        self.loop.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def run_in_thread(corpus=None, options: ServerOptions | None = None) -> ServerThread:
    """run_in_thread(corpus_dir, ServerOptions(...)) or run_in_thread(ServerOptions(corpus=...))."""
    return ServerThread(corpus, options)


# -- command line -----------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="voyager sim serve", description="Serve a corpus over NNTP.")
    p.add_argument("--corpus", required=True, help="corpus folder (the layout of voyager/corpus.py)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=1119, help="0 picks a free port")
    p.add_argument("--user")
    p.add_argument("--password")
    p.add_argument("--tls-cert")
    p.add_argument("--tls-key")
    p.add_argument("--max-connections", type=int, default=0, help="per account; 0 = no limit")
    p.add_argument("--idle-timeout", type=float, default=0.0, help="seconds; 0 = never")
    p.add_argument("--latency", type=float, default=0.0, help="seconds before each XOVER/OVER/XZVER reply")
    p.add_argument("--bandwidth", type=int, default=0, help="bytes/s per connection; 0 = no cap")
    p.add_argument("--cut-short-rate", type=float, default=0.0)
    p.add_argument("--drop-rate", type=float, default=0.0)
    p.add_argument("--error-rate", type=float, default=0.0)
    p.add_argument("--error-codes", default="400,503,502", help="codes the error fault picks from")
    p.add_argument("--compression", default="XFEATURE,XZVER,COMPRESS",
                   help="compressed overview commands offered; '' = plain XOVER/OVER only")
    p.add_argument("--no-capabilities", action="store_true", help="answer CAPABILITIES with 500 (an old server)")
    p.add_argument("--trickle", action="store_true", help="replies in pieces of 1..--trickle-bytes with pauses")
    p.add_argument("--trickle-bytes", type=int, default=16)
    p.add_argument("--trickle-pause", type=float, default=0.002, help="seconds between pieces")
    p.add_argument("--live", action="store_true")
    p.add_argument("--live-rate", type=int, default=5, help="new articles per group per second")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--compress-level", type=int, default=1, help="zlib level of replies built on the fly")
    p.add_argument("--reply-cache-mb", type=int, default=64, help="recently built XOVER replies kept; 0 = none")
    p.add_argument("--index-chunks", action="store_true",
                   help="learn each stored chunk's dot-stuffing before listening (as a provider's index knows "
                        "it): a whole chunk asked for in GZIP or XZVER goes out as its file, not inflated first")
    p.add_argument("-v", "--verbose", action="store_true")
    return p


def options_from_args(a: argparse.Namespace) -> ServerOptions:
    if bool(a.tls_cert) != bool(a.tls_key):
        raise SystemExit("--tls-cert and --tls-key go together")
    if bool(a.user) != (a.password is not None):
        raise SystemExit("--user and --password go together")
    return ServerOptions(
        corpus=a.corpus, host=a.host, port=a.port, user=a.user, password=a.password, tls_cert=a.tls_cert,
        tls_key=a.tls_key, max_connections=a.max_connections, idle_timeout=a.idle_timeout,
        latency=a.latency, bandwidth=a.bandwidth, cut_short_rate=a.cut_short_rate,
        drop_rate=a.drop_rate, error_rate=a.error_rate,
        error_codes=tuple(int(c) for c in a.error_codes.split(",") if c.strip()),
        compression=tuple(c.strip().upper() for c in a.compression.split(",") if c.strip()),
        capabilities=not a.no_capabilities,
        trickle=a.trickle, trickle_bytes=a.trickle_bytes, trickle_pause=a.trickle_pause, live=a.live, live_rate=a.live_rate, seed=a.seed,
        compress_level=a.compress_level, reply_cache_bytes=a.reply_cache_mb << 20,
        index_chunks=a.index_chunks)


def main(argv: list[str] | None = None) -> int:
    a = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if a.verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    options = options_from_args(a)

    async def serve() -> None:
        server = NewsServer(options)
        await server.start()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        print(f"listening on {server.host}:{server.port}", flush=True)
        await stop.wait()
        await server.stop()

    asyncio.run(serve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
