"""The Newznab API against a catalog stored through the window and store_batch:
functions and errors, keys and quotas, every search parameter, the RSS and
JSON documents, details, getnfo and get."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import psycopg
import pytest

from tests.web.catalog import INCOMPLETE, RELEASES
from tests.web.util import api, error_code, feed

HARBOR = [n for n, *_ in RELEASES if n.startswith("Silent.Harbor")]
RELEASES_BY_NAME = {n: files for n, files, *_ in RELEASES}
RFC822 = re.compile(r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
                    r"\d{4} \d\d:\d\d:\d\d [+-]\d{4}$")


def search(app, key, **params):
    return feed(api(app, apikey=key, **params))


# -- functions, keys ----------------------------------------------------------------

def test_caps_needs_no_key_and_lists_the_category_tree(shared_app, shared_dsn):
    resp = api(shared_app, t="caps")
    assert resp.status == 200 and "xml" in resp.headers["content-type"]
    root = ET.fromstring(resp.text)
    assert root.tag == "caps"
    lim = root.find("limits")
    assert int(lim.get("max")) == 100 and int(lim.get("default")) == 100
    searching = {e.tag: e.attrib for e in root.find("searching")}
    assert {"search", "tv-search", "movie-search", "music-search", "book-search"} <= set(searching)
    assert all(a["available"] == "yes" for a in searching.values())
    assert searching["tv-search"]["supportedParams"] == "q,season,ep"      # no IDs known: clients search by name
    listed = {int(c.get("id")) for c in root.iter("category")} | {int(c.get("id")) for c in root.iter("subcat")}
    with psycopg.connect(shared_dsn) as conn:
        assert listed == {i for (i,) in conn.execute("SELECT id FROM voyager.categories")}
    js = json.loads(api(shared_app, t="caps", o="json").text)
    assert js["limits"]["@attributes"] == {"max": "100", "default": "100"}
    assert {c["@attributes"]["id"] for c in js["categories"]["category"]} == {str(i) for i in range(1000, 9000, 1000)}


@pytest.mark.parametrize("params,code", [
    ({}, 200),                                     # no function
    ({"t": "frobnicate"}, 202),
    ({"t": "register"}, 203), ({"t": "cartadd"}, 203), ({"t": "comments"}, 203), ({"t": "user"}, 203),
    ({"t": "search"}, 100),                        # no key
    ({"t": "search", "apikey": "0" * 32}, 100),
    ({"t": "get", "id": "0" * 40}, 100),
    ({"t": "details", "id": "0" * 40}, 100),
])
def test_functions_and_keys(shared_app, params, code):
    assert error_code(api(shared_app, **params)) == code


def test_a_suspended_account(shared_app, keys, ids):
    assert error_code(api(shared_app, t="search", apikey=keys["mallory"])) == 101
    assert error_code(api(shared_app, t="get", id="0" * 40, apikey=keys["mallory"])) == 101


def test_errors_in_json(shared_app, keys):
    body = json.loads(api(shared_app, t="search", apikey="nope", o="json").text)
    assert body == {"error": {"@attributes": {"code": "100", "description": "Incorrect user credentials"}}}


@pytest.mark.parametrize("params", [
    {"limit": "ten"}, {"limit": "-1"}, {"offset": "-5"}, {"offset": "1e3"}, {"cat": "50x0"}, {"maxage": "old"},
    {"minsize": "big"}, {"o": "html"}, {"extended": "maybe"}, {"t": "tvsearch", "season": "first"},
    {"t": "tvsearch", "season": "1", "ep": "x7"}, {"t": "tvsearch", "ep": "3"}, {"t": "tvsearch", "tvdbid": "abc"},
    {"t": "movie", "imdbid": "nm123"}, {"group": "bad group!"},
])
def test_incorrect_parameters_are_201(shared_app, keys, params):
    params = {"t": "search", **params}
    assert error_code(api(shared_app, apikey=keys["alice"], **params)) == 201


# -- searching ---------------------------------------------------------------------

def test_a_word_finds_its_releases_newest_first_with_an_exact_total(shared_app, keys):
    f = search(shared_app, keys["alice"], t="search", q="harbor")
    assert f.total == len(HARBOR) == len(f.items)
    assert sorted(f.titles) == sorted(HARBOR)
    dates = [i["attrs"]["usenetdate"] for i in search(shared_app, keys["alice"], t="search", q="harbor",
                                                      extended="1").items]
    from email.utils import parsedate_to_datetime
    stamps = [parsedate_to_datetime(d[0]) for d in dates]
    assert stamps == sorted(stamps, reverse=True)
    assert search(shared_app, keys["alice"], t="search", q="HARBOR s01e02").titles == [HARBOR[0]]
    assert search(shared_app, keys["alice"], t="search", q="silent harbor -s01e02 -special").total == 3
    assert search(shared_app, keys["alice"], t="search", q="crème").titles == ["Café.Crème.Ünïcode.S01E01.1080p-GRP"]
    assert search(shared_app, keys["alice"], t="search", q="no-such-words-anywhere").total == 0


def test_an_empty_q_lists_the_newest_in_the_categories(shared_app, keys):
    everything = search(shared_app, keys["alice"], t="search")
    assert everything.total == len(RELEASES) and len(everything.items) == len(RELEASES)
    tv = search(shared_app, keys["alice"], t="search", cat="5000")         # a parent: its subcategories too
    assert tv.total == sum(1 for _n, _f, c, _x in RELEASES if c and c // 1000 == 5)
    sd = search(shared_app, keys["alice"], t="search", cat="5030")
    assert sorted(sd.titles) == sorted(n for n, _f, c, _x in RELEASES if c == 5030)
    both = search(shared_app, keys["alice"], t="search", cat="5030,2040")   # OR
    assert both.total == sd.total + 1
    other = search(shared_app, keys["alice"], t="search", cat="8000")     # not yet categorised: Other > Misc
    assert [i["attrs"]["category"] for i in other.items] == [["8000", "8010"]]
    assert search(shared_app, keys["alice"], t="tvsearch").total == tv.total     # tvsearch defaults to TV
    assert search(shared_app, keys["alice"], t="movie").titles == ["Crimson.River.2019.1080p.BluRay.x264-GRP"]


def test_limit_offset_and_totals(shared_app, keys):
    n = len(RELEASES)
    page = search(shared_app, keys["alice"], t="search", limit="5")
    assert page.total == n and len(page.items) == 5
    rest = search(shared_app, keys["alice"], t="search", limit="5", offset="5")
    assert rest.offset == 5 and not set(page.titles) & set(rest.titles)
    tail = search(shared_app, keys["alice"], t="search", limit="100", offset=str(n - 2))
    assert len(tail.items) == 2 and tail.total == n
    past = search(shared_app, keys["alice"], t="search", offset=str(n + 10))
    assert past.items == [] and past.total == n
    assert len(search(shared_app, keys["alice"], t="search", limit="1000").items) == n   # clamped to caps' max
    assert search(shared_app, keys["alice"], t="search", limit="0").items == []


def test_filters(shared_app, keys, shared_dsn):
    k = keys["alice"]
    assert search(shared_app, k, t="search", maxage="36500").total == len(RELEASES)
    assert search(shared_app, k, t="search", maxage="1").total == 0             # the catalog is months old
    with psycopg.connect(shared_dsn) as conn:
        sizes = dict(conn.execute("SELECT name, bytes FROM voyager.releases").fetchall())
    big = sizes["Crimson.River.2019.1080p.BluRay.x264-GRP"]
    assert search(shared_app, k, t="search", minsize=str(big)).titles == ["Crimson.River.2019.1080p.BluRay.x264-GRP"]
    assert search(shared_app, k, t="search", maxsize=str(big - 1)).total == len(RELEASES) - 1
    cross = search(shared_app, k, t="search", group="a.b.teevee")               # crossposts count
    assert sorted(cross.titles) == sorted(n for n, _f, _c, x in RELEASES if x)
    assert search(shared_app, k, t="search", group="alt.binaries.nothing").total == 0
    assert search(shared_app, k, t="search", poster="movieman").titles == ["Crimson.River.2019.1080p.BluRay.x264-GRP"]


@pytest.mark.parametrize("params,expect", [
    ({"season": "1", "ep": "2"}, ["Silent.Harbor.S01E02.1080p.WEB.h264-GRP"]),
    ({"season": "S01", "ep": "E03"}, ["Silent.Harbor.S01E03.720p.HDTV.x264-GRP"]),
    ({"season": "1"}, ["Silent.Harbor.S01E02.1080p.WEB.h264-GRP", "Silent.Harbor.S01E03.720p.HDTV.x264-GRP"]),
    ({"season": "3", "ep": "7"}, ["Silent.Harbor.3x07.720p.HDTV-GRP"]),
    ({"season": "00"}, ["Silent.Harbor.S00E05.Special.1080p.WEB-GRP"]),
    ({"season": "0", "ep": "5"}, ["Silent.Harbor.S00E05.Special.1080p.WEB-GRP"]),
    ({"season": "1", "ep": "20"}, []),
])
def test_tvsearch_seasons_and_episodes(shared_app, keys, params, expect):
    f = search(shared_app, keys["alice"], t="tvsearch", q="silent harbor", **params)
    assert sorted(f.titles) == sorted(expect) and f.total == len(expect)


def test_daily_shows_and_episodes_without_a_query(shared_app, keys):
    daily = search(shared_app, keys["alice"], t="tvsearch", season="2024", ep="03/07", extended="1")
    assert daily.titles == ["The.Daily.Show.2024.03.07.Guest.720p.WEB.h264-GRP"]
    assert daily.items[0]["attrs"]["season"] == ["2024"] and daily.items[0]["attrs"]["episode"] == ["03/07"]
    assert search(shared_app, keys["alice"], t="tvsearch", season="2024", ep="03/08").total == 0
    assert search(shared_app, keys["alice"], t="tvsearch", season="5", ep="5").titles == [INCOMPLETE]


def test_id_searches_are_empty_where_no_ids_are_known(shared_app, keys):
    for params in ({"t": "tvsearch", "tvdbid": "81189"}, {"t": "tvsearch", "tvmazeid": "169", "season": "1"},
                   {"t": "tvsearch", "rid": "18164"}, {"t": "movie", "imdbid": "tt0111161"},
                   {"t": "movie", "imdbid": "0111161"}, {"t": "movie", "tmdbid": "278"},
                   {"t": "tvsearch", "traktid": "1388", "q": "harbor"}):
        f = search(shared_app, keys["alice"], **params)
        assert f.total == 0 and f.items == [], params


def test_known_ids_are_searched_and_listed_in_caps(app, keys, ids, web_dsn):
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO voyager.release_media_ids (kind, value, release_id) VALUES ('tvdb', '4242', %s), "
                     "('imdb', '111161', %s)", (ids[HARBOR[0]], ids["Crimson.River.2019.1080p.BluRay.x264-GRP"]))
    assert search(app, keys["alice"], t="tvsearch", tvdbid="4242").titles == [HARBOR[0]]
    assert search(app, keys["alice"], t="movie", imdbid="tt0111161").total == 1
    caps = ET.fromstring(api(app, t="caps").text)
    assert "tvdbid" in caps.find("searching/tv-search").get("supportedParams")
    # its one release judged: the ID finds nothing, caps offers it no more
    from tests.web.catalog import judge_fake

    with psycopg.connect(web_dsn, autocommit=True) as conn:
        judge_fake(conn, ids[HARBOR[0]])
    assert search(app, keys["alice"], t="tvsearch", tvdbid="4242").total == 0
    caps = ET.fromstring(api(app, t="caps").text)
    assert "tvdbid" not in caps.find("searching/tv-search").get("supportedParams")
    assert "imdbid" in caps.find("searching/movie-search").get("supportedParams")


# -- the documents ------------------------------------------------------------------

def test_every_item_carries_what_clients_read(shared_app, keys, ids):
    f = search(shared_app, keys["alice"], t="search", extended="1")
    caps = ET.fromstring(api(shared_app, t="caps").text)
    listed = {c.get("id") for c in caps.iter("category")} | {c.get("id") for c in caps.iter("subcat")}
    for it in f.items:
        assert it["children"][:8] == ["title", "guid", "link", "comments", "pubDate", "category", "description",
                                      "enclosure"]
        assert RFC822.match(it["pubDate"]), it["pubDate"]
        assert it["enclosure"]["type"] == "application/x-nzb" and int(it["enclosure"]["length"]) > 0
        assert it["enclosure"]["url"] == it["link"] and "t=get" in it["link"] and keys["alice"] in it["link"]
        a = it["attrs"]
        for name in ("size", "files", "poster", "group", "grabs", "usenetdate", "password", "comments", "category"):
            assert name in a, (it["title"], name)
        assert len(a["category"]) == 2 and set(a["category"]) <= listed
        assert a["password"] == ["0"] and RFC822.match(a["usenetdate"][0])
    s01e02 = next(i for i in f.items if i["title"] == HARBOR[0])["attrs"]
    assert (s01e02["season"], s01e02["episode"], s01e02["tvtitle"], s01e02["resolution"]) == \
        (["S01"], ["E02"], ["Silent Harbor"], ["1080p"])
    assert next(i for i in f.items if i["title"].startswith("Crimson"))["attrs"]["year"] == ["2019"]
    plain = search(shared_app, keys["alice"], t="search", q="harbor").items[0]["attrs"]
    assert set(plain) == {"category", "size"}                                # not extended
    some = search(shared_app, keys["alice"], t="search", q="harbor", attrs="poster,grabs").items[0]["attrs"]
    assert set(some) == {"category", "size", "poster", "grabs"}


def test_names_are_escaped_and_the_apilimits_count(shared_app, keys):
    resp = api(shared_app, t="search", apikey=keys["root"], q="evil")
    assert "<script>" not in resp.text and "&lt;script&gt;" in resp.text
    f = feed(resp)
    assert f.titles == ['Evil<script>alert(1)</script>&"Quotes"\'Apos']
    assert set(f.limits) >= {"apicurrent", "grabcurrent"} and "apimax" not in f.limits     # admin: no quota
    a = search(shared_app, keys["alice"], t="search", q="evil").limits
    b = search(shared_app, keys["alice"], t="search", q="evil").limits
    assert int(b["apicurrent"]) == int(a["apicurrent"]) + 1 and a["apimax"] == "1000" and a["grabmax"] == "100"


def test_json_is_the_same_content(shared_app, keys):
    x = search(shared_app, keys["alice"], t="search", q="harbor", extended="1")
    resp = api(shared_app, t="search", q="harbor", extended="1", apikey=keys["alice"], o="json")
    assert resp.headers["content-type"].startswith("application/json")
    j = json.loads(resp.text)["channel"]
    assert j["response"]["@attributes"] == {"offset": "0", "total": str(x.total)}
    assert [i["title"] for i in j["item"]] == x.titles
    for ji, xi in zip(j["item"], x.items):
        attrs: dict = {}
        for a in ji["attr"]:
            attrs.setdefault(a["@attributes"]["name"], []).append(a["@attributes"]["value"])
        assert attrs == xi["attrs"]
        assert ji["enclosure"]["@attributes"]["url"] == xi["enclosure"]["url"]
        assert (ji["guid"], ji["link"], ji["pubDate"], ji["category"]) == (xi["guid"], xi["link"], xi["pubDate"],
                                                                          xi["category"])
    assert j["apilimits"]["@attributes"]["apimax"] == "1000"


def test_details_by_id_or_guid_and_getnfo(app, keys, ids, web_dsn):
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        guid = conn.execute("SELECT encode(release_key, 'hex') FROM voyager.releases WHERE id = %s",
                            (ids[HARBOR[0]],)).fetchone()[0]
    for params in ({"id": guid}, {"guid": guid}, {"id": guid.upper()}, {"id": str(ids[HARBOR[0]])}):
        f = search(app, keys["alice"], t="details", **params)
        assert f.titles == [HARBOR[0]] and "files" in f.items[0]["attrs"]
    assert error_code(api(app, t="details", id="f" * 40, apikey=keys["alice"])) == 300
    assert error_code(api(app, t="details", apikey=keys["alice"])) == 200
    assert error_code(api(app, t="getnfo", id=guid, apikey=keys["alice"])) == 300     # no NFO read yet
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO voyager.release_nfos (release_id, message_id, text) VALUES (%s, 'n@x', %s)",
                     (ids[HARBOR[0]], "GRP presents <Silent Harbor> & more"))
    nfo = search(app, keys["alice"], t="getnfo", id=guid)
    assert nfo.items[0]["description"] == "GRP presents <Silent Harbor> & more"
    raw = api(app, t="getnfo", id=guid, raw="1", apikey=keys["alice"])
    assert raw.text == "GRP presents <Silent Harbor> & more" and raw.headers["content-type"].startswith("text/plain")


# -- get, grabs, quotas ----------------------------------------------------------------

def test_get_serves_the_nzb_with_its_headers_and_counts_the_grab(app, keys, ids, web_dsn):
    import nzb as nzb_pkg

    name = "Crimson.River.2019.1080p.BluRay.x264-GRP"
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        guid = conn.execute("SELECT encode(release_key, 'hex') FROM voyager.releases WHERE id = %s",
                            (ids[name],)).fetchone()[0]
        expected = conn.execute("SELECT voyager.nzb(%s)", (ids[name],)).fetchone()[0]
    resp = api(app, t="get", id=guid, apikey=keys["alice"])
    assert resp.status == 200 and resp.headers["content-type"] == "application/x-nzb"
    assert resp.headers["content-disposition"].startswith(f'attachment; filename="{name}.nzb"')
    assert resp.headers["x-dnzb-name"] == name and resp.headers["x-dnzb-category"] == "Movies > HD"
    assert "x-dnzb-password" not in resp.headers
    assert resp.text == expected                                  # the bytes voyager.nzb() makes
    parsed = nzb_pkg.Nzb.from_str(resp.text)
    assert len(parsed.files) == 3 and parsed.meta.category == "Movies > HD"
    grabs = search(app, keys["alice"], t="details", id=guid).items[0]["attrs"]["grabs"]
    assert grabs == ["1"]
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO voyager.release_passwords (release_id, status, password) VALUES (%s, 1, 's3cr&t')",
                     (ids[name],))
        expected = conn.execute(
            """SELECT voyager.nzb_from_chunk(c.chunk, r.name, p.poster, extract(epoch FROM r.posted_at)::bigint,
                                             gs.groups, 'Movies > HD', 's3cr&t')
                 FROM voyager.releases r JOIN voyager.posters p ON p.id = r.poster_id
                 JOIN voyager.group_sets gs ON gs.id = r.group_set_id
                 JOIN voyager.release_chunks c ON c.release_id = r.id WHERE r.id = %s""", (ids[name],)).fetchone()[0]
    resp = api(app, t="get", id=guid, apikey=keys["alice"])
    assert resp.headers["x-dnzb-password"] == "s3cr&t" and resp.text == expected
    assert nzb_pkg.Nzb.from_str(resp.text).meta.passwords == ("s3cr&t",)
    f = search(app, keys["alice"], t="details", id=guid)
    assert f.items[0]["attrs"]["password"] == ["1"] and f.items[0]["attrs"]["grabs"] == ["2"]
    assert error_code(api(app, t="get", id="e" * 40, apikey=keys["alice"])) == 300
    assert error_code(api(app, t="get", apikey=keys["alice"])) == 200


def test_a_merged_release_answers_with_its_survivor(app, keys, ids, web_dsn):
    """A release merged into another leaves search; its guid's details and NZB
    are the survivor's, whose NZB holds the files of both."""
    import nzb as nzb_pkg

    survivor, merged = ids["Crimson.River.2019.1080p.BluRay.x264-GRP"], ids["Jane.Austen-Paper.Moon.1999.EPUB"]
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        conn.execute("UPDATE voyager.releases SET settled_at = coalesce(settled_at, now())")
        conn.execute("SELECT voyager.merge_releases(%s, %s, %s, %s)", ([survivor], [merged], ["sidecar"], [None]))
        guids = dict(conn.execute("SELECT id, encode(release_key, 'hex') FROM voyager.releases WHERE id = ANY (%s)",
                                  ([survivor, merged],)).fetchall())
        expected = conn.execute("SELECT voyager.nzb(%s)", (survivor,)).fetchone()[0]
    assert search(app, keys["alice"], t="search", q="austen").titles == ["Crimson.River.2019.1080p.BluRay.x264-GRP"]
    for params in ({"id": guids[merged]}, {"guid": guids[merged]}, {"id": str(merged)}):
        f = search(app, keys["alice"], t="details", **params)
        assert f.titles == ["Crimson.River.2019.1080p.BluRay.x264-GRP"]
        assert f.items[0]["attrs"]["files"] == ["4"]
    resp = api(app, t="get", id=guids[merged], apikey=keys["alice"])
    assert resp.status == 200 and resp.text == expected
    assert sorted(f.name for f in nzb_pkg.Nzb.from_str(resp.text).files) == sorted(
        [n for n, _ in RELEASES_BY_NAME["Crimson.River.2019.1080p.BluRay.x264-GRP"]]
        + [n for n, _ in RELEASES_BY_NAME["Jane.Austen-Paper.Moon.1999.EPUB"]])


def test_quotas_per_day(app, keys, ids, web_dsn):
    k = keys["tiny"]                                       # 3 requests, 1 download a day
    limits = [search(app, k, t="search").limits for _ in range(3)]
    assert [lim["apicurrent"] for lim in limits] == ["1", "2", "3"] and limits[0]["apimax"] == "3"
    assert error_code(api(app, t="search", apikey=k)) == 500
    assert error_code(api(app, t="caps", apikey=k)) is None            # caps is free
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        guid = conn.execute("SELECT encode(release_key, 'hex') FROM voyager.releases WHERE id = %s",
                            (ids[HARBOR[0]],)).fetchone()[0]
    assert api(app, t="get", id=guid, apikey=k).headers["content-type"] == "application/x-nzb"
    assert error_code(api(app, t="get", id=guid, apikey=k)) == 501
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        assert conn.execute("SELECT requests, downloads FROM voyager.user_days d JOIN voyager.users u ON u.id = d.user_id "
                            "WHERE u.name = 'tiny'").fetchone() == (3, 1)
        assert conn.execute("SELECT grabs FROM voyager.release_grabs WHERE release_id = %s",
                            (ids[HARBOR[0]],)).fetchone() == (1,)


def test_judged_releases_are_hidden_unless_asked_for_and_totals_follow(app, keys, ids, web_dsn):
    k = keys["alice"]
    before = search(app, k, t="search", q="harbor")
    assert before.total == len(HARBOR)
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO voyager.release_judgements (release_id, hidden, verdict) VALUES (%s, true, 'fake')",
                     (ids[HARBOR[0]],))
    after = search(app, k, t="search", q="harbor")              # the cached total does not outlive the change
    assert after.total == len(HARBOR) - 1 and HARBOR[0] not in after.titles
    assert error_code(api(app, t="search", q="harbor", judged="1", apikey=k)) == 201     # an admin's
    assert search(app, keys["root"], t="search", q="harbor", judged="1").total == len(HARBOR)
    assert search(app, k, t="search").total == len(RELEASES) - 1


# every search function's way to a total: words alone, categories alone, an episode, filters, JSON
JUDGED_ASKS = [dict(t="search", q="harbor"), dict(t="search"), dict(t="search", cat="5000"),
               dict(t="search", q="harb"), dict(t="search", q="harbor", minsize="1"),
               dict(t="search", group="alt.binaries.teevee"), dict(t="tvsearch"), dict(t="tvsearch", q="silent harbor"),
               dict(t="tvsearch", q="silent harbor", season="1", ep="2"), dict(t="search", q="harbor", o="json")]


def _total(app, key, **params) -> tuple[int, list[str]]:
    if params.get("o") == "json":
        channel = json.loads(api(app, apikey=key, **params).text)["channel"]
        items = channel.get("item", [])
        return int(channel["response"]["@attributes"]["total"]), [i["title"] for i in items]
    f = search(app, key, **params)
    return f.total, f.titles


def test_the_judges_verdict_leaves_every_search_and_its_total_unless_an_admin_asks(app, keys, ids, web_dsn):
    from tests.web.catalog import FAKE, judge_fake

    k, admin = keys["alice"], keys["root"]
    before = {i: _total(app, k, **ask) for i, ask in enumerate(JUDGED_ASKS)}
    assert all(FAKE in titles for _t, titles in before.values())
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        judge_fake(conn, ids[FAKE])
    for i, ask in enumerate(JUDGED_ASKS):
        total, titles = _total(app, k, **ask)
        assert total == before[i][0] - 1 and FAKE not in titles, ask
        assert error_code(api(app, apikey=k, judged="1", **{**ask, "o": "xml"})) == 201
        assert _total(app, admin, judged="1", **ask) == before[i], ask
    assert search(app, k, t="details", id=_guid(web_dsn, ids[FAKE])).titles == [FAKE]     # a link from before


def test_a_verdict_taken_back_returns_the_release_to_search_with_its_total(app, keys, ids, web_dsn):
    """Locked (passworded, no password known), then a password from an NZB's
    meta: the judge job takes the verdict back, the totals are as before."""
    name, k = "Crimson.River.2019.1080p.BluRay.x264-GRP", keys["alice"]
    asks = [dict(t="movie"), dict(t="search", q="crimson"), dict(t="search"), dict(t="search", cat="2000")]
    before = [search(app, k, **ask).total for ask in asks]
    assert before[:2] == [1, 1]
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO voyager.release_passwords (release_id, status, password, source) "
                     "VALUES (%s, 1, NULL, 'archive')", (ids[name],))
        conn.execute("SELECT voyager.judge_dirty()")
        assert conn.execute("SELECT verdict FROM voyager.release_judgements WHERE release_id = %s",
                            (ids[name],)).fetchone() == ("locked",)
    assert [search(app, k, **ask).total for ask in asks] == [n - 1 for n in before]
    assert name not in search(app, k, t="movie").titles
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        assert conn.execute("SELECT voyager.add_release_password(%s, 'open-sesame', 'nzb')", (ids[name],)).fetchone()[0]
        assert conn.execute("SELECT voyager.judge_dirty()").fetchone()[0]["taken_back"] == 1
    assert [search(app, k, **ask).total for ask in asks] == before
    assert search(app, k, t="movie").titles == [name]
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        assert conn.execute("SELECT * FROM voyager.check_search_counts()").fetchall() == []


def _guid(dsn: str, release_id: int) -> str:
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT encode(release_key, 'hex') FROM voyager.releases WHERE id = %s",
                            (release_id,)).fetchone()[0]


def test_cached_totals_follow_new_releases(keys, ids, web_dsn):
    from tests.web.conftest import make_app

    app = make_app(web_dsn)
    k = keys["alice"]
    tv = sum(1 for _n, _f, c, _x in RELEASES if c and c // 1000 == 5)
    assert search(app, k, t="search", cat="5000").total == tv
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        conn.execute("UPDATE voyager.releases SET category = 5040 WHERE name LIKE 'Windows%'")
    assert search(app, k, t="search", cat="5000").total == tv + 1
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        folded = conn.execute("SELECT voyager.compact_catalog_changes()").fetchone()[0]
        assert folded >= 2 and conn.execute("SELECT count(*) FROM voyager.catalog_changes").fetchone()[0] == 1
    assert search(app, k, t="search", cat="5000").total == tv + 1


def test_costly_totals_are_shared_between_processes_and_follow_the_catalog(keys, ids, web_dsn, monkeypatch):
    from tests.web.conftest import make_app
    from web import search as search_mod

    monkeypatch.setattr(search_mod, "PROBE", 1)           # every word counts as common
    # (words and a size: a total counted from the rows, not read from voyager.search_count)
    first, second = make_app(web_dsn), make_app(web_dsn)    # two worker processes' caches
    assert search(first, keys["alice"], t="search", q="harbor", minsize="1").total == len(HARBOR)
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        state = conn.execute("SELECT voyager.catalog_state()").fetchone()[0]
        assert conn.execute("SELECT state FROM voyager.search_totals").fetchall() == [(state,)]
        conn.execute("UPDATE voyager.search_totals SET total = 999")          # what the second one reads
    assert search(second, keys["alice"], t="search", q="harbor", minsize="1").total == 999
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        conn.execute("DELETE FROM voyager.release_texts WHERE release_id = %s", (ids[HARBOR[-1]],))
        conn.execute("DELETE FROM voyager.releases WHERE id = %s", (ids[HARBOR[-1]],))   # as a retraction does
    assert search(second, keys["alice"], t="search", q="harbor", minsize="1").total == len(HARBOR) - 1
    assert search(first, keys["alice"], t="search", q="harbor", minsize="1").total == len(HARBOR) - 1


def test_q_matches_whole_words_and_a_part_of_one_when_no_word_matches(shared_app, keys):
    """`moon` is a word of Paper.Moon, not of Moonlit; `moonl` is no word at
    all, so it is looked for as a substring; the totals follow."""
    moon = search(shared_app, keys["alice"], t="search", q="moon")
    assert moon.titles == ["Jane.Austen-Paper.Moon.1999.EPUB"] and moon.total == 1
    part = search(shared_app, keys["alice"], t="search", q="moonl")
    assert part.titles == ["Aurora.Moonlit.Skies-Golden.Hour-2021-FLAC"] and part.total == 1
    harb = search(shared_app, keys["alice"], t="search", q="HARB s01e0")
    assert sorted(harb.titles) == sorted(HARBOR[:2]) and harb.total == 2
    assert search(shared_app, keys["alice"], t="search", q="zzyzx").total == 0


def test_a_word_search_pages_like_any_other(shared_app, keys):
    """The words-only statement: limit, offset, past the end, limit 0, JSON."""
    k = keys["alice"]
    n = len(HARBOR)
    first = search(shared_app, k, t="search", q="harbor", limit="2")
    rest = search(shared_app, k, t="search", q="harbor", limit="100", offset="2")
    assert first.total == rest.total == n and len(first.items) == 2 and len(rest.items) == n - 2
    assert sorted(first.titles + rest.titles) == sorted(HARBOR)
    past = search(shared_app, k, t="search", q="harbor", offset=str(n + 3))
    assert past.items == [] and past.total == n
    assert search(shared_app, k, t="search", q="harbor", limit="0").items == []
    j = json.loads(api(shared_app, t="search", q="harbor", apikey=k, o="json").text)["channel"]
    assert j["response"]["@attributes"] == {"offset": "0", "total": str(n)} and len(j["item"]) == n


def test_a_spots_password_rides_the_nzb_and_goes_with_a_dispose(app, keys, ids, web_dsn):
    """A spot linked to a release gives it the spot's password (its title's
    {{...}}): t=get carries it in X-DNZB-Password and the NZB's meta; a
    dispose of the spot takes it back out of both."""
    import nzb as nzb_pkg

    name = "Windows.11.2024.v2.0.x64-GRP"
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        guid = conn.execute("SELECT encode(release_key, 'hex') FROM voyager.releases WHERE id = %s",
                            (ids[name],)).fetchone()[0]
        conn.execute("""INSERT INTO voyager.spots (message_id, verified, trusted, title, posted_at, facts)
                        VALUES ('<w@spot>', true, true, 'Windows 11 2024 {{sp0t-pw}}', now(),
                                '{"password": {"value": "sp0t-pw", "source": "spot-title"}}')""")
        conn.execute("INSERT INTO voyager.spot_matches (spot_id, release_id, via) VALUES ('<w@spot>', %s, 'identity')",
                     (ids[name],))
        assert conn.execute("SELECT voyager.apply_spot_matches()").fetchone()[0] == 1
    resp = api(app, t="get", id=guid, apikey=keys["alice"])
    assert resp.status == 200 and resp.headers["x-dnzb-password"] == "sp0t-pw"
    assert nzb_pkg.Nzb.from_str(resp.text).meta.passwords == ("sp0t-pw",)
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        conn.execute("SELECT voyager.take_back_spots(ARRAY['<w@spot>'])")
    resp = api(app, t="get", id=guid, apikey=keys["alice"])
    assert resp.status == 200 and "x-dnzb-password" not in resp.headers
    assert not nzb_pkg.Nzb.from_str(resp.text).meta.passwords
