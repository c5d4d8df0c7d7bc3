"""A fuzzing pass (hypothesis) over the API's parameters and the search page's:
no 500 and no unknown error (900), every XML document well formed, and a
marker with markup characters never comes back unescaped; the catalog is the
same after."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from urllib.parse import quote, urlencode

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.util import call, login_form, sign_in

pytestmark = pytest.mark.slow

MARK = '<zq"\'&>'
FUNCTIONS = ["caps", "search", "tvsearch", "movie", "music", "book", "details", "getnfo", "get", "register",
             "cartadd", "user", "", "SEARCH", "tv-search"]
NAMES = ["q", "cat", "limit", "offset", "maxage", "minsize", "maxsize", "group", "poster", "extended", "attrs",
         "del", "season", "ep", "tvdbid", "tvmazeid", "rid", "imdbid", "tmdbid", "traktid", "id", "guid", "o",
         "artist", "album", "track", "year", "author", "title", "judged", "raw", "genre", "apikey", "t"]
INTERESTING = ["", "0", "1", "-1", "00", "S01", "E02", "2024", "03/07", "13/45", "tt0111161", "tt", "9" * 30,
               "1e3", "5000,5040", "5000,,x", "%", "_", "\\", "'", "''; DROP TABLE voyager.releases; --",
               "a.b.teevee", "alt.binaries.*", "json", "xml", "harbor", "silent harbor -s01e02", "ünï©ødé",
               "\u202e", "\ufeff", "f" * 40, "0" * 40, MARK, "x" * 1200, "\t\n", "NaN", "inf", "1.5"]
# text no parameter may hold: NUL, controls, lone surrogates (sent as their
# UTF-8 bytes), non-characters
HOSTILE = ["\x00", "a\x00b", "\x1b[31m", "\ud800", "x\udfffy", "\ufffe", "\uffff", str(2**31 - 1), str(2**63)]
values = st.one_of(st.sampled_from(INTERESTING + HOSTILE), st.text(max_size=40),
                   st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=20),
                   st.text(alphabet=st.characters(categories=["Cc", "Cs", "Co"]), max_size=8),
                   st.integers(min_value=-10**20, max_value=10**20).map(str))


def qs(params: dict) -> str:
    return urlencode(params, encoding="utf-8", errors="surrogatepass")


@pytest.fixture(scope="module")
def fuzz_app(shared_dsn):
    from tests.web.conftest import make_app

    return make_app(shared_dsn, pool_size=1)


def _check_body(resp) -> None:
    assert resp.status < 500, (resp.status, resp.text[:500])
    ctype = resp.headers.get("content-type", "")
    if "xml" in ctype or "html" in ctype:
        assert "<zq" not in resp.text, "unescaped output"
    if "xml" in ctype:
        ET.fromstring(resp.content)                      # well formed


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(t=st.sampled_from(FUNCTIONS), params=st.dictionaries(st.sampled_from(NAMES), values, max_size=6),
       key=st.sampled_from(["alice", "root", "none", "bad"]), o=st.sampled_from(["", "xml", "json"]))
def test_the_api_never_fails_and_always_escapes(fuzz_app, keys, t, params, key, o):
    query = {"t": t}
    if key in keys:
        query["apikey"] = keys[key]
    elif key == "bad":
        query["apikey"] = MARK
    query.update(params)                                  # a drawn apikey or t too
    if o:
        query["o"] = o
    resp = call(fuzz_app, "/api?" + qs(query))
    _check_body(resp)
    assert resp.status == 200
    assert 'code="900"' not in resp.text and '"code": "900"' not in resp.text, (query, resp.text[:300])


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(raw=st.binary(max_size=60))
def test_raw_query_strings(fuzz_app, keys, raw):
    """Bytes that are no valid percent-encoding or UTF-8."""
    resp = call(fuzz_app, "/api?t=search&apikey=" + keys["alice"] + "&q=" + quote(raw, safe="%&=+"))
    _check_body(resp)


@pytest.fixture(scope="module")
def session(fuzz_app, keys):
    headers = sign_in(fuzz_app, "root", keys["root"])
    # signed in for real: a failed sign-in would make every page a 303, and pass
    assert call(fuzz_app, "/account", headers=headers).status == 200
    return headers


PAGE_FIELDS = ["q", "cat", "group", "minsize", "maxsize", "maxage", "complete", "passworded", "judged", "poster", "page"]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(path=st.sampled_from(["/search", "/", "/new", "/browse/category/5000", "/browse/group/a.b.teevee",
                             "/release/" + "0" * 40]),
       params=st.dictionaries(st.sampled_from(PAGE_FIELDS), values, max_size=5))
def test_the_pages_never_fail_and_always_escape(fuzz_app, session, path, params):
    resp = call(fuzz_app, path + "?" + qs(params), headers=session)
    _check_body(resp)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(fields=st.dictionaries(st.sampled_from(["name", "apikey", "next", "csrf"]), values, max_size=4))
def test_the_sign_in_form_never_fails(fuzz_app, fields):
    token, cookie = login_form(fuzz_app)
    resp = call(fuzz_app, "/login", "post", content=qs({"csrf": token, **fields}),
                headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
    _check_body(resp)
    assert resp.status in (400, 401, 403, 429), resp.status


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(segment=values)
def test_path_segments(fuzz_app, session, segment):
    for prefix in ("/release/", "/nzb/", "/browse/group/", "/browse/category/"):
        resp = call(fuzz_app, prefix + quote(segment, safe="", errors="surrogatepass"), headers=session)
        _check_body(resp)


def test_the_catalog_survived(shared_dsn, ids):
    with psycopg.connect(shared_dsn) as conn:
        assert conn.execute("SELECT count(*) FROM voyager.releases").fetchone()[0] == len(ids)
