"""The simulator's NNTP server over real TCP on 127.0.0.1: nntplib as an outside
client, a raw-socket client for the compressed replies, and each provider
fault seen from the client's side."""
from __future__ import annotations

import concurrent.futures
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import warnings
import zlib
from pathlib import Path

import pytest

from bench.server import main as bench_main
import sim.server
from sim.server import DecodedChunk, ServerOptions, parse_range, run_in_thread, wildmat_match
from sim.synthetic import synthetic_lines
from voyager.corpus import Corpus, CorpusWriter, line_number

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import nntplib

ROOT = Path(__file__).resolve().parents[2]
TEST = "alt.binaries.test"
MISC = "alt.binaries.misc"
CUT = "alt.binaries.cut"
EMPTY = "alt.binaries.empty"
NON_UTF8_SUBJECT = b'Caf\xe9 \xff\xfe [1/2] - "naive.part1.rar" yEnc (1/3)'
MALFORMED = b"this overview line is broken"
DOT_LINE = b".a malformed line that starts with a dot"


# -- the corpus -----------------------------------------------------------------------

def _lines(group: str, first: int, last: int) -> list[bytes]:
    return [line for _, line in synthetic_lines(group, first, last, seed=7, gap_rate=0.03)]


def _replace_subject(line: bytes, subject: bytes) -> bytes:
    f = line.split(b"\t")
    f[1] = subject
    return b"\t".join(f)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Corpus:
    """Three groups with data in ranges of 1000 articles and chunks of 400
    (so requests straddle chunks and ranges), one written uncompressed (for
    the cut-short fault) and one listed without data."""
    root = tmp_path_factory.mktemp("corpus")
    w = CorpusWriter(root)

    def chunks(group, start, end, size, low, high):
        out = []
        first = max(start, low)
        while first <= min(end, high):
            last = min(first - (first - start) % size + size - 1, end, high)
            out.append([first, last, _lines(group, first, last)])
            first = last + 1
        return out

    # alt.binaries.test: 1..2600 in ranges 1-1000, 1001-2000, 2001-3000.
    ranges = {s: chunks(TEST, s, s + 999, 400, 1, 2600) for s in (1, 1001, 2001)}
    c = ranges[1][0][2]                       # articles 1-400
    i = next(k for k, line in enumerate(c) if line_number(line) >= 17)
    c[i] = _replace_subject(c[i], NON_UTF8_SUBJECT)
    i = next(k for k, line in enumerate(c) if line_number(line) >= 30)
    c[i], c[i + 1] = c[i + 1], c[i]           # an out-of-order pair
    c = ranges[1][1][2]                       # articles 401-800
    c.insert(len(c) // 2, MALFORMED)
    c = ranges[1001][0][2]                    # articles 1001-1400
    c.insert(10, DOT_LINE)
    for s, cs in ranges.items():
        w.write_range(TEST, s, s + 999, [tuple(x) for x in cs])
    # alt.binaries.misc: 4501..6200.
    for s in (4001, 5001, 6001):
        w.write_range(MISC, s, s + 999, [tuple(x) for x in chunks(MISC, s, s + 999, 400, 4501, 6200)])
    # alt.binaries.cut: stored at zlib level 0, so the compressed bytes hold
    # the text as it is and a line ending in "." puts b".\r\n" inside them.
    lines = _lines(CUT, 1, 300)
    lines.insert(150, b"a truncated overview line ending in a dot.")
    CorpusWriter(root, level=0).write_range(CUT, 1, 1000, [(1, 300, lines)])
    w.write_groups([
        {"name": TEST, "low": 1, "high": 2600, "priority": 1},
        {"name": MISC, "low": 4501, "high": 6200, "priority": 2},
        {"name": CUT, "low": 1, "high": 300, "priority": 3},
        {"name": EMPTY, "low": 51, "high": 50, "priority": 4},
    ])
    return Corpus(root)


def expected(corpus: Corpus, group: str, first: int, last: int) -> list[bytes]:
    return list(corpus.lines(group, first, last))


@contextlib.contextmanager
def serve(corpus: Corpus, **opts):
    handle = run_in_thread(corpus.root, ServerOptions(**opts))
    try:
        yield handle
    finally:
        handle.stop()


@pytest.fixture(scope="module")
def server(corpus):
    with serve(corpus) as handle:
        yield handle


# -- a raw-socket client ------------------------------------------------------------------

def unstuff(lines: list[bytes]) -> list[bytes]:
    return [line[1:] if line.startswith(b".") else line for line in lines]


def ydecode(lines: list[bytes]) -> bytes:
    parts = b"".join(lines).split(b"=")
    out = bytearray(parts[0])
    for p in parts[1:]:
        out.append((p[0] - 64) & 0xFF)
        out += p[1:]
    return bytes(out).translate(bytes((i - 42) & 0xFF for i in range(256)))


class Raw:
    def __init__(self, port: int, timeout: float = 15.0, context: ssl.SSLContext | None = None):
        sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock = context.wrap_socket(sock) if context else sock
        self.buf = bytearray()
        self.inflater = self.deflater = None
        self.reads = 0
        self.greeting = self.line()

    def recv(self) -> None:
        data = self.sock.recv(65536)
        self.reads += 1
        if not data:
            raise EOFError
        if self.inflater is not None:
            data = self.inflater.decompress(data)
        self.buf += data

    def send(self, text: str | bytes) -> None:
        data = (text.encode() if isinstance(text, str) else text) + b"\r\n"
        if self.deflater is not None:
            data = self.deflater.compress(data) + self.deflater.flush(zlib.Z_SYNC_FLUSH)
        self.sock.sendall(data)

    def line(self) -> bytes:
        while (i := self.buf.find(b"\r\n")) < 0:
            self.recv()
        line = bytes(self.buf[:i])
        del self.buf[:i + 2]
        return line

    def cmd(self, text: str | bytes) -> bytes:
        self.send(text)
        return self.line()

    def block(self) -> list[bytes]:
        out = []
        while (line := self.line()) != b".":
            out.append(line)
        return unstuff(out)

    def compressed(self, terminator: bool) -> tuple[bytes, list[bytes]]:
        """A compressed XOVER reply: (the compressed bytes, the lines)."""
        d = zlib.decompressobj()
        raw, text = bytearray(), bytearray()
        while True:
            if not self.buf:
                self.recv()
                continue
            data = bytes(self.buf)
            self.buf.clear()
            text += d.decompress(data)
            if d.eof:
                raw += data[:len(data) - len(d.unused_data)]
                self.buf += d.unused_data
                break
            raw += data
        if terminator:
            assert text == b".\r\n" or text.endswith(b"\r\n.\r\n"), text[-20:]
            text = text[:-3]
        else:
            while len(self.buf) < 3:
                self.recv()
            assert bytes(self.buf[:3]) == b".\r\n"
            del self.buf[:3]
        return bytes(raw), unstuff(bytes(text).split(b"\r\n")[:-1])

    def until_eof(self, limit: float = 5.0) -> bytes:
        """What arrives before the server closes the connection."""
        got = bytes(self.buf)
        self.buf.clear()
        self.sock.settimeout(limit)
        while True:
            data = self.sock.recv(65536)
            self.reads += 1
            if not data:
                return got
            got += data

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


# -- nntplib, an outside client ----------------------------------------------------------

def rebuild(number: int, fields: dict) -> bytes:
    """An nntplib overview entry back into the line it came from."""
    parts = [str(number), fields["subject"], fields["from"], fields["date"], fields["message-id"],
             fields["references"], fields[":bytes"], fields[":lines"], "Xref: " + fields["xref"]]
    return "\t".join(parts).encode("utf-8", "surrogateescape")


def test_nntplib_list_group_over(server, corpus):
    with nntplib.NNTP("127.0.0.1", server.port, usenetrc=False, timeout=15) as nn:
        _, groups = nn.list()
        assert [(g.group, int(g.first), int(g.last)) for g in groups] == \
            [(g["name"], g["low"], g["high"]) for g in corpus.groups()]
        _, only = nn.list("alt.binaries.*,!*.cut,!*.empty")
        assert [g.group for g in only] == [TEST, MISC]

        _, count, low, high, name = nn.group(TEST)
        assert (low, high, name) == (1, 2600, TEST)
        assert count == sum(c.lines for c in corpus.chunks(TEST))

        # Straddling chunks and ranges; with the non-UTF-8 subject and the
        # out-of-order pair (the malformed lines sit in chunks covered only
        # in part, so they are left out, as Corpus.lines does).
        for first, last in ((1, 450), (350, 750), (790, 1350), (1390, 2600)):
            _, over = nn.over((first, last))
            assert [rebuild(n, f) for n, f in over] == expected(corpus, TEST, first, last)
        assert any(NON_UTF8_SUBJECT in rebuild(n, f) for n, f in nn.over((1, 100))[1])
        nn.group(MISC)
        _, xover = nn.xover(4600, 6100)
        assert [rebuild(n, f) for n, f in xover] == expected(corpus, MISC, 4600, 6100)


# -- whole replies, plain and compressed ----------------------------------------------------

def test_plain_xover_serves_bytes_as_stored(server, corpus):
    c = Raw(server.port)
    assert c.greeting.startswith(b"201")
    assert c.cmd(f"GROUP {TEST}").startswith(b"211")
    assert c.cmd("XOVER 1-2600").startswith(b"224")
    got = c.block()
    assert got == expected(corpus, TEST, 1, 2600)
    assert MALFORMED in got and DOT_LINE in got            # whole chunks keep them
    assert c.cmd("OVER 1001-1400").startswith(b"224")      # one stored chunk with a dot line
    assert c.block() == expected(corpus, TEST, 1001, 1400)
    assert c.cmd("XOVER 2500-").startswith(b"224")
    assert c.block() == expected(corpus, TEST, 2500, 2600)
    assert c.cmd("LIST OVERVIEW.FMT").startswith(b"215")
    assert c.block()[-1] == b"Xref:full"
    c.close()


@pytest.mark.parametrize("terminator", [False, True])
def test_xfeature_compress_gzip(server, corpus, terminator):
    c = Raw(server.port)
    feature = "XFEATURE COMPRESS GZIP" + (" TERMINATOR" if terminator else "")
    assert c.cmd(feature).startswith(b"290")
    assert c.cmd(f"GROUP {TEST}").startswith(b"211")
    # one stored chunk, part of one, several, one with a dot line, the whole group
    for first, last in ((1, 400), (17, 33), (350, 1750), (1001, 1400), (1, 2600)):
        status = c.cmd(f"XOVER {first}-{last}")
        assert status.startswith(b"224") and b"compressed" in status
        raw, lines = c.compressed(terminator)
        assert lines == expected(corpus, TEST, first, last), (first, last)
        assert zlib.decompress(raw)                       # one whole RFC 1950 stream
    assert c.cmd("DATE").startswith(b"111")               # nothing left over on the wire
    c.close()


def test_compressed_in_parallel_pieces(server, corpus, monkeypatch):
    """Replies built on the fly are compressed in pieces side by side; with
    tiny pieces every reply is many of them (primed, joined, checksummed)."""
    monkeypatch.setattr(sim.server, "PIECE", 4096)
    c = Raw(server.port)
    c.cmd(f"GROUP {TEST}")
    for terminator in (False, True):
        assert c.cmd("XFEATURE COMPRESS GZIP" + (" TERMINATOR" if terminator else "")).startswith(b"290")
        for first, last in ((5, 2555), (1, 2600), (1001, 1400)):
            assert c.cmd(f"XOVER {first}-{last}").startswith(b"224")
            raw, lines = c.compressed(terminator)
            assert lines == expected(corpus, TEST, first, last)
            assert len(raw) < 0.6 * sum(len(x) + 2 for x in lines)     # the priming keeps the ratio
    assert c.cmd(f"XZVER 3-2599").startswith(b"224")
    block = c.block()
    assert zlib.decompress(ydecode(block[1:-1])).split(b"\r\n")[:-1] == expected(corpus, TEST, 3, 2599)
    c.close()


def test_chunk_selection_matches_corpus_lines():
    """The cut of a chunk a request covers in part: one slice when the lines
    are in order, line by line otherwise; the same lines as Corpus.lines."""
    import random
    rng = random.Random(3)
    for trial in range(60):
        numbers = sorted(rng.sample(range(100, 400), 120))
        lines = [b"%d\tsubject %d\tfrom\tdate\t<%d@x>\t\t100\t2\tXref: h g:%d" % (n, n, n, n) for n in numbers]
        if trial % 3 == 1:
            i = rng.randrange(len(lines) - 1)
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        if trial % 5 == 2:
            lines.insert(rng.randrange(len(lines)), rng.choice([b"junk", b".dot", b"77", b"12\rx\tz", b"9\tz\rw"]))
        if trial % 7 == 3:
            lines[rng.randrange(len(lines))] = b"%d" % numbers[-1]          # no TAB at all
        text = b"".join(x + b"\r\n" for x in lines)
        dc = DecodedChunk(text)
        for _ in range(20):
            first = rng.randrange(90, 410)
            last = first + rng.randrange(0, 200)
            want = [x for x in lines if line_number(x) is not None and first <= line_number(x) <= last]
            assert dc.select(first, last) == b"".join(x + b"\r\n" for x in want), (trial, first, last)


def test_xzver(server, corpus):
    c = Raw(server.port)
    assert c.cmd(f"GROUP {MISC}").startswith(b"211")
    for first, last in ((4501, 5000), (4600, 6100)):
        assert c.cmd(f"XZVER {first}-{last}").startswith(b"224")
        block = c.block()
        head, tail = block[0], block[-1]
        assert head.startswith(b"=ybegin line=128 ")
        size = int(re.search(rb"size=(\d+)", head).group(1))
        assert all(len(line) <= 129 for line in block[1:-1])
        data = ydecode(block[1:-1])
        assert len(data) == size == int(re.search(rb"size=(\d+)", tail).group(1))
        assert zlib.crc32(data) == int(re.search(rb"crc32=([0-9a-fA-F]{8})", tail).group(1), 16)
        assert zlib.decompress(data).split(b"\r\n")[:-1] == expected(corpus, MISC, first, last)
    c.close()


def test_compress_deflate(server, corpus):
    c = Raw(server.port)
    assert c.cmd("CAPABILITIES").startswith(b"101")
    assert b"COMPRESS DEFLATE" in c.block()
    assert c.cmd("COMPRESS DEFLATE").startswith(b"206")
    c.inflater, c.deflater = zlib.decompressobj(-15), zlib.compressobj(6, zlib.DEFLATED, -15)
    assert c.cmd(f"GROUP {TEST}").startswith(b"211")
    assert c.cmd("XOVER 300-1500").startswith(b"224")
    assert c.block() == expected(corpus, TEST, 300, 1500)
    assert c.cmd("COMPRESS DEFLATE").startswith(b"502")   # already active
    assert c.cmd("XFEATURE COMPRESS GZIP TERMINATOR").startswith(b"290")
    assert c.cmd("XOVER 1-2600").startswith(b"224")       # both layers at once
    assert c.compressed(True)[1] == expected(corpus, TEST, 1, 2600)
    assert c.cmd("QUIT").startswith(b"205")
    c.close()


def test_a_server_without_compression_or_capabilities(corpus):
    with serve(corpus, compression=("XZVER",)) as h:
        c = Raw(h.port)
        assert c.cmd("CAPABILITIES").startswith(b"101")
        caps = c.block()
        assert b"XZVER" in caps and not any(b"XFEATURE" in x or b"COMPRESS" in x for x in caps)
        assert c.cmd("XFEATURE COMPRESS GZIP").startswith(b"500")
        assert c.cmd("COMPRESS DEFLATE").startswith(b"500")
        c.cmd(f"GROUP {TEST}")
        assert c.cmd("XZVER 1-10").startswith(b"224")
        c.block()
        c.close()
    with serve(corpus, compression=(), capabilities=False) as h:
        c = Raw(h.port)
        assert c.cmd("CAPABILITIES").startswith(b"500")
        c.cmd(f"GROUP {TEST}")
        assert c.cmd("XZVER 1-10").startswith(b"500")
        assert c.cmd("XOVER 1-10").startswith(b"224")
        assert c.block() == expected(corpus, TEST, 1, 10)
        assert h.server.stats["open"] == 1 and h.server.stats["peak_open"] == 1
        c.close()


def test_commands_and_answers(server, corpus):
    c = Raw(server.port)
    assert c.cmd("XOVER 1-10").startswith(b"412")
    assert c.cmd("FROB").startswith(b"500")
    assert c.cmd("GROUP").startswith(b"501")
    assert c.cmd("GROUP alt.binaries.nonesuch").startswith(b"411")
    assert c.cmd("MODE READER").startswith(b"20")
    assert re.fullmatch(rb"111 \d{14}", c.cmd("DATE"))
    assert c.cmd("HELP").startswith(b"100") and c.block()
    assert c.cmd("LIST ACTIVE alt.binaries.t*").startswith(b"215")
    assert c.block() == [b"alt.binaries.test 2600 1 y"]
    assert c.cmd("LIST NEWSGROUPS").startswith(b"215")
    assert len(c.block()) == 4
    assert c.cmd(f"GROUP {TEST}").startswith(b"211")
    assert c.cmd("XOVER 9000-9100").startswith(b"423")
    assert c.cmd("XOVER 20-10").startswith(b"423")
    assert c.cmd("XOVER a-b").startswith(b"501")
    assert c.cmd(f"LISTGROUP {MISC} 4600-4700").startswith(b"211")
    assert [int(n) for n in c.block()] == sorted(line_number(x) for x in expected(corpus, MISC, 4600, 4700))
    assert c.cmd("LISTGROUP").startswith(b"211 ")
    assert len(c.block()) == sum(ch.lines for ch in corpus.chunks(MISC))
    assert c.cmd(f"GROUP {EMPTY}") == b"211 0 51 50 " + EMPTY.encode()
    assert c.cmd("XOVER").startswith(b"420")
    assert c.cmd("HEAD").startswith(b"420")
    assert c.cmd("QUIT").startswith(b"205")
    assert c.until_eof() == b""
    c.close()
    assert wildmat_match("alt.*,!alt.binaries.*,alt.binaries.t?st", TEST)
    assert not wildmat_match("alt.*,!alt.binaries.*", MISC)
    assert parse_range("5-", 9) == (5, 9) and parse_range("7", 9) == (7, 7) and parse_range("x", 9) is None


# -- articles ----------------------------------------------------------------------------

def test_articles_by_number_and_message_id(server, corpus):
    lines = expected(corpus, TEST, 1, 100)
    odd = next(x for x in lines if NON_UTF8_SUBJECT in x)
    f = odd.split(b"\t")
    number, mid, size = int(f[0]), f[4], int(f[6])
    body = server.server.body_for(mid.strip(b"<>").decode(), size)
    want_body = body.split(b"\r\n")[:-1]

    c = Raw(server.port)
    assert c.cmd(f"HEAD {number}").startswith(b"412")
    assert c.cmd(f"GROUP {TEST}").startswith(b"211")
    assert c.cmd(f"HEAD {number}") == b"221 %d %s" % (number, mid)
    head = c.block()
    assert b"Subject: " + NON_UTF8_SUBJECT in head
    assert b"Message-ID: " + mid in head and b"Newsgroups: " + TEST.encode() in head
    assert b"Bytes: %d" % size in head and b"From: " + f[2] in head and f[8] in head
    assert c.cmd(f"BODY {number}") == b"222 %d %s" % (number, mid)
    assert c.block() == want_body
    assert c.cmd(f"ARTICLE {number}") == b"220 %d %s" % (number, mid)
    assert c.block() == head + [b""] + want_body
    assert c.cmd(f"STAT {number}") == b"223 %d %s" % (number, mid)
    assert c.cmd("STAT").startswith(b"223 %d " % number)   # the current article moved there

    # by message-id from another group: number 0, the group stays selected
    other = expected(corpus, MISC, 6100, 6200)[3].split(b"\t")
    assert c.cmd(b"HEAD " + other[4]) == b"221 0 " + other[4]
    assert b"Subject: " + other[1] in c.block()
    assert c.cmd(b"STAT " + other[4]) == b"223 0 " + other[4]
    assert c.cmd(b"OVER " + other[4]).startswith(b"224")
    assert c.block() == [b"0\t" + b"\t".join(other[1:])]
    assert c.cmd("STAT <no-such-article@example.com>").startswith(b"430")
    assert c.cmd("BODY <no-such-article@example.com>").startswith(b"430")

    present = {line_number(x) for x in expected(corpus, TEST, 1, 2600)}
    gap = next(n for n in range(1, 2600) if n not in present)
    assert c.cmd(f"STAT {gap}").startswith(b"423")
    assert c.cmd("STAT 999999").startswith(b"423")
    assert c.cmd(f"STAT {number}").startswith(b"223")
    c.close()


# -- faults --------------------------------------------------------------------------------

def test_max_connections(corpus):
    with run_in_thread(ServerOptions(corpus=str(corpus.root), max_connections=2)) as h:
        a, b = Raw(h.port), Raw(h.port)
        assert a.greeting.startswith(b"201") and b.greeting.startswith(b"201")
        c = Raw(h.port)
        assert c.greeting.startswith(b"502")
        assert c.until_eof() == b""
        a.cmd("QUIT")
        a.close()
        deadline = time.monotonic() + 5
        while True:                  # the slot frees once the server saw the QUIT
            d = Raw(h.port)
            if d.greeting.startswith(b"201") or time.monotonic() > deadline:
                break
            d.close()
            time.sleep(0.05)
        assert d.greeting.startswith(b"201")
        for x in (b, c, d):
            x.close()


def test_auth_required_and_per_account_limit(corpus):
    with serve(corpus, user="reader", password="s3cret", max_connections=1) as h:
        c = Raw(h.port)
        assert c.cmd("CAPABILITIES").startswith(b"101")
        assert b"AUTHINFO USER" in c.block()
        assert c.cmd(f"GROUP {TEST}").startswith(b"480")
        assert c.cmd("XOVER 1-10").startswith(b"480")
        assert c.cmd("AUTHINFO PASS s3cret").startswith(b"482")
        assert c.cmd("AUTHINFO USER reader").startswith(b"381")
        assert c.cmd("AUTHINFO PASS wrong").startswith(b"481")
        assert c.cmd("AUTHINFO USER reader").startswith(b"381")
        assert c.cmd("AUTHINFO PASS s3cret").startswith(b"281")
        assert c.cmd(f"GROUP {TEST}").startswith(b"211")
        # The account has one connection: a second login is refused and closed.
        d = Raw(h.port)
        d.cmd("AUTHINFO USER reader")
        assert d.cmd("AUTHINFO PASS s3cret").startswith(b"502")
        assert d.until_eof() == b""
        d.close()
        with pytest.raises(nntplib.NNTPPermanentError, match="502"):
            nntplib.NNTP("127.0.0.1", h.port, user="reader", password="s3cret", usenetrc=False)
        c.close()


def test_auth_with_nntplib(corpus):
    with serve(corpus, user="reader", password="s3cret") as h:
        with nntplib.NNTP("127.0.0.1", h.port, user="reader", password="s3cret", usenetrc=False) as nn:
            _, count, low, high, _ = nn.group(MISC)
            assert [rebuild(n, f) for n, f in nn.over((low, high))[1]] == expected(corpus, MISC, low, high)
        with pytest.raises(nntplib.NNTPTemporaryError, match="481"):
            nntplib.NNTP("127.0.0.1", h.port, user="reader", password="nope", usenetrc=False)


def test_idle_timeout(corpus):
    with serve(corpus, idle_timeout=0.4) as h:
        busy, quiet = Raw(h.port), Raw(h.port)
        t0 = time.monotonic()
        for _ in range(6):                    # a talking client stays
            time.sleep(0.15)
            assert busy.cmd("DATE").startswith(b"111")
        assert quiet.until_eof() == b""       # a silent one is dropped without a word
        assert 0.35 <= time.monotonic() - t0
        busy.close()
        quiet.close()


def test_latency(corpus):
    with serve(corpus, latency=0.4) as h:
        c = Raw(h.port)
        t0 = time.monotonic()
        assert c.cmd(f"GROUP {TEST}").startswith(b"211")
        assert time.monotonic() - t0 < 0.3
        t0 = time.monotonic()
        assert c.cmd("XOVER 1-50").startswith(b"224")
        assert time.monotonic() - t0 >= 0.4
        assert c.block() == expected(corpus, TEST, 1, 50)
        c.close()


def test_bandwidth_cap(corpus):
    cap = 200_000
    with serve(corpus, bandwidth=cap) as h:
        c = Raw(h.port)
        c.cmd(f"GROUP {TEST}")
        t0 = time.monotonic()
        c.send("XOVER 1-700")
        c.line()
        lines = c.block()
        elapsed = time.monotonic() - t0
        size = sum(len(x) + 2 for x in lines)
        assert lines == expected(corpus, TEST, 1, 700)
        assert size > cap // 2
        assert size / elapsed <= cap * 1.5, (size, elapsed)
        c.close()


def test_cut_short(corpus):
    with serve(corpus) as h:
        c = Raw(h.port)
        c.cmd("XFEATURE COMPRESS GZIP")
        c.cmd(f"GROUP {CUT}")
        assert c.cmd("XOVER 1-300").startswith(b"224")
        full, lines = c.compressed(False)
        assert lines == expected(corpus, CUT, 1, 300)
        at = full.find(b".\r\n")
        assert 0 < at < len(full) - 3            # the corpus puts one inside
        h.server.options.cut_short_rate = 1.0
        assert c.cmd("XOVER 1-300").startswith(b"224")
        while b".\r\n" not in c.buf:
            c.recv()
        cut = bytes(c.buf[:c.buf.find(b".\r\n") + 3])
        del c.buf[:len(cut)]
        assert cut == full[:at + 3]
        d = zlib.decompressobj()
        d.decompress(cut)
        assert not d.eof                         # it does not inflate completely
        # nothing else followed: the next reply comes straight after
        assert c.cmd("DATE").startswith(b"111")
        c.close()


def test_drop_mid_reply(corpus):
    with serve(corpus, drop_rate=1.0) as h:
        c = Raw(h.port)
        assert c.cmd(f"GROUP {TEST}").startswith(b"211")
        assert c.cmd("XOVER 1-1200").startswith(b"224")
        got = c.until_eof()
        whole = b"".join(x + b"\r\n" for x in expected(corpus, TEST, 1, 1200))
        assert 0 < len(got) < len(whole) and whole.startswith(got)
        assert not got.endswith(b"\r\n.\r\n")
        c.close()

        c = Raw(h.port)                           # compressed, terminator inside
        c.cmd("XFEATURE COMPRESS GZIP TERMINATOR")
        c.cmd(f"GROUP {TEST}")
        assert c.cmd("XOVER 1-2600").startswith(b"224")
        d = zlib.decompressobj()
        text = d.decompress(c.until_eof())
        assert not d.eof and not text.endswith(b".\r\n")
        assert whole.startswith(text[:len(whole)])
        c.close()

        c = Raw(h.port)                           # an article body
        c.cmd(f"GROUP {MISC}")
        number = line_number(expected(corpus, MISC, 4501, 4600)[0])
        assert c.cmd(f"BODY {number}").startswith(b"222")
        assert not c.until_eof().endswith(b"\r\n.\r\n")
        c.close()


def test_error_answers(corpus):
    with serve(corpus, error_rate=1.0, error_codes=(503,)) as h:
        c = Raw(h.port)
        assert c.cmd(f"GROUP {TEST}").startswith(b"503")
        assert c.cmd("XOVER 1-10").startswith(b"503")
        assert c.cmd("DATE").startswith(b"111")     # only data commands fail
        h.server.options.error_codes = (400,)
        assert c.cmd(f"GROUP {TEST}").startswith(b"400")
        assert c.until_eof() == b""
        c.close()
        h.server.options.error_codes = (502,)
        d = Raw(h.port)
        assert d.cmd("LIST").startswith(b"502")
        assert d.until_eof() == b""
        d.close()


def test_trickle(corpus):
    with serve(corpus, trickle=True, trickle_bytes=8, trickle_pause=0.002) as h:
        c = Raw(h.port)
        c.reads = 0
        assert c.cmd(f"GROUP {TEST}").startswith(b"211")
        assert c.cmd("XOVER 1-5").startswith(b"224")
        assert c.block() == expected(corpus, TEST, 1, 5)
        assert c.reads >= 20                  # the replies came in many small pieces
        c.close()


def test_live_mode(corpus):
    with serve(corpus, live=True, live_rate=3, live_interval=0.1, seed=5) as h:
        c = Raw(h.port)
        before = int(c.cmd(f"GROUP {TEST}").split()[3])
        assert before == 2600
        deadline = time.monotonic() + 5
        while (high := int(c.cmd(f"GROUP {TEST}").split()[3])) < before + 6 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert high >= before + 6
        c.send("LIST ACTIVE " + TEST)
        c.line()
        assert int(c.block()[0].split()[1]) >= high
        assert c.cmd(f"XOVER {before + 1}-{high}").startswith(b"224")
        new = c.block()
        assert [line_number(x) for x in new] == list(range(before + 1, high + 1))
        for x in new:
            f = x.split(b"\t")
            assert len(f) == 9 and f[8].endswith(b"%s:%s" % (TEST.encode(), f[0]))
        assert len({x.split(b"\t")[4] for x in new}) == len(new)
        assert c.cmd(b"HEAD " + new[0].split(b"\t")[4]).startswith(b"221 0 ")
        assert c.block()
        assert c.cmd("XFEATURE COMPRESS GZIP").startswith(b"290")
        assert c.cmd(f"XOVER {before - 100}-{high}").startswith(b"224")
        assert c.compressed(False)[1] == expected(corpus, TEST, before - 100, before) + new
        c.close()


# -- load, TLS, the command lines -------------------------------------------------------------

def test_fifty_concurrent_connections(server, corpus):
    jobs = []
    for i in range(50):
        group, low, high = (TEST, 1, 2600) if i % 2 == 0 else (MISC, 4501, 6200)
        first = low + (i * 97) % (high - low - 400)
        jobs.append((i, group, first, first + 150 + (i * 37) % 900))

    def fetch(job):
        i, group, first, last = job
        c = Raw(server.port, timeout=30)
        try:
            mode = i % 3
            if mode:
                assert c.cmd("XFEATURE COMPRESS GZIP" + (" TERMINATOR" if mode == 2 else "")).startswith(b"290")
            assert c.cmd(f"GROUP {group}").startswith(b"211")
            assert c.cmd(f"XOVER {first}-{last}").startswith(b"224")
            got = c.compressed(mode == 2)[1] if mode else c.block()
            c.cmd("QUIT")
            return got == expected(corpus, group, first, last)
        finally:
            c.close()

    with concurrent.futures.ThreadPoolExecutor(50) as pool:
        results = list(pool.map(fetch, jobs))
    assert results == [True] * 50


def _self_signed(tmp: Path) -> tuple[str, str] | None:
    if not shutil.which("openssl"):
        return None
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    r = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                        "-out", str(cert), "-days", "2", "-subj", "/CN=localhost"],
                       capture_output=True, timeout=60)
    return (str(cert), str(key)) if r.returncode == 0 else None


def test_tls(corpus, tmp_path):
    made = _self_signed(tmp_path)
    if made is None:
        pytest.skip("no openssl to make a self-signed certificate")
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    with serve(corpus, tls_cert=made[0], tls_key=made[1]) as h:
        with nntplib.NNTP_SSL("127.0.0.1", h.port, ssl_context=ctx, usenetrc=False) as nn:
            nn.group(TEST)
            assert [rebuild(n, f) for n, f in nn.over((1, 120))[1]] == expected(corpus, TEST, 1, 120)
        c = Raw(h.port, context=ctx)
        assert c.cmd("XFEATURE COMPRESS GZIP").startswith(b"290")
        c.cmd(f"GROUP {TEST}")
        assert c.cmd("XOVER 1-2600").startswith(b"224")
        assert c.compressed(False)[1] == expected(corpus, TEST, 1, 2600)
        c.close()


def test_serve_command_line(corpus):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from sim.server import main; sys.exit(main(sys.argv[1:]))",
         "--corpus", str(corpus.root), "--port", "0", "--latency", "0.01", "--seed", "3"],
        stdout=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        m = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", line)
        assert m, line
        c = Raw(int(m.group(1)))
        assert c.cmd(f"GROUP {MISC}").startswith(b"211")
        assert c.cmd("XOVER 4501-4600").startswith(b"224")
        assert c.block() == expected(corpus, MISC, 4501, 4600)
        c.close()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()


@pytest.mark.parametrize("terminator", [[], ["--terminator"]])
def test_bench_server_prints_one_json_line(corpus, capsys, terminator):
    assert bench_main(["--corpus", str(corpus.root), "--group", MISC, "--seconds", "0.2",
                       "--batch", "700", "--connections", "2", "--in-process"] + terminator) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    result = json.loads(out[0])
    assert result["connections"] == 2 and result["lines"] > 0
    assert result["plain_lines_per_s_per_conn"] > 0 and result["compressed_lines_per_s_per_conn"] > 0
