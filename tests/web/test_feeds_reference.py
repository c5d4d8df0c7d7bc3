"""web/feeds.py's rss() and rss_json() write byte for byte what the
implementation they replaced wrote (tests/feeds_reference.py), over
generated pages: hostile names, posters and groups (markup, controls,
non-ASCII, lone surrogates, U+FFFE), missing and zoned dates, every category
(and unknown ones), every subset of attributes, descriptions, limits and sites
with markup. No database: these run in a moment."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.feeds import deployed_categories, realistic_rows
from tests import feeds_reference as ref
from tests.wellformed import parse
from web import feeds
from web.feeds import ALL_ATTRS, Limits, Site

CATS = deployed_categories()
CATEGORY_IDS = sorted(CATS.names) + [9999, 5999, 1234]       # the tree, and ids it does not know

MARKUP = ['<zq"\'&>', "&amp;", "]]>", "<![CDATA[x]]>", "<!--", "\x00", "\x0b\x0c", "\x1f", "\t\r\n", "\ud800",
          "\udfff", "\ud83d\ude00", "\ufffe", "\uffff", "\ufffd", "\u202e", "\ufeff", "ünï©ødé", "😀", "'", '"']
REALISTIC = ["Show.Name.S03E07.1080p.WEB.x264-GRP", "Artist - Album (2004) [FLAC]", "Show 3x07 720p",
             "Daily.Show.2024.03.07.1080p", "Series.S02.2160p.UHD", "Movie.2019.4k.BluRay", "[01/34] - \"a.rar\" yEnc",
             "John <j@x.com>", "alt.binaries.teevee", "", " ", "S01E01", "s1e2 & <b>", "A.B.S03E07.576p-x'y"]
any_char = st.characters(codec=None)                                       # surrogates included
surrogate = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
hostile = st.one_of(
    st.sampled_from(REALISTIC + MARKUP),
    st.text(any_char, max_size=30),
    st.lists(st.one_of(any_char, surrogate, st.sampled_from(MARKUP)), max_size=12).map("".join),
    st.lists(st.sampled_from(REALISTIC + MARKUP), min_size=2, max_size=4).map("".join),
)
ZONES = [timezone.utc, ZoneInfo("UTC"), ZoneInfo("Europe/London"), ZoneInfo("America/Los_Angeles"),
         ZoneInfo("Asia/Kolkata"), timezone(timedelta(hours=-9, minutes=-30)), timezone(timedelta(hours=14))]
dates = st.one_of(
    st.none(),
    st.datetimes(min_value=datetime(1000, 1, 2), max_value=datetime(9998, 12, 30), timezones=st.sampled_from(ZONES)),
    st.datetimes(min_value=datetime(1969, 12, 30), max_value=datetime(2040, 1, 1)),              # naive: local time
)
rows = st.fixed_dictionaries({
    "id": st.integers(1, 2**62), "release_key": st.binary(min_size=20, max_size=20), "name": hostile,
    "posted_at": dates, "last_posted_at": dates, "bytes": st.integers(0, 2**63 - 1),
    "files": st.integers(0, 2**31 - 1), "segments": st.integers(0, 2**40),
    "file_total": st.none() | st.integers(0, 999),
    "category": st.sampled_from(CATEGORY_IDS), "complete": st.booleans(), "has_par2": st.booleans(),
    "group_name": hostile, "poster": hostile, "grabs": st.integers(0, 2**31 - 1), "password": st.integers(0, 2),
    "verdict": st.none() | st.sampled_from(["ok", "hidden"]),
})
wanted = st.one_of(st.none(), st.just(frozenset({"category", "size"})),
                   st.frozensets(st.sampled_from(ALL_ATTRS + ("Size", "nonsense", ""))))
sites = st.builds(Site, base=st.sampled_from(["http://127.0.0.1:8080", 'http://h<&>"\'x:80', "https://ünï.example"]),
                  title=hostile, apikey=st.one_of(st.none(), st.just(""), st.just("\x00KEY\x00"), hostile))
limits = st.one_of(st.none(), st.builds(Limits, st.integers(0, 99), st.none() | st.integers(0, 99),
                                        st.integers(0, 99), st.none() | st.integers(0, 99)))
documents = st.fixed_dictionaries({
    "rows": st.lists(rows, max_size=8), "site": sites, "cats": st.just(CATS), "wanted": wanted,
    "total": st.integers(0, 10**9), "offset": st.integers(0, 10**6), "limits": limits,
    "description": st.none() | hostile, "limits_mark": st.sampled_from([None, "\x00LIMITS\x00"]),
})


def _well_formed(kw: dict) -> bool:
    """No marker with a NUL in the document (the API replaces them before it serves one)."""
    return kw["limits_mark"] is None and "\x00" not in (kw["site"].apikey or "")


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(kw=documents)
def test_rss_is_the_reference_byte_for_byte(kw):
    expected = ref.rss(**kw)
    assert feeds.rss(**kw) == expected
    assert feeds.rss(**kw) == expected                # again, from the caches
    if _well_formed(kw):
        parse(expected)


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(kw=documents)
def test_rss_json_is_the_reference_byte_for_byte(kw):
    expected = ref.rss_json(**kw)
    assert feeds.rss_json(**kw) == expected
    assert feeds.rss_json(**kw) == expected


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(kw=documents)
def test_from_empty_caches(kw):
    """Whatever the caches held before (other categories' parts, names seen under other wanted sets)."""
    feeds.clear_caches(CATS)
    assert feeds.rss(**kw) == ref.rss(**kw)
    feeds.clear_caches(CATS)
    assert feeds.rss_json(**kw) == ref.rss_json(**kw)


@settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(dt=dates)
def test_rfc822(dt):
    assert feeds.rfc822(dt) == ref.rfc822(dt)


def test_realistic_page():
    page = realistic_rows(100)
    site = Site(base="http://indexer.example:8080", title="Voyager", apikey="k")
    for w in (None, frozenset({"category", "size"}), frozenset(ALL_ATTRS)):
        kw = dict(rows=page, site=site, cats=CATS, total=1000, offset=0, wanted=w)
        assert feeds.rss(**kw) == ref.rss(**kw)
        assert feeds.rss_json(**kw) == ref.rss_json(**kw)


def test_site_urls_unchanged():
    for site in (Site("http://a:1", "t"), Site("http://a:1", "t", "key&<"), Site('h"<', "t", "")):
        assert site.nzb_url("ab12") == ref._nzb_url(site, "ab12")
        assert site.details_url("ab12") == ref._details_url(site, "ab12")
