"""workers.nntp against the simulated news server over real TCP on 127.0.0.1:
every overview mode, capability detection, AUTHINFO, TLS, the provider
faults (cut-short compressed replies, replies dropped mid-way, connection
limits, idle drops, error answers), the pool, LIST ACTIVE, date sampling and
`voyager plan` from the server."""
from __future__ import annotations

import contextlib
import datetime as dt
import json
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
from psycopg.types.json import Jsonb

from sim.server import ServerOptions, run_in_thread
from sim.synthetic import synthetic_lines
from voyager.corpus import Corpus, CorpusWriter, line_number
from workers.nntp import (MODES, TEXT, ZLIB, ZLIB_STUFFED, Backoff, NntpAuthError, NntpBusy, NntpConfig,
                          NntpConnection, NntpError, NntpNoSuchGroup, NntpPool, OverviewCutShort, chunk_requests,
                          fetch_overview, fetch_overview_raw, list_active, overview_chunks, sample_dates, unstuff)

TEST = "alt.binaries.test"
MISC = "alt.binaries.misc"
EMPTY = "alt.binaries.empty"
DOT_LINE = b".a malformed line that starts with a dot"
SPANS = ((1, 5000), (317, 3333), (1001, 1500))     # whole group, across chunks and ranges, one chunk


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Corpus:
    """Two groups in ranges of 2000 articles and chunks of 500 (requests span
    many of both), a line that dot-stuffing changes, a line ending in '.'
    (with zlib level 0 it puts b".\\r\\n" inside a compressed reply: the cut),
    and an empty group."""
    root = tmp_path_factory.mktemp("nntp-corpus")
    w = CorpusWriter(root)

    def chunks(group, start, end, low, high):
        out, first = [], max(start, low)
        while first <= min(end, high):
            last = min(first - (first - start) % 500 + 499, end, high)
            out.append([first, last, [x for _, x in synthetic_lines(group, first, last, seed=3, gap_rate=0.03)]])
            first = last + 1
        return out

    for start in (1, 2001, 4001):
        cs = chunks(TEST, start, start + 1999, 1, 5000)
        if start == 1:
            cs[2][2].insert(7, DOT_LINE)                   # articles 1001-1500, a whole chunk
            cs[3][2][100] += b"."                          # articles 1501-2000: ends in a dot
        w.write_range(TEST, start, start + 1999, [tuple(c) for c in cs])
    for start in (4001, 6001):
        w.write_range(MISC, start, start + 1999, [tuple(c) for c in chunks(MISC, start, start + 1999, 4501, 6200)])
    w.write_groups([{"name": TEST, "low": 1, "high": 5000, "priority": 1},
                    {"name": MISC, "low": 4501, "high": 6200, "priority": 2},
                    {"name": EMPTY, "low": 51, "high": 50, "priority": 3}])
    return Corpus(root)


def lines(corpus: Corpus, group: str, first: int, last: int) -> bytes:
    """What over() must return: the corpus's lines as voyager.corpus reads them."""
    return b"".join(x + b"\r\n" for x in corpus.lines(group, first, last))


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


def config(handle, **kw) -> NntpConfig:
    kw.setdefault("backoff_base", 0.02)
    kw.setdefault("backoff_max", 0.2)
    kw.setdefault("timeout", 15)
    return NntpConfig(host="127.0.0.1", port=handle.port, **kw)


def stats(handle) -> dict:
    return handle.call(lambda: dict(handle.server.stats))


def wait_for(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# -- overview modes -----------------------------------------------------------------------------

def test_corpus_has_what_the_tests_need(corpus):
    text = lines(corpus, TEST, 1, 5000)
    assert b"\r\n" + DOT_LINE + b"\r\n" in text
    assert b".\r\n" in text.replace(b"\r\n" + DOT_LINE, b"")     # the line ending in a dot
    assert len(list(corpus.chunks(TEST, 317, 3333))) == 7


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_returns_exactly_the_corpus_lines(server, corpus, mode):
    with NntpConnection(config(server, modes=(mode,))) as conn:
        for first, last in SPANS:
            assert conn.over(TEST, first, last) == lines(corpus, TEST, first, last), (mode, first, last)
        assert conn.over(MISC, 4400, 6300) == lines(corpus, MISC, 4501, 6200)
        assert conn.over(TEST, 7000, 8000) == b""                   # nothing there: 423
        assert conn.modes[0] == mode and conn.connects == 1
        # the form the window's feed takes: no stuffing, no dot line
        whole = conn.over(TEST, 1001, 1500)
        assert DOT_LINE + b"\r\n" in whole and not whole.endswith(b"\r\n.\r\n")
        assert unstuff(b"..x\r\n..\r\n") == b".x\r\n.\r\n"


def test_the_default_prefers_compressed_modes_in_order(server, corpus):
    with NntpConnection(config(server)) as conn:
        conn.connect()
        assert conn.modes == MODES
        assert conn.over(TEST, 1, 5000) == lines(corpus, TEST, 1, 5000)
        assert conn.gzip == "gzip-term"
        # compressed on the wire: a good deal less than the text
        before = conn.wire_bytes
        text = conn.over(TEST, 1, 5000)
        assert conn.wire_bytes - before < len(text) / 3


def inflated(got) -> bytes:
    """What the worker's text thread makes of an over_raw() answer."""
    from workers.worker import inflate_text
    return bytes(inflate_text(got.data, got.kind))


@pytest.mark.parametrize("mode, kind", [("gzip", ZLIB_STUFFED), ("xzver", ZLIB)])
def test_raw_modes_hand_on_the_zlib_stream_as_it_came(server, corpus, mode, kind):
    with NntpConnection(config(server, modes=(mode, "plain"))) as conn:
        for first, last in SPANS:
            got = conn.over_raw(TEST, first, last)
            assert got.kind == kind and got.data[:1] == b"\x78"
            assert inflated(got) == lines(corpus, TEST, first, last), (mode, first, last)
        # a whole stored chunk: the chunk file itself, not inflated anywhere on the way
        chunk = next(corpus.chunks(TEST, 1, 500))
        assert conn.over_raw(TEST, 1, 500).data == chunk.read()
        # the dot-stuffed line of a chunk comes back unstuffed
        assert DOT_LINE + b"\r\n" in inflated(conn.over_raw(TEST, 1001, 1500))
        assert conn.over_raw(TEST, 7000, 8000) == (TEXT, b"")
        assert conn.over_raw(MISC, 4400, 6300).kind == kind
        # the reply's end was found on the wire: the connection is in step
        assert conn.date().year >= 2020 and conn.connects == 1
        assert conn.over(TEST, 317, 3333) == lines(corpus, TEST, 317, 3333)


@pytest.mark.parametrize("compression, want", [(("XFEATURE", "XZVER", "COMPRESS"), ZLIB_STUFFED),
                                               (("XZVER", "COMPRESS"), ZLIB), (("COMPRESS",), TEXT), ((), TEXT)])
def test_raw_prefers_gzip_then_xzver_and_falls_back_to_text(corpus, compression, want):
    with serve(corpus, compression=compression) as h:
        with NntpConnection(config(h)) as conn:
            got = conn.over_raw(TEST, 317, 3333)
            assert got.kind == want
            assert inflated(got) == lines(corpus, TEST, 317, 3333)
            assert conn.gzip == ("gzip" if want == ZLIB_STUFFED else None)
            # the default over() still prefers gzip-term on the same connection
            assert conn.over(TEST, 1, 5000) == lines(corpus, TEST, 1, 5000)


def test_a_raw_reply_cut_short_does_not_inflate_and_is_fetched_again(corpus):
    """The cut (Eweka) looks whole on the wire in GZIP without TERMINATOR; it is
    found where the reply is inflated, and the chunk is asked for again with
    fetch_overview, which tells cuts apart on the wire."""
    with serve(corpus, compress_level=0, cut_short_rate=1.0) as h:
        with NntpConnection(config(h, modes=("gzip", "plain"))) as conn:
            got = fetch_overview_raw(conn, TEST, 1, 3000)
            assert got.kind == ZLIB_STUFFED
            with pytest.raises(OverviewCutShort):
                inflated(got)
            assert conn.date() and conn.connects == 1            # in step after the cut
            assert fetch_overview(conn, TEST, 1, 3000) == lines(corpus, TEST, 1, 3000)


def test_raw_replies_trickled_or_dropped_midway(corpus):
    with serve(corpus, trickle=True, trickle_bytes=4000, trickle_pause=0.0005, seed=4) as h:
        with NntpConnection(config(h, modes=("gzip", "xzver", "plain"))) as conn:
            assert inflated(conn.over_raw(TEST, 1001, 2000)) == lines(corpus, TEST, 1001, 2000)
            assert conn.date() and conn.connects == 1
    with serve(corpus, drop_rate=0.5, seed=3) as h:
        with NntpConnection(config(h, modes=("gzip", "plain"), retries=30)) as conn:
            for first, last in SPANS:
                assert inflated(fetch_overview_raw(conn, TEST, first, last)) == lines(corpus, TEST, first, last)
            assert conn.connects > 1


def test_the_simulator_indexes_chunks_before_listening(corpus):
    with serve(corpus, index_chunks=True) as h:
        ok = h.call(lambda: dict(h.server._stored_ok))
    chunks = [c for g in (TEST, MISC) for c in corpus.chunks(g)]
    assert set(ok) == {c.path for c in chunks}
    # the chunk with a line that dot-stuffing changes is built, not sent as stored
    assert [c.first for c in chunks if not ok[c.path]] == [1001]


def test_a_plain_request_on_a_gzip_session_opens_a_plain_one(server, corpus):
    with NntpConnection(config(server)) as conn:
        assert conn.over(TEST, 1, 600) == lines(corpus, TEST, 1, 600)
        assert conn.gzip == "gzip-term"
        assert conn.over(TEST, 1, 600, mode="plain") == lines(corpus, TEST, 1, 600)
        assert conn.gzip is None and conn.connects == 2          # XFEATURE cannot be switched off
        assert conn.over(TEST, 1, 600) == lines(corpus, TEST, 1, 600)
        assert conn.gzip == "gzip-term" and conn.connects == 2


@pytest.mark.parametrize("compression, capabilities, modes", [
    ((), True, ("plain",)),
    (("XZVER",), True, ("xzver", "plain")),
    (("COMPRESS",), True, ("deflate", "plain")),
    (("XFEATURE",), False, ("gzip-term", "gzip", "plain")),   # no CAPABILITIES: XFEATURE asked for
    ((), False, ("plain",)),
    (("XZVER", "COMPRESS"), False, ("plain",)),               # those are not guessed
])
def test_modes_follow_what_the_server_offers(corpus, compression, capabilities, modes):
    with serve(corpus, compression=compression, capabilities=capabilities) as h:
        with NntpConnection(config(h)) as conn:
            conn.connect()
            assert conn.modes == modes
            assert conn.capabilities is None if not capabilities else "READER" in conn.capabilities
            for first, last in SPANS[:2]:
                assert conn.over(TEST, first, last) == lines(corpus, TEST, first, last)
            assert conn.over(TEST, 1, 600, mode="plain") == lines(corpus, TEST, 1, 600)
            assert conn.over(TEST, 1, 600) == lines(corpus, TEST, 1, 600)


def test_a_mode_the_server_refuses_falls_to_the_next(corpus):
    """CAPABILITIES promised XZVER, the command is unknown after all."""
    with serve(corpus) as h:
        with NntpConnection(config(h, modes=("xzver", "plain"))) as conn:
            conn.connect()
            assert conn.modes == ("xzver", "plain")
            h.server.options.compression = ()
            assert conn.over(TEST, 1, 900) == lines(corpus, TEST, 1, 900)
            assert conn.modes == ("plain",)


def test_overview_chunks_on_the_grid(server, corpus):
    assert chunk_requests(1, 250_000) == [(1, 100_000), (100_001, 200_000), (200_001, 250_000)]
    assert chunk_requests(150_000, 150_010) == [(150_000, 150_010)]
    assert chunk_requests(99_999, 100_001) == [(99_999, 100_000), (100_001, 100_001)]
    assert chunk_requests(0, 3, 2) == [(1, 2), (3, 3)]
    assert chunk_requests(10, 9) == []
    with pytest.raises(ValueError):
        chunk_requests(1, 10, 0)
    with NntpConnection(config(server)) as conn:
        got = list(overview_chunks(conn, TEST, 317, 3333, chunk_articles=500))
        assert [(a, b) for a, b, _ in got] == chunk_requests(317, 3333, 500)
        assert got[0][:2] == (317, 500) and got[-1][:2] == (3001, 3333)
        assert b"".join(t for _, _, t in got) == lines(corpus, TEST, 317, 3333)


# -- accounts and TLS ------------------------------------------------------------------------------

def test_authinfo_accepted_and_refused(corpus):
    with serve(corpus, user="reader", password="s3cret") as h:
        with NntpConnection(config(h, user="reader", password="s3cret")) as conn:
            assert conn.over(MISC, 4501, 6200) == lines(corpus, MISC, 4501, 6200)
            assert "AUTHINFO" not in conn.capabilities        # read again once authenticated
        bad = NntpConnection(config(h, user="reader", password="wrong"))
        with pytest.raises(NntpAuthError, match=r"AUTHINFO as reader: 481 .*VOYAGER_NNTP_PASS") as e:
            fetch_overview(bad, MISC, 4501, 4600)               # not retried: it would not help
        assert e.value.code == 481 and bad.connects == 1 and not bad.connected
        anonymous = NntpConnection(config(h))
        with pytest.raises(NntpAuthError, match="480"):
            fetch_overview(anonymous, MISC, 4501, 4600)
        anonymous.close()


def _self_signed(tmp: Path) -> tuple[str, str]:
    if not shutil.which("openssl"):
        pytest.skip("no openssl to make a self-signed certificate")
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(cert), "-days", "2", "-subj", "/CN=localhost"],
                   capture_output=True, timeout=60, check=True)
    return str(cert), str(key)


def test_tls(corpus, tmp_path):
    cert, key = _self_signed(tmp_path)
    with serve(corpus, tls_cert=cert, tls_key=key, user="reader", password="s3cret") as h:
        for mode in ("gzip-term", "deflate", "plain"):
            with NntpConnection(config(h, tls=True, verify=False, user="reader", password="s3cret",
                                       modes=(mode,))) as conn:
                assert conn.over(TEST, 317, 3333) == lines(corpus, TEST, 317, 3333), mode
        strict = NntpConnection(config(h, tls=True, user="reader", password="s3cret"))
        with pytest.raises(NntpError, match="certificate not trusted.*VOYAGER_NNTP_VERIFY=0"):
            fetch_overview(strict, TEST, 1, 10)


def test_config_from_the_environment():
    c = NntpConfig.from_env({})
    assert (c.host, c.port, c.tls, c.verify, c.connections, c.user) == ("127.0.0.1", 119, False, True, 8, None)
    c = NntpConfig.from_env({"VOYAGER_NNTP_TLS": "1", "VOYAGER_NNTP_USER": "u", "VOYAGER_NNTP_PASS": "p",
                             "VOYAGER_NNTP_VERIFY": "0", "VOYAGER_NNTP_CONNECTIONS": "20",
                             "VOYAGER_NNTP_HOST": "news.example.com", "VOYAGER_NNTP_MODES": "xzver,plain"})
    assert (c.host, c.port, c.tls, c.verify, c.connections, c.user, c.password, c.modes) == \
        ("news.example.com", 563, True, False, 20, "u", "p", ("xzver", "plain"))
    assert NntpConfig.from_env({"VOYAGER_NNTP_TLS": "1", "VOYAGER_NNTP_PORT": "443"}).port == 443
    with pytest.raises(ValueError, match="VOYAGER_NNTP_TLS"):
        NntpConfig.from_env({"VOYAGER_NNTP_TLS": "maybe"})
    with pytest.raises(ValueError, match="unknown overview modes"):
        NntpConfig(modes=("zstd",))


# -- faults -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["gzip-term", "gzip"])
def test_cut_short_replies_are_detected_and_refetched_plain(corpus, mode):
    # zlib level 0: the line ending in '.' puts b".\r\n" into the compressed bytes
    with serve(corpus, compress_level=0, cut_short_rate=1.0) as h:
        with NntpConnection(config(h, modes=(mode,))) as conn:
            with pytest.raises(OverviewCutShort):
                conn.over(TEST, 1, 3000)
            # told apart from a pause by the pipelined DATE: the connection stays usable
            assert conn.connected and conn.connects == 1
            assert conn.date().year >= 2020 and conn.probes == 1
            # every compressed reply of that range is cut: asked again, then plain
            assert fetch_overview(conn, TEST, 1, 3000) == lines(corpus, TEST, 1, 3000)
            assert conn.connects == 2 and conn.gzip is None
            assert stats(h)["over_lines_replies"] == 4


def test_cut_short_now_and_then_ends_with_exact_lines(corpus):
    with serve(corpus, compress_level=0, cut_short_rate=0.5, seed=11) as h:
        with NntpConnection(config(h)) as conn:
            for _ in range(6):
                assert fetch_overview(conn, TEST, 1, 3000) == lines(corpus, TEST, 1, 3000)
            assert stats(h)["over_lines_replies"] > 6               # some were cut and asked again


def test_a_pause_after_dot_crlf_is_not_a_cut(corpus):
    """A reply trickled in 1-3 byte pieces pauses after its b".\\r\\n"
    (zlib level 0: the dotted line and the terminator) now and then: the
    client probes with DATE, and the reply goes on."""
    dotted = next(line_number(x) for x in corpus.lines(TEST, 1, 5000) if x.endswith(b"."))
    with serve(corpus, compress_level=0, trickle=True, trickle_bytes=3, trickle_pause=0.001, seed=2) as h:
        with NntpConnection(config(h, modes=("gzip-term",))) as conn:
            for _ in range(12):
                assert conn.over(TEST, dotted, dotted) == lines(corpus, TEST, dotted, dotted)
            assert conn.probes >= 2 and conn.connects == 1
            assert conn.date()


def test_a_reply_dropped_midway_reconnects_and_gives_the_same_lines(corpus):
    for mode in ("gzip-term", "xzver", "plain"):
        with serve(corpus, drop_rate=0.5, seed=3) as h:
            with NntpConnection(config(h, modes=(mode,), retries=30)) as conn:
                for first, last in SPANS:
                    assert fetch_overview(conn, TEST, first, last) == lines(corpus, TEST, first, last)
                assert conn.connects > 1, mode                      # at least one was dropped


def test_error_answers_are_retried(corpus):
    with serve(corpus, error_rate=0.4, error_codes=(400, 503, 502), seed=5) as h:
        with NntpConnection(config(h, retries=30)) as conn:
            for first, last in SPANS:
                assert fetch_overview(conn, TEST, first, last) == lines(corpus, TEST, first, last)
        with NntpConnection(config(h, retries=30)) as conn:
            with pytest.raises(NntpNoSuchGroup):
                fetch_overview(conn, "alt.binaries.nonesuch", 1, 10)    # an answer, not a fault


def test_connection_limit_backs_off_until_a_slot_frees(corpus):
    with serve(corpus, max_connections=1) as h:
        holder = socket.create_connection(("127.0.0.1", h.port))
        assert holder.recv(100).startswith(b"201")
        conn = NntpConnection(config(h, backoff_base=0.05, backoff_max=0.2, retries=50))
        got, took = {}, {}

        def fetch():
            t0 = time.monotonic()
            got["text"] = fetch_overview(conn, TEST, 317, 3333)
            took["s"] = time.monotonic() - t0

        t = threading.Thread(target=fetch)
        t.start()
        time.sleep(0.6)
        assert t.is_alive() and conn.connects >= 2                     # refused (502) and trying again
        holder.sendall(b"QUIT\r\n")
        holder.close()
        t.join(20)
        assert got["text"] == lines(corpus, TEST, 317, 3333) and took["s"] >= 0.6
        conn.close()
        # the slot never frees: the refusal surfaces once the retries are spent
        with NntpConnection(config(h)) as first:
            first.connect()
            with pytest.raises(NntpBusy, match="502"):
                fetch_overview(NntpConnection(config(h, retries=2)), TEST, 1, 10)


def test_backoff_grows_capped_and_jittered():
    import random
    b = Backoff(1.0, 8.0, random.Random(1))
    waits = [b.next() for _ in range(8)]
    assert 0.5 <= waits[0] <= 1.0 and 1.0 <= waits[1] <= 2.0 and 2.0 <= waits[2] <= 4.0
    assert all(4.0 <= w <= 8.0 for w in waits[3:])
    assert len(set(waits[3:])) == 5                                 # jittered, not in step


def test_a_connection_the_server_dropped_while_idle_is_reopened(corpus):
    with serve(corpus, idle_timeout=0.3) as h:
        with NntpConnection(config(h)) as conn:
            assert fetch_overview(conn, TEST, 1, 900) == lines(corpus, TEST, 1, 900)
            time.sleep(0.7)
            assert fetch_overview(conn, TEST, 1, 900) == lines(corpus, TEST, 1, 900)
            assert conn.connects == 2


# -- the pool -----------------------------------------------------------------------------------------

def test_pool_stays_within_its_size_and_closes_idle_connections(corpus):
    with serve(corpus, latency=0.05) as h:      # replies take a while: the threads overlap
        jobs = [(TEST, a, b) for a, b in chunk_requests(1, 5000, 500)] * 2 + [(MISC, 4501, 6200)] * 4
        with NntpPool(config(h), size=3, idle_seconds=0.4) as pool:
            results: dict[int, bool] = {}

            def work(i):
                group, a, b = jobs[i]
                results[i] = pool.over(group, a, b) == lines(corpus, group, a, b)

            threads = [threading.Thread(target=work, args=(i,)) for i in range(len(jobs))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            assert len(results) == len(jobs) and all(results.values())
            s = stats(h)
            assert s["peak_open"] == 3 and s["connections"] == 3      # three opened, each reused
            assert pool.open_connections == 3
            assert wait_for(lambda: stats(h)["open"] == 0)              # closed after 0.4 s idle
            assert pool.open_connections == 0
            assert pool.over(TEST, 1, 500) == lines(corpus, TEST, 1, 500)   # opened again for work
            assert stats(h)["open"] == 1 and stats(h)["peak_open"] == 3
            with pool.connection() as a, pool.connection() as b, pool.connection() as c:
                with pytest.raises(TimeoutError):
                    pool.acquire(timeout=0.1)                          # all three are out
        assert wait_for(lambda: stats(h)["open"] == 0)


# -- groups, dates, planning --------------------------------------------------------------------------

def test_list_active_with_wildmat(server, corpus):
    want = [{"name": g["name"], "low": g["low"], "high": g["high"]} for g in corpus.groups()]
    with NntpConnection(config(server)) as conn:
        assert conn.list_active() == want
        assert conn.list_active("alt.binaries.t*") == want[:1]
        assert conn.list_active("alt.*,!*.test") == want[1:]
        assert conn.list_active("comp.*") == []
        assert conn.group(MISC) == (MISC, sum(c.lines for c in corpus.chunks(MISC)), 4501, 6200)
    assert list_active(config(server), "*.empty") == [{"name": EMPTY, "low": 51, "high": 50}]


def test_sample_dates_in_the_shape_record_group_dates_takes(server, corpus, conn):
    from tests.helpers import plan
    plan(conn, corpus.groups())
    with NntpConnection(config(server, modes=("gzip-term",))) as nn:
        samples = sample_dates(nn, TEST, 1, 5000, n=8)
        assert nn.gzip is None                      # read plain: the small replies providers cut
        by_head = sample_dates(nn, TEST, 1, 5000, n=4, via="head")
    for got, n in ((samples, 8), (by_head, 4)):
        assert len(got) == n
        articles = [s["article"] for s in got]
        assert articles == sorted(articles) and 1 <= articles[0] and articles[-1] <= 5000
        when = [dt.datetime.fromisoformat(s["posted_at"]) for s in got]
        assert when == sorted(when) and all(w.tzinfo for w in when)     # the corpus posts in order
        for s in got:       # each is the Date of that very article
            line = next(x for x in corpus.lines(TEST, s["article"], s["article"]))
            assert dt.datetime.strptime(line.split(b"\t")[3].decode(), "%a, %d %b %Y %H:%M:%S %z") == \
                dt.datetime.fromisoformat(s["posted_at"])
    assert conn.execute("SELECT voyager.record_group_dates(%s, %s)", (TEST, Jsonb(samples))).fetchone()[0] == 8
    assert conn.execute("SELECT voyager.estimate_range_dates(%s)", (TEST,)).fetchone()[0] > 0
    assert sample_dates(NntpConnection(config(server)), EMPTY, 51, 50) == []


def test_voyager_plan_reads_list_active_from_the_server(server, corpus, conn, db_dsn, monkeypatch, capsys):
    from voyager.cli import main
    monkeypatch.setenv("VOYAGER_DSN", db_dsn)
    monkeypatch.setenv("VOYAGER_NNTP_HOST", "127.0.0.1")
    monkeypatch.setenv("VOYAGER_NNTP_PORT", str(server.port))
    assert main(["plan", "--wildmat", "alt.binaries.t*"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["groups_listed"] == 1 and first["groups_added"] == 1
    assert main(["plan"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["groups_listed"] == 3 and out["groups_added"] == 2
    planned = dict(conn.execute(
        """SELECT g.name, max(r.end_article) FROM voyager.groups g
             JOIN voyager.ranges r ON r.group_id = g.id GROUP BY g.name""").fetchall())
    assert planned[TEST] >= 5000 and planned[MISC] >= 6200 and set(planned) <= {TEST, MISC, EMPTY}
    # the corpus path still works, and a server that is not there is a clear error
    assert main(["plan", "--corpus", str(corpus.root)]) == 0
    assert json.loads(capsys.readouterr().out)["groups_added"] == 0
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        monkeypatch.setenv("VOYAGER_NNTP_PORT", str(s.getsockname()[1]))
        monkeypatch.setenv("VOYAGER_NNTP_TIMEOUT", "2")
        assert main(["plan"]) == 1
    assert "voyager: 127.0.0.1:" in capsys.readouterr().err


def test_xzver_payloads_as_providers_send_them():
    """XZVER carries zlib (the simulator, Astraweb style), raw deflate or
    gzip; a payload that stops early or fails its CRC is a cut reply."""
    import gzip
    import zlib
    from sim.server import yenc_block
    from workers.nntp import inflate_any, ydecode
    text = b"".join(b"%d\tsubject %d\r\n" % (n, n) for n in range(1, 3000))
    raw = zlib.compressobj(6, zlib.DEFLATED, -15)
    for payload in (zlib.compress(text), raw.compress(text) + raw.flush(), gzip.compress(text)):
        assert inflate_any(ydecode(unstuff(yenc_block(payload, "xzver")))) == text
        with pytest.raises(OverviewCutShort):
            inflate_any(payload[:len(payload) // 2])
    block = yenc_block(zlib.compress(text), "xzver")
    with pytest.raises(OverviewCutShort, match="CRC32"):
        ydecode(block.replace(b"crc32=", b"crc32=1"))
    with pytest.raises(OverviewCutShort, match="=yend"):
        ydecode(block[:len(block) // 2])


def test_ydecode_undoes_every_escape():
    """Every byte value, runs of the escaped ones, at line starts and ends, with
    the encoder the simulator uses and the hand one; an escape of another
    character (other encoders) takes the general way."""
    import random
    import zlib
    from sim.server import _yenc_encode_py, yenc_block
    from workers.nntp import _YTABLE, ydecode
    rng = random.Random(7)
    crit = bytes((214, 224, 227, 19, 223, 246, 4))     # +42: NUL, LF, CR, "=", TAB, space, "."
    for n in (0, 1, 127, 128, 129, 5000):
        data = bytes(rng.choice(crit) if rng.random() < 0.3 else rng.randrange(256) for _ in range(n))
        data += bytes(range(256)) + crit * 3
        assert ydecode(yenc_block(data, "x")) == data
        enc = _yenc_encode_py(data)
        block = (b"=ybegin line=128 size=%d name=x\r\n" % len(data) + enc + b"\r\n=yend size=%d crc32=%08x\r\n"
                 % (len(data), zlib.crc32(data)))
        assert ydecode(block) == data
    # "=" before a character no encoder here escapes: decoded all the same
    data = b"abc"
    odd = b"=" + bytes(((data[0] + 42 + 64) & 0xFF,)) + bytes((c + 42) & 0xFF for c in data[1:])
    assert odd.translate(_YTABLE) != data
    block = b"=ybegin line=128 size=3 name=x\r\n" + odd + b"\r\n=yend size=3 crc32=%08x\r\n" % zlib.crc32(data)
    assert ydecode(block) == data


def test_scan_stuffed_finds_a_line_that_starts_with_a_dot():
    from ext import scan
    for text, want in ((b"", False), (b".x\r\n", True), (b"1\tx\r\n.2\r\n", True), (b"1\tx.\r\n2\r\n", False),
                       (b"1\r\n", False), (b"1\r\n.", True), (bytearray(b"1\r\n2\r\n..3\r\n"), True)):
        assert scan.stuffed(text) is want, text
