"""The one NZB writer (ext.codec.nzb, behind voyager.nzb() and t=get) against
the plain-Python oracle (tests/nzb_reference.py over tests/codec_reference.py), for
any files and chunks; voyager.nzb(id) and t=get byte for byte for every
release of the web's replayed catalog; and a chunk's file list."""
from __future__ import annotations

import random

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ext import codec
from tests.ext import test_codec
from tests import codec_reference as codec_ref
from tests.nzb_reference import render
from tests.web.util import api
from tests.wellformed import parse
from web import nzbs

mids = st.one_of(st.binary(min_size=1, max_size=30), st.text(min_size=1, max_size=20).map(str.encode),
                 st.sampled_from([b"a&b<c>@x", b"caf\xe9@y", "é@x".encode(), b"plain.123@host"]))
segments = st.lists(st.tuples(st.integers(0, 10**6), mids, st.integers(0, 10**9)), max_size=12)
files = st.lists(st.tuples(st.binary(max_size=20), st.integers(0, 10**12), segments), max_size=6)
words = st.text(max_size=20)


@settings(max_examples=300, deadline=None)
@given(files=files, title=words, poster=words, posted=st.one_of(st.none(), st.integers(0, 2**40)),
       groups=st.lists(words, max_size=3), category=st.one_of(st.none(), words),
       password=st.one_of(st.none(), words))
def test_the_writer_is_render(files, title, poster, posted, groups, category, password):
    want = render(files, title, poster, posted, groups, category, password).encode("utf-8")
    assert codec.nzb([codec.encode(files)], title, poster, posted, groups, category, password) == want
    parse(want)


@settings(max_examples=200, deadline=None)
@given(chunks=st.lists(files, max_size=4), title=words, category=st.one_of(st.none(), words))
def test_a_release_of_several_chunks(chunks, title, category):
    """The files of each chunk in turn, as stored: one document, one head."""
    want = render([f for fs in chunks for f in fs], title, "p", 7, ["a.b.c"], category, None).encode("utf-8")
    assert codec.nzb([codec.encode(fs) for fs in chunks], title, "p", 7, ["a.b.c"], category, None) == want
    parse(want)


def test_a_chunks_file_list():
    chunk = codec.encode([(b"b.part2.rar", 2000, [(1, b"m1@x", 1000), (2, b"m2@x", 1100)]),
                          (b"a.nfo", 10, [(1, b"m3@x", 50)])])
    assert nzbs.file_list([chunk]) == [
        {"name": "a.nfo", "bytes": 10, "segments": 1, "article_bytes": 50, "parts": (1, 1)},
        {"name": "b.part2.rar", "bytes": 2000, "segments": 2, "article_bytes": 2100, "parts": (1, 2)}]


def _oracle(conn, release_id: int) -> bytes:
    """The NZB the plain-Python oracle writes from the release's rows."""
    name, poster, posted, groups, category, password, chunk = conn.execute(
        """SELECT r.name, p.poster, extract(epoch FROM r.posted_at)::bigint, gs.groups,
                  (SELECT coalesce(pc.name || ' > ', '') || cat.name FROM voyager.categories cat
                     LEFT JOIN voyager.categories pc ON pc.id = cat.parent_id WHERE cat.id = r.category),
                  (SELECT pw.password FROM voyager.release_passwords pw WHERE pw.release_id = r.id), c.chunk
             FROM voyager.releases r JOIN voyager.posters p ON p.id = r.poster_id
             JOIN voyager.group_sets gs ON gs.id = r.group_set_id
             JOIN voyager.release_chunks c ON c.release_id = r.id WHERE r.id = %s""", (release_id,)).fetchone()
    return render(codec_ref.decode(chunk), name, poster, posted, groups, category, password).encode("utf-8")


def test_voyager_nzb_is_t_get_for_every_release(app, keys, web_dsn):
    """Every release of the replayed catalog: voyager.nzb(id), t=get and the
    oracle write the same bytes, with a password in the meta and with the
    chunk filed under another month (the any-month lookup of both)."""
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        conn.execute("UPDATE voyager.users SET downloads_per_day = 100000 WHERE name = 'alice'")
        rows = conn.execute("SELECT r.id, encode(r.release_key, 'hex') FROM voyager.releases r "
                            "JOIN voyager.release_chunks c ON c.release_id = r.id ORDER BY r.id").fetchall()
        assert len(rows) >= 10
        first = rows[0][0]
        conn.execute("INSERT INTO voyager.release_passwords (release_id, status, password) VALUES (%s, 1, 'pw & <x>')",
                     (first,))

        def same(rid: int, guid: str) -> None:
            (text,) = conn.execute("SELECT voyager.nzb(%s)", (rid,)).fetchone()
            resp = api(app, t="get", id=guid, apikey=keys["alice"])
            assert resp.status == 200, resp.text[:300]
            assert text is not None and resp.body == text.encode("utf-8") == _oracle(conn, rid), rid
            parse(resp.body)

        for rid, guid in rows:
            same(rid, guid)
        assert b'<meta type="password">pw &amp; &lt;x&gt;</meta>' in conn.execute(
            "SELECT convert_to(voyager.nzb(%s), 'UTF8')", (first,)).fetchone()[0]
        moved = rows[-1][0]
        conn.execute("UPDATE voyager.release_chunks SET month = month - interval '13 months' WHERE release_id = %s",
                     (moved,))
        assert conn.execute("SELECT count(*) FROM voyager.release_chunks c JOIN voyager.releases r ON r.id = c.release_id "
                            "WHERE r.id = %s AND c.month = voyager.chunk_month(r.posted_at)", (moved,)).fetchone()[0] == 0
        same(moved, rows[-1][1])
        assert conn.execute("SELECT voyager.nzb(-1)").fetchone()[0] is None


# -- well-formed XML 1.0 whatever bytes a release holds ----------------------------------------------

# texts with what XML 1.0 forbids: C0 controls, U+FFFE/U+FFFF, lone surrogates (a str decoded with
# surrogateescape), beside markup and ordinary text
hostile_chars = st.one_of(st.characters(min_codepoint=0, max_codepoint=0x1F), st.sampled_from(
    ["\ufffe", "\uffff", "\ud800", "\udfff", "\udcff", "&", "<", ">", "'", '"', "\x7f", "\x85", "\u2028"]),
    st.characters())
hostile_text = st.text(alphabet=hostile_chars, max_size=16)
hostile_files = st.lists(st.tuples(st.binary(max_size=24), st.integers(0, 10**12),
                                   st.lists(st.tuples(st.integers(0, 10**6), st.binary(min_size=1, max_size=24),
                                                      st.integers(0, 10**9)), max_size=5)), max_size=4)


@settings(max_examples=500, deadline=None)
@given(files=hostile_files, title=hostile_text, poster=hostile_text, groups=st.lists(hostile_text, max_size=3),
       category=st.one_of(st.none(), hostile_text), password=st.one_of(st.none(), hostile_text))
def test_every_nzb_is_xml_whatever_bytes_it_holds(files, title, poster, groups, category, password):
    """Arbitrary bytes in names and message-ids, any characters in the head's texts:
    the NZB parses, as the oracle writes it, with U+FFFD where XML 1.0 has no character."""
    got = codec.nzb([codec.encode(files)], title, poster, 1, groups, category, password)
    assert got == render(files, title, poster, 1, groups, category, password).encode("utf-8")
    root = parse(got)
    ns = "{http://www.newzbin.com/DTD/2003/nzb}"
    assert len(root.findall(f"{ns}file")) == len(files)
    assert [len(f.findall(f"{ns}segments/{ns}segment")) for f in root.findall(f"{ns}file")] == \
        [len(segs) for _n, _b, segs in files]


def test_what_xml_forbids_becomes_u_fffd():
    chunk = codec.encode([(b"a\x00b\x1bc\tname\xef\xbf\xbe", 1, [(1, b"m\x01@x\x0c", 5)])])
    doc = codec.nzb([chunk], "t\x00", "p\x08 <p@x>", 1, ["a.b\x1f"], None, "pw\uffff")
    root = parse(doc)
    ns = "{http://www.newzbin.com/DTD/2003/nzb}"
    f = root.find(f"{ns}file")
    assert f.get("subject") == '"a\ufffdb\ufffdc\tname\ufffd" yEnc (1/1)'
    assert f.get("poster") == "p\ufffd <p@x>" and f.findtext(f"{ns}groups/{ns}group") == "a.b\ufffd"
    assert f.findtext(f"{ns}segments/{ns}segment") == "m\ufffd@x\ufffd"
    assert {m.get("type"): m.text for m in root.iter(f"{ns}meta")} == {"title": "t\ufffd", "password": "pw\ufffd"}


# -- the one-pass writer (ext.codec.decode_nzb) against the oracle, byte for byte ---------------------

# names and message-ids with what render escapes or decodes differently: markup, quotes,
# control characters, non-ASCII text, bytes that are not UTF-8 (Latin-1) and the UTF-8
# forms Python's strict decoder refuses (overlong, surrogates, past U+10FFFF, cut short)
ODD = [b"", b"a&b<c>d\"e'f", b"\n\r\t\x00\x7f", "caf\u00e9 \u65e5\u672c \U0001f600".encode(), b"caf\xe9",
       b"\xc0\xaf", b"\xc1\xbf", b"\xe0\x80\xaf", b"\xe0\x9f\xbf", b"\xed\xa0\x80", b"\xed\x9f\xbf",
       b"\xf0\x8f\xbf\xbf", b"\xf0\x90\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",
       b"\xff", b"\xe2\x82", b"\xe2\x82\xac", b"x\xc3", b"\xc3\xa9", b"\x80", b"'", b'"', b"'\"'"]
odd_bytes = st.one_of(st.binary(max_size=24), st.sampled_from(ODD),
                      st.lists(st.sampled_from(ODD), max_size=4).map(b"".join),
                      st.text(max_size=12).map(lambda t: t.encode("utf-8", "surrogatepass")))
odd_mids = st.one_of(st.sampled_from([b"plain.123@host", b"part1of9.AbCdEf@powerpost2000AA.local"]),
                     odd_bytes, st.text(alphabet="<>&'\"ab@.", max_size=10).map(str.encode))


@st.composite
def odd_segments(draw):
    n = draw(st.sampled_from([0, 1, 1, 2, 3, draw(st.integers(0, 40))]))
    order = draw(st.sampled_from(["run", "gaps", "shuffled", "any", "same"]))
    if order == "any":
        parts = draw(st.lists(st.integers(0, codec_ref.MAXV), min_size=n, max_size=n))
    elif order == "same":               # one part number many times: ties ordered by message-id, then bytes
        parts = [draw(st.integers(0, 5))] * n
    else:
        start = draw(st.integers(0, 10))
        steps = draw(st.lists(st.integers(1, 500) if order == "gaps" else st.just(1), min_size=n, max_size=n))
        parts = [start + sum(steps[:i]) for i in range(n)]
        if order == "shuffled":
            parts = draw(st.permutations(parts))
    kind = draw(st.sampled_from(["odd", "template", "mixed"]))
    segs = []
    for i, p in enumerate(parts):
        if kind == "template" or (kind == "mixed" and draw(st.booleans())):
            mid = b"part%dof%d.%s@x&y<z>" % (p, n, b"%08x" % (i * 2654435761 % (1 << 32))) \
                if draw(st.booleans()) else b"%d.%d@host" % (1712345678 + i, p)
        else:
            mid = draw(odd_mids)
        segs.append((p, mid, draw(st.sampled_from([0, 739_000, 739_128, codec_ref.MAXV]))
                     if draw(st.booleans()) else 739_000 + i))
    return segs


odd_files = st.lists(st.tuples(odd_bytes, st.integers(0, (1 << 63) - 1), odd_segments()), max_size=6)


def _both(chunk: bytes, *meta) -> bytes:
    """The writer's bytes, checked against the oracle's render(decode(...))."""
    got = codec.nzb([chunk], *meta)
    assert got == render(codec_ref.decode(chunk), *meta).encode("utf-8")
    parse(got)
    return got


@settings(max_examples=500, deadline=None)
@given(files=odd_files, title=words, poster=words, posted=st.one_of(st.none(), st.integers(0, 2**40)),
       groups=st.lists(words, max_size=3), category=st.one_of(st.none(), words),
       password=st.one_of(st.none(), words))
def test_decode_nzb_is_render(files, title, poster, posted, groups, category, password):
    _both(codec.encode(files), title, poster, posted, groups, category, password)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=test_codec.files_st)
def test_decode_nzb_over_the_codecs_chunks(files):
    """The codec's own strategy: every posting tool's message-id shapes (templates of
    each field kind, exceptions), any part numbers and sizes."""
    _both(codec.encode(files), "t", "p", 1, ["a.b.c"], None, None)


def test_decode_nzb_real_shapes():
    """Releases of each tool's shape, 100 files of 50 segments, and the samples of the codec's tests."""
    rnd = random.Random(11)
    for kind in test_codec.KINDS:
        state: dict = {}
        files = [(b"Some.Release.part%03d.rar" % f, 36_000_000,
                  [(p, test_codec._mid(kind, rnd, p, 50, state), 739_000 + rnd.randint(0, 400)) for p in range(1, 51)])
                 for f in range(100 if kind in ("nyuu", "ngpost") else 3)]
        _both(codec.encode(files), "Some Release", "poster <p@x>", 1712345678, ["alt.binaries.test"], "TV > HD", "pw")
    for blob in test_codec._samples():
        _both(blob, "x", "y", None, [], None, None)


def test_decode_nzb_refuses_what_decode_refuses():
    for blob in test_codec._samples():
        for n in range(len(blob)):
            with pytest.raises(ValueError):
                codec.decode_nzb([blob[:n]], b"", b"", b"")
        for i in range(len(blob)):
            flipped = bytearray(blob)
            flipped[i] ^= 0x10
            with pytest.raises(ValueError):
                codec.decode_nzb([bytes(flipped)], b"", b"", b"")
    with pytest.raises(ValueError):
        nzbs.nzb_bytes({"chunks": [b"\x01garbage"], "name": "n", "poster": "p", "posted": 0, "groups": [],
                        "nzb_category": None, "password": None})


@settings(max_examples=400, deadline=None)
@given(which=st.integers(0, 6), pos=st.integers(0, 10_000), value=st.integers(0, 255), in_meta=st.booleans(),
       cut=st.integers(0, 3))
def test_decode_nzb_mangled_with_good_checksum(which, pos, value, in_meta, cut):
    """Past the checksum: decode_nzb refuses exactly the chunks decode refuses, and
    writes the same NZB for the others."""
    meta, packed = test_codec._unpack(test_codec._samples()[which])
    if in_meta and meta:
        meta = bytearray(meta)
        meta[pos % len(meta)] = value
        meta = bytes(meta[:len(meta) - cut])
    elif packed:
        packed = bytearray(packed)
        packed[pos % len(packed)] = value
        packed = bytes(packed[:len(packed) - cut])
    data = test_codec._pack(meta, packed)
    try:
        files = codec.decode(data)
    except ValueError:
        with pytest.raises(ValueError):
            codec.decode_nzb([data], b"", b"", b"")
        return
    assert codec.nzb([data], "t", "p", 0, [], None, None) == render(files, "t", "p", 0, [], None, None).encode("utf-8")


def test_decode_nzb_many_segments():
    """A 20,000-segment file, out of order: the output buffer grows, the sort holds."""
    rnd = random.Random(5)
    parts = list(range(1, 20_001))
    rnd.shuffle(parts)
    segs = [(p, b"%s-%d@nyuu" % (rnd.randbytes(8).hex().encode(), p), 700_000 + p % 7) for p in parts]
    chunk = codec.encode([(b"big.bin", 1 << 40, segs), (b"", 0, [])])
    _both(chunk, "big", "p", 5, ["g"], "c", None)
