"""A generated corpus through the simulator's server: an outside client
(nntplib) reads every group's overview exactly as the corpus holds it, and
the compressed reply inflates to the same lines."""
from __future__ import annotations

import socket
import warnings
import zlib

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import nntplib

from sim.generate import Options, generate
from sim.server import ServerOptions, run_in_thread
from tests.sim.test_server import rebuild
from voyager.corpus import Corpus


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    out = tmp_path_factory.mktemp("served") / "c"
    generate(Options(out=out, seed=21, groups=3, lines=30_000, days=1, range_articles=10_000,
                     chunk_articles=3_000))
    with run_in_thread(ServerOptions(corpus=str(out))) as handle:
        yield Corpus(out), handle


def test_nntplib_reads_a_generated_corpus_exactly(served):
    corpus, handle = served
    with nntplib.NNTP("127.0.0.1", handle.port, usenetrc=False, timeout=30) as nn:
        _, listed = nn.list()
        assert {(g.group, int(g.first), int(g.last)) for g in listed} == \
            {(g["name"], g["low"], g["high"]) for g in corpus.groups()}
        for g in corpus.groups():
            nn.group(g["name"])
            _, over = nn.over((g["low"], g["high"]))
            stored = list(corpus.lines(g["name"], g["low"], g["high"]))
            assert len(over) == len(stored)
            # nntplib parses each line into fields: the well-formed ones must come back
            # byte for byte (non-UTF-8 subjects included); a malformed one in its place
            whole = [rebuild(n, f) for n, f in over if len(f) == 8 and f.get("xref") is not None]
            assert whole == [x for x in stored if x.count(b"\t") == 8 and b"\tXref: " in x]
            assert [n for n, _f in over] == [int(x.split(b"\t", 1)[0]) for x in stored]


def test_compressed_overview_inflates_to_the_same_lines(served):
    corpus, handle = served
    g = corpus.groups()[0]
    with socket.create_connection(("127.0.0.1", handle.port), timeout=30) as s:
        f = s.makefile("rb")
        f.readline()
        for cmd in (b"XFEATURE COMPRESS GZIP TERMINATOR", f"GROUP {g['name']}".encode(),
                    f"XOVER {g['low']}-{g['high']}".encode()):
            s.sendall(cmd + b"\r\n")
            status = f.readline()
        assert status.startswith(b"224")
        inflater = zlib.decompressobj()
        text = b""
        while not inflater.eof:
            text += inflater.decompress(f.read1(65536))
    lines = text.split(b"\r\n")
    assert lines[-2:] == [b".", b""]
    expect = [b"." + x if x.startswith(b".") else x for x in corpus.lines(g["name"], g["low"], g["high"])]
    assert lines[:-2] == expect
