"""A real INN 2 on loopback (tests/inn.py), fed a small simulator corpus.

Skipped only when Debian's inn2 cannot be installed here (scripts/setup_inn.sh
fails, or there is no root to run it); everything else is a failure.
"""
from __future__ import annotations

import json
import time
import zlib
from pathlib import Path

import pytest

from tests.inn import (InnServer, InnUnavailable, NntpClient, corpus_articles, ensure_inn, inn_version,
                       post_corpus)

pytestmark = pytest.mark.slow

# 2 groups, ~2,900 overview lines, 83 uploads (most of them fully posted)
SEED, GROUPS, LINES = 18, 2, 2200


@pytest.fixture(scope="module")
def inn_available():
    try:
        ensure_inn()
    except InnUnavailable as exc:
        pytest.skip(f"Debian's inn2 (INN 2) cannot be installed on this machine: {exc}")
    return inn_version()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    from sim.generate import main as generate
    out = tmp_path_factory.mktemp("inn-corpus") / "corpus"
    assert generate(["--out", str(out), "--seed", str(SEED), "--groups", str(GROUPS),
                     "--lines", str(LINES), "--quiet"]) == 0
    return out


@pytest.fixture(scope="module")
def fed(inn_available, corpus, tmp_path_factory):
    """A running INN with the whole corpus posted: (server, result, timings)."""
    from voyager.corpus import Corpus
    tmp = tmp_path_factory.mktemp("inn")
    t0 = time.monotonic()
    with InnServer(tmp, groups=Corpus(corpus).group_names()) as inn:
        t1 = time.monotonic()
        res = post_corpus(inn, corpus, out_dir=tmp / "posted")
        t2 = time.monotonic()
        yield inn, res, {"start": t1 - t0, "post": t2 - t1, "version": inn_available, "out": tmp / "posted"}
        pids = inn.pids()
        assert pids, "the daemons' processes are not found by their INNCONF"
    assert inn.pids() == [], "processes left behind after stop"


def expected_overview(corpus: Path, res, group: str) -> list[tuple]:
    """(Subject, From, Date, Message-ID) of the group's accepted articles in
    the corpus's article order."""
    from voyager.corpus import Corpus, line_number
    from tests.inn import parse_overview
    accepted = {("<" + m + ">").encode("utf-8", "surrogateescape") for m in res.accepted_mids}
    rows = []
    c = Corpus(corpus)
    for r in c.ranges(group):
        for chunk in r.chunks:
            for line in chunk.overview_lines():
                a = parse_overview(line, group)
                if a is not None and a.mid in accepted:
                    rows.append((line_number(line), (a.subject, a.poster, a.date, a.mid)))
    rows.sort(key=lambda x: x[0])
    return [x for _n, x in rows]


def test_posted(fed, corpus):
    inn, res, timing = fed
    s = res.summary()
    print(f"\nINN {timing['version']}: started in {timing['start']:.2f} s; posted {res.offered} articles "
          f"in {res.seconds:.2f} s ({res.rate:.0f}/s, {res.body_bytes / 1e6:.1f} MB): "
          f"{json.dumps({k: s[k] for k in ('accepted', 'rejected', 'reasons', 'malformed_skipped', 'per_group', 'truth')})}")
    arts, counts = corpus_articles(corpus)
    assert res.offered == len(arts) == counts["articles"]
    assert res.corpus_lines == counts["lines"] and res.malformed_skipped == counts.get("malformed", 0)
    assert res.accepted + res.rejected == res.offered
    # the only refusals are INN's own rule against Date header fields in the future
    # (the corpus's bogus dates past 2038)
    assert set(res.reasons) <= {"Article injected or posted in the future"}, res.reasons
    assert res.rejected <= max(3, res.offered // 200)
    assert res.accepted > 2000
    # the posted truth: every upload fully, partly or not posted, and most fully
    out = timing["out"]
    full = [json.loads(l) for l in (out / "truth.jsonl").read_text().splitlines()]
    total = sum(1 for l in (corpus / "truth.jsonl").read_text().splitlines() if l.strip())
    assert res.truth["full"] == len(full) and res.truth["full"] + res.truth.get("partial", 0) \
        + res.truth.get("unposted", 0) == total
    assert len(full) >= 0.9 * total
    accepted = set(res.accepted_mids)
    for up in full:
        assert all(s[1] in accepted for f in up["files"] for s in f["segments"])
    assert (out / "accepted.txt").read_text().split() == res.accepted_mids


def test_list_active(fed):
    inn, res, _t = fed
    with inn.reader() as c:
        active = c.list_active()
        for g in inn.groups:
            high, low, flag = active[g]
            assert flag == "y"
            assert (low, high) == (1, res.per_group[g]), (g, active[g], res.per_group[g])
            assert c.group(g) == (res.per_group[g], 1, res.per_group[g])
    # a crosspost between the groups counts in each
    assert sum(res.per_group.values()) >= res.accepted
    groups = json.loads((_t["out"] / "groups.json").read_text())
    assert {g["name"]: (g["low"], g["high"]) for g in groups} == {g: (1, res.per_group[g]) for g in inn.groups}


def test_over(fed, corpus):
    inn, res, _t = fed
    with inn.reader() as c:
        for g in inn.groups:
            count, low, high = c.group(g)
            lines = c.over(low, high)
            assert len(lines) == count == res.per_group[g]
            got = []
            numbers = []
            for line in lines:
                f = line.split(b"\t")
                assert len(f) >= 9 and f[8].startswith(b"Xref: ")
                numbers.append(int(f[0]))
                got.append((f[1], f[2], f[3], f[4]))
                assert f"{g}:{int(f[0])}".encode() in f[8].split()
            assert numbers == list(range(low, high + 1))
            # the posted fields, and INN's numbers follow the corpus's article order
            assert got == expected_overview(corpus, res, g)


def test_compress_deflate(fed):
    inn, res, _t = fed
    g = inn.groups[0]
    with inn.reader() as plain:
        caps = plain.capabilities()
        assert "COMPRESS DEFLATE" in caps, caps
        _count, low, high = plain.group(g)
        want = plain.over(low, high)
    with inn.reader() as c:
        c.compress()
        # RFC 8054: no COMPRESS advertised once compression is active
        assert "COMPRESS DEFLATE" not in c.capabilities()
        count, low2, high2 = c.group(g)
        assert (low2, high2) == (low, high)
        got = c.over(low, high)
        assert got == want
        # the reply came deflated: far fewer bytes on the wire than it holds
        assert c.plain_in > sum(len(l) + 2 for l in want)
        assert c.wire_in < c.plain_in / 2, (c.wire_in, c.plain_in)
        # a second COMPRESS is refused inside the compressed stream
        assert c.command("COMPRESS DEFLATE").startswith(b"502")
    print(f"\nCOMPRESS DEFLATE: OVER of {len(want)} lines, {c.plain_in} bytes in {c.wire_in} on the wire")


def test_bodies_and_check(inn_available, corpus, tmp_path):
    """The corpus's real yEnc parts (sim.bodies), offered with CHECK first,
    read back byte for byte; a second offer is refused by CHECK (438)."""
    from sim.bodies import Bodies
    from voyager.corpus import Corpus
    with InnServer(tmp_path, groups=Corpus(corpus).group_names()) as inn:
        res = post_corpus(inn, corpus, limit_articles=60, bodies="sim", check=True)
        assert res.offered == 60 and res.accepted + res.rejected == 60 and res.accepted >= 58
        bodies = Bodies(corpus)
        arts, _ = corpus_articles(corpus)
        with inn.reader() as c:
            for a in arts[:60]:
                mid = a.mid[1:-1].decode()
                if mid not in res.accepted_mids:
                    continue
                assert c.article(a.mid, "BODY") == bodies.body(mid, a.nbytes)
                head = c.article(a.mid, "HEAD")
                assert b"\r\nSubject: " + a.subject + b"\r\n" in b"\r\n" + head
        again = post_corpus(inn, corpus, limit_articles=60, check=True)
        assert again.refused == res.accepted and again.accepted == 0
        with inn.reader() as c:
            c.group(inn.groups[0])          # a connection open while stopping: its nnrpd child goes too
            assert len(inn.pids()) >= 3
            inn.stop()
            assert inn.pids() == []
