"""The web's NZB bytes: the C segment lines (web/_nzbfast.pyx) write what
voyager_pl.nzb.render writes, for any files; and a chunk's file list."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ext import codec
from voyager_pl.nzb import render
from web import nzbs

mids = st.one_of(st.binary(min_size=1, max_size=30), st.text(min_size=1, max_size=20).map(str.encode),
                 st.sampled_from([b"a&b<c>@x", b"caf\xe9@y", "é@x".encode(), b"plain.123@host"]))
segments = st.lists(st.tuples(st.integers(0, 10**6), mids, st.integers(0, 10**9)), max_size=12)
files = st.lists(st.tuples(st.binary(max_size=20), st.integers(0, 10**12), segments), max_size=6)
words = st.text(max_size=20)


def test_the_extension_is_built():
    assert nzbs.segment_lines is not None, "web/_nzbfast.pyx: run scripts/setup.sh"


@settings(max_examples=300, deadline=None)
@given(files=files, title=words, poster=words, posted=st.one_of(st.none(), st.integers(0, 2**40)),
       groups=st.lists(words, max_size=3), category=st.one_of(st.none(), words),
       password=st.one_of(st.none(), words))
def test_render_bytes_is_render(files, title, poster, posted, groups, category, password):
    want = render(files, title, poster, posted, groups, category, password).encode("utf-8", "surrogatepass")
    assert nzbs.render_bytes(files, title, poster, posted, groups, category, password) == want


def test_a_chunks_file_list():
    chunk = codec.encode([(b"b.part2.rar", 2000, [(1, b"m1@x", 1000), (2, b"m2@x", 1100)]),
                          (b"a.nfo", 10, [(1, b"m3@x", 50)])])
    assert nzbs.file_list(chunk) == [
        {"name": "a.nfo", "bytes": 10, "segments": 1, "article_bytes": 50, "parts": (1, 1)},
        {"name": "b.part2.rar", "bytes": 2000, "segments": 2, "article_bytes": 2100, "parts": (1, 2)}]
