"""A spot's NZB through Spotnet's encoding and back: the files and segments
as written, across several articles; placeholders, bombs and garbage noted
in `error` within the caps."""
from __future__ import annotations

import hashlib
import time
import tracemalloc
import zlib

from sim.spots import nzb_bodies, special_zip
from tests.nzb_reference import render
from workers.spots import decode_spot_nzb


def files_of(count: int, parts: int) -> list:
    return [(f"show.s01e0{i}.mkv".encode(), parts * 700_000,
             [(p, f"{hashlib.sha1(b'%d.%d' % (i, p)).hexdigest()}@news.example".encode(), 700_000 + p) for p in range(1, parts + 1)])
            for i in range(count)]


def expected(files) -> list:
    return [[(p, b, m.decode()) for p, m, b in segs] for _n, _s, segs in files]


def test_roundtrip_one_article():
    files = files_of(3, 5)
    nzb = render(files, "Show S01", "poster@example.com", 1_700_000_000, ["alt.binaries.teevee"]).encode()
    bodies = nzb_bodies(nzb)
    assert len(bodies) == 1 and all(len(line) <= 900 for line in bodies[0].split(b"\r\n"))
    out = decode_spot_nzb(bodies)
    assert out["error"] is None and out["size"] == len(nzb)
    assert [f["segments"] for f in out["files"]] == expected(files)
    assert out["files"][0]["groups"] == ["alt.binaries.teevee"]
    assert out["files"][0]["poster"] == "poster@example.com"
    assert out["files"][0]["subject"] == '"show.s01e00.mkv" yEnc (1/5)'
    assert out["files"][1]["date"] == 1_700_000_000


def test_roundtrip_many_articles_and_every_escape():
    # bytes that need every escape: the deflated stream is cut anywhere,
    # an escape may straddle a line break
    files = files_of(40, 60)
    nzb = render(files, "Big", "p@x", 1, ["a.b.c"]).encode()
    bodies = nzb_bodies(nzb, article_bytes=2000)
    assert len(bodies) > 3
    joined = b"".join(bodies)
    assert all(e in joined for e in (b"=A", b"=B", b"=C", b"=D"))
    out = decode_spot_nzb(bodies)
    assert out["error"] is None
    assert [f["segments"] for f in out["files"]] == expected(files)
    # out of order, the stream does not inflate
    assert decode_spot_nzb(bodies[::-1])["error"] in ("inflate", "xml")


def test_placeholder_and_unreadable():
    placeholder = b'<?xml version="1.0"?><nzb xmlns="http://www.newzbin.com/DTD/2003/nzb"></nzb>'
    assert decode_spot_nzb(nzb_bodies(placeholder))["error"] == "placeholder"
    empty_file = render([(b"x", 0, [])], "t", "p", 0, ["g"]).encode()
    assert decode_spot_nzb(nzb_bodies(empty_file))["error"] == "placeholder"
    assert decode_spot_nzb([])["error"] == "empty"
    assert decode_spot_nzb([b"not deflate at all\r\n"])["error"] == "inflate"
    deflated = nzb_bodies(b"<html><body>no nzb</body></html>")
    assert decode_spot_nzb(deflated)["error"] == "not-nzb"
    assert decode_spot_nzb(nzb_bodies(b"<nzb><file><segments>"))["error"] == "xml"
    # cut short: the last article gone
    big = nzb_bodies(render(files_of(40, 60), "t", "p", 0, ["g"]).encode(), article_bytes=2000)
    assert decode_spot_nzb(big[:-1])["error"] == "inflate"


def test_caps_segments_and_size():
    files = files_of(10, 30)
    nzb = render(files, "t", "p", 0, ["g"]).encode()
    assert decode_spot_nzb(nzb_bodies(nzb), max_segments=299)["error"] == "too-many-segments"
    assert decode_spot_nzb(nzb_bodies(nzb), max_segments=300)["error"] is None
    assert decode_spot_nzb(nzb_bodies(nzb), cap=len(nzb) - 1)["error"] == "too-large"


def test_deflate_bomb_bounded():
    """256 MiB of zeros in 256 KiB of deflate: refused at the cap, memory
    and time bounded by it."""
    packer = zlib.compressobj(1, zlib.DEFLATED, -zlib.MAX_WBITS)
    chunk = b"\0" * (1 << 20)
    data = b"".join(packer.compress(chunk) for _ in range(256)) + packer.flush()
    bodies = [special_zip(data)]
    tracemalloc.start()
    started = time.perf_counter()
    out = decode_spot_nzb(bodies, cap=8 << 20)
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert out["error"] == "too-large"
    assert peak < 40 << 20 and elapsed < 2


def test_entity_bomb_refused():
    bomb = (b'<?xml version="1.0"?><!DOCTYPE nzb [<!ENTITY a "aaaaaaaaaa">'
            + b"".join(b'<!ENTITY %c "&%c;&%c;&%c;&%c;&%c;&%c;&%c;&%c;&%c;&%c;">' % ((c,) + (c - 1,) * 10)
                       for c in range(ord("b"), ord("k")))
            + b']><nzb><file subject="&j;"><segments><segment number="1" bytes="1">x@y</segment>'
            b"</segments></file></nzb>")
    assert decode_spot_nzb(nzb_bodies(bomb))["error"] == "xml-entities"
    external = (b'<?xml version="1.0"?><!DOCTYPE nzb [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
                b'<nzb><file subject="&e;"></file></nzb>')
    assert decode_spot_nzb(nzb_bodies(external))["error"] == "xml-entities"
    # the NZB DOCTYPE every writer puts is fine (its DTD is never fetched)
    plain = render(files_of(1, 2), "t", "p", 0, ["g"]).encode()
    assert b"<!DOCTYPE nzb PUBLIC" in plain and decode_spot_nzb(nzb_bodies(plain))["error"] is None
