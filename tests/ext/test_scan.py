"""The overview-line scanner (ext/scan.pyx) against Python's own parsers."""
from __future__ import annotations

import email.utils
import time
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ext import scan
from sim.generate import Options, generate
from voyager.corpus import Corpus


def python_date(value: str) -> int | None:
    parsed = email.utils.parsedate_tz(value)
    return None if parsed is None else int(email.utils.mktime_tz(parsed))


@settings(max_examples=300, deadline=None)
@given(t=st.integers(0, 4_000_000_000), style=st.integers(0, 5), offset=st.sampled_from([0, 60, -300, 330, -480]))
def test_dates_parse_like_email_utils(t, style, offset):
    local = t + offset * 60
    zone = f"{'+' if offset >= 0 else '-'}{abs(offset) // 60:02d}{abs(offset) % 60:02d}"
    forms = [
        time.strftime("%a, %d %b %Y %H:%M:%S ", time.gmtime(local)) + zone,      # RFC 5322
        time.strftime("%d %b %Y %H:%M:%S ", time.gmtime(local)) + zone,          # no day name
        time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(t)),              # named zone
        time.strftime("%a, %d %b %Y %H:%M ", time.gmtime(local)) + zone,         # no seconds
        time.strftime("%a,  %d %b %Y  %H:%M:%S ", time.gmtime(local)) + zone + " (UTC)",
        time.strftime("%a, %d %b %y %H:%M:%S ", time.gmtime(local)) + zone,      # two-digit year
    ]
    value = forms[style]
    expect = python_date(value)
    if style == 5:
        year = time.gmtime(local).tm_year
        if not (1950 <= year < 2050):
            return                      # two digits cannot say which century
    assert scan.date(value.encode()) == expect


@pytest.mark.parametrize("value", [b"", b"not a date", b"32 Jan 2026 00:00:00", b"Mon, 01 Foo 2026 00:00:00 +0000",
                                   b"01 Jan 2026 25:00:00", b"01 Jan 2026 10:00:00 +zz00"])
def test_bad_dates_are_none(value):
    assert scan.date(value) is None


def test_lines_of_a_generated_corpus(tmp_path):
    out = tmp_path / "c"
    generate(Options(out=out, seed=3, groups=2, lines=20_000, days=1, range_articles=10_000,
                     chunk_articles=5_000, bodies=False))
    c = Corpus(out)
    good = bad = 0
    for name in c.group_names():
        for chunk in c.chunks(name):
            text = scan.inflate(chunk.read())
            assert text == zlib.decompress(chunk.read())
            parsed, malformed = scan.scan_chunk(text)
            bad += sum(malformed.values())
            for line, p in zip((x for x in chunk.overview_lines() if not isinstance(scan.parse(x), str)), parsed):
                f = line.split(b"\t")
                assert p[0] == int(f[0]) and p[1] == f[1] and p[2] == f[2].strip()
                assert p[4] == f[4][1:-1] and p[5] == int(f[6])
                assert p[6] == b" ".join(f[8].split()[2:])
                expect = python_date(f[3].decode())
                if expect is not None and 0 <= expect:
                    assert p[3] == expect, f[3]
                good += 1
    assert good > 19_000 and bad > 0


@pytest.mark.parametrize("line,reason", [
    (b"123\tsubject only", "fields"),
    (b"abc\ts\tp\td\t<m@x>\t\t1\t1\tXref: h g:1", "number"),
    (b"1\ts\tp\td\tm@x\t\t1\t1\tXref: h g:1", "msgid"),
    (b"1\ts\tp\td\t<m@x>\t\tmany\t1\tXref: h g:1", "bytes"),
    (b"1\t" + b"x" * 1_000_000 + b"\tp\td\t<m@x>\t\t1\t1\tXref: h g:1", "long"),
])
def test_malformed_lines_name_their_reason(line, reason):
    assert scan.parse(line) == reason


def test_a_line_without_xref_still_parses():
    assert scan.parse(b"7\ts (1/1)\tp\t01 Jan 2026 00:00:00 GMT\t<m@x>\t\t10\t1")[6] == b""


def test_fields_after_xref_are_not_part_of_it():
    """INN's extraoverviewadvertised: `Xref:full` then `Newsgroups:full`, ... (an
    empty one too) in LIST OVERVIEW.FMT's order."""
    base = b"7\ts (1/1)\tp\t01 Jan 2026 00:00:00 GMT\t<m@x>\t\t10\t1\tXref: h a.b:7"
    assert scan.parse(base + b"\tNewsgroups: a.b\t\tPath: x!y")[6] == b"a.b:7"
    assert scan.parse(base + b" c.d:9\tNewsgroups: a.b,c.d")[6] == b"a.b:7 c.d:9"
    assert scan.parse(base + b"\t")[6] == b"a.b:7"


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_never_crash_the_scanner(data):
    result = scan.parse(data)
    assert isinstance(result, (str, tuple))
    parsed, malformed = scan.scan_chunk(data)
    assert len(parsed) + sum(malformed.values()) <= data.count(b"\n") + 1


def test_corrupt_and_cut_short_chunks_raise_a_clear_error():
    good = zlib.compress(b"1\ts\tp\td\t<m@x>\t\t1\t1\tXref: h g:1\r\n" * 1000)
    assert scan.inflate(good).count(b"\r\n") == 1000
    with pytest.raises(zlib.error):
        scan.inflate(good[: len(good) // 2])
    with pytest.raises(zlib.error):
        scan.inflate(b"\x78\x9c" + b"garbage" * 10)
