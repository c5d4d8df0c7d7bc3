"""The web pages through the ASGI client: nothing without a session, the
sign-in, search with its filters, browsing, a release's page, the NZB, the
account and the status page; every name escaped."""
from __future__ import annotations

import re
from urllib.parse import urlencode

import psycopg
import pytest

from tests.web.catalog import INCOMPLETE, RELEASES
from tests.web.util import call, post_login, sign_in

EVIL = 'Evil<script>alert(1)</script>&"Quotes"\'Apos'


@pytest.fixture(scope="module")
def alice(shared_app, keys):
    return sign_in(shared_app, "alice", keys["alice"])


def page(app, path: str, headers: dict, **params):
    resp = call(app, path + ("?" + urlencode(params) if params else ""), headers=headers)
    assert resp.status == 200, (path, resp.status, resp.text[:300])
    assert resp.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in resp.headers["content-security-policy"]
    assert "<script" not in resp.text                      # no JavaScript, and nothing injected
    return resp.text


def rows(html: str) -> list[str]:
    """The release names of a listing, unescaped."""
    import html as h

    return [h.unescape(re.sub(r"<[^>]+>", "", m)) for m in re.findall(r'<td class="name"><a href="/release/[0-9a-f]{40}[^"]*">(.*?)</a>', html)]


@pytest.mark.parametrize("path", ["/", "/search?q=harbor", "/new", "/browse", "/browse/category/5000",
                                  "/browse/group/a.b.teevee", "/release/" + "0" * 40, "/nzb/" + "0" * 40,
                                  "/account", "/status"])
def test_nothing_without_a_session(shared_app, path):
    resp = call(shared_app, path, headers={"Cookie": "voyager_session=forged"})
    assert resp.status == 303 and resp.headers["location"].startswith("/login?next=")
    assert "harbor" not in resp.text.lower()


def test_the_sign_in(shared_app, keys):
    assert call(shared_app, "/login").status == 200
    bad = post_login(shared_app, "alice", "0" * 32)
    assert bad.status == 401 and "voyager_session" not in bad.headers.get("set-cookie", "")
    assert post_login(shared_app, "mallory", keys["mallory"]).status == 401
    resp = post_login(shared_app, "alice", keys["alice"], next="//evil.example")
    assert resp.status == 303 and resp.headers["location"] == "/"           # no open redirect


def test_search_and_filters(shared_app, alice):
    html = page(shared_app, "/search", alice, q="harbor")
    assert sorted(rows(html)) == sorted(n for n, *_ in RELEASES if n.startswith("Silent.Harbor"))
    assert "<mark>Harbor</mark>" in html
    assert rows(page(shared_app, "/search", alice, q="harbor", cat="5030")) and \
        all("720p" in r for r in rows(page(shared_app, "/search", alice, q="harbor", cat="5030")))
    assert rows(page(shared_app, "/search", alice, complete="no")) == [INCOMPLETE]
    assert INCOMPLETE not in rows(page(shared_app, "/search", alice, complete="yes"))
    assert rows(page(shared_app, "/search", alice, group="a.b.teevee")) and \
        len(rows(page(shared_app, "/search", alice, group="a.b.teevee"))) == sum(1 for *_, x in RELEASES if x)
    assert rows(page(shared_app, "/search", alice, minsize="1000")) == []        # MB
    assert rows(page(shared_app, "/search", alice, maxage="1")) == []
    assert len(rows(page(shared_app, "/search", alice, passworded="no"))) == len(RELEASES)
    assert "minsize: not a number" in page(shared_app, "/search", alice, minsize="lots")


def test_listings_escape_names_and_queries(shared_app, alice):
    html = page(shared_app, "/search", alice, q='evil "><script>x</script>')
    assert rows(html) == [] and "&lt;script&gt;x&lt;/script&gt;" in html
    html = page(shared_app, "/new", alice)
    assert EVIL in rows(html) and "&lt;script&gt;alert(1)&lt;/script&gt;&amp;" in html


def test_browsing(shared_app, alice):
    html = page(shared_app, "/browse", alice)
    assert 'href="/browse/category/5000"' in html and 'href="/browse/group/alt.binaries.teevee"' in html
    tv = rows(page(shared_app, "/browse/category/5000", alice))
    assert len(tv) == sum(1 for _n, _f, c, _x in RELEASES if c and c // 1000 == 5)
    assert rows(page(shared_app, "/browse/category/8010", alice)) == [EVIL]
    assert len(rows(page(shared_app, "/browse/group/alt.binaries.teevee", alice))) == sum(1 for *_, x in RELEASES if x)
    assert call(shared_app, "/browse/category/1234", headers=alice).status == 404
    assert len(rows(page(shared_app, "/", alice))) == len(RELEASES)


def test_a_release_page(shared_app, alice, shared_dsn, ids):
    name = "Silent.Harbor.S01E02.1080p.WEB.h264-GRP"
    with psycopg.connect(shared_dsn) as conn:
        guid = conn.execute("SELECT encode(release_key, 'hex') FROM voyager.releases WHERE id = %s",
                            (ids[name],)).fetchone()[0]
    html = page(shared_app, f"/release/{guid}", alice, q="harbor web")
    for part in ("Silent.Harbor.S01E02.1080p.WEB.h264-GRP.part01.rar", ".part02.rar", ".par2", ".nfo"):
        assert part in html
    # files with sizes and segment counts: part01 has 3 segments, part02 2
    cells = re.findall(r'<tr><td class="name">([^<]+)</td><td class="n">([^<]+)</td><td class="n">(\d+)</td>', html)
    assert {f: int(n) for f, _s, n in cells} == {
        "Silent.Harbor.S01E02.1080p.WEB.h264-GRP.nfo": 1, "Silent.Harbor.S01E02.1080p.WEB.h264-GRP.par2": 1,
        "Silent.Harbor.S01E02.1080p.WEB.h264-GRP.part01.rar": 3, "Silent.Harbor.S01E02.1080p.WEB.h264-GRP.part02.rar": 2}
    for text in ("alt.binaries.teevee", "alt.binaries.test.window", "up &lt;up@example.com&gt;", "par2 present",
                 "complete", "none known", "TV &gt; HD", "Texts that matched", "S01E02"):
        assert text in html, text
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC → \d{4}-\d\d-\d\d \d\d:\d\d UTC \(\d+m \d\ds\)", html)
    assert call(shared_app, "/release/" + "f" * 40, headers=alice).status == 404
    assert call(shared_app, "/release/not-a-guid", headers=alice).status == 404
    # the NFO the prober read, whole and escaped
    assert "<h2>NFO</h2>" not in html
    with psycopg.connect(shared_dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO voyager.release_nfos (release_id, message_id, text) VALUES (%s, 'n@x', %s)",
                     (ids[name], "GRP <presents>\r\n  Silent Harbor"))
        try:
            html = page(shared_app, f"/release/{guid}", alice)
        finally:
            conn.execute("DELETE FROM voyager.release_nfos WHERE release_id = %s", (ids[name],))
    assert '<pre class="nfo">GRP &lt;presents&gt;\r\n  Silent Harbor</pre>' in html


def test_the_evil_release_page_escapes_everything(shared_app, alice, shared_dsn, ids):
    with psycopg.connect(shared_dsn) as conn:
        guid = conn.execute("SELECT encode(release_key, 'hex') FROM voyager.releases WHERE id = %s",
                            (ids[EVIL],)).fetchone()[0]
    html = page(shared_app, f"/release/{guid}", alice, q="<script>")
    assert "evil&lt;b&gt;.bin" in html and "<b>.bin" not in html


def test_nzb_download_and_account(app, keys, web_dsn, ids):
    import nzb as nzb_pkg

    headers = sign_in(app, "tiny", keys["tiny"])            # one NZB a day
    with psycopg.connect(web_dsn) as conn:
        guid = conn.execute("SELECT encode(release_key, 'hex') FROM voyager.releases WHERE id = %s",
                            (ids["Crimson.River.2019.1080p.BluRay.x264-GRP"],)).fetchone()[0]
    resp = call(app, f"/nzb/{guid}", headers=headers)
    assert resp.status == 200 and resp.headers["content-type"] == "application/x-nzb"
    assert resp.headers["content-disposition"].startswith('attachment; filename="Crimson.River.2019.1080p.BluRay.x264-GRP.nzb"')
    assert len(nzb_pkg.Nzb.from_str(resp.text).files) == 3
    assert call(app, f"/nzb/{guid}", headers=headers).status == 429
    html = page(app, "/account", headers)
    assert keys["tiny"] not in html and "1 of 1" in html


def test_the_status_page_shows_the_status_views(shared_app, keys, shared_dsn):
    from voyager.status import PANELS

    html = page(shared_app, "/status", sign_in(shared_app, "root", keys["root"]))     # an admin's
    for _key, title, view, _one in PANELS:
        assert title.replace("&", "&amp;") in html and view in html
    with psycopg.connect(shared_dsn) as conn:
        cur = conn.execute("SELECT * FROM voyager.status_groups")
        cols = [c.name for c in cur.description]
        row = cur.fetchone()
    for col in cols:
        assert f"<th>{col}</th>" in html
    assert f"<td>{row[0]}</td>" in html and "grabs" in html


def test_sign_out_needs_the_form_token(app, keys):
    headers = sign_in(app, "alice", keys["alice"])
    assert call(app, "/logout", "post", headers=headers, data={"csrf": "forged"}).status == 403
    html = page(app, "/account", headers)
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', html).group(1)
    assert call(app, "/logout", "post", headers=headers, data={"csrf": token}).status == 303
    assert call(app, "/account", headers=headers).status == 303              # the session is gone


def test_every_route_but_the_sign_in_and_caps_wants_a_key_or_a_session(shared_app):
    """Walks the app's own route table: a new route cannot forget the check."""
    call(shared_app, "/login")                                # the routes are finalised on a first request
    checked = 0
    for route in shared_app.router.routes:
        path = "/" + route.path.lstrip("/")
        path = re.sub(r"<[^>]*int[^>]*>", "5000", path)
        path = re.sub(r"<[^>]+>", "0" * 40, path)
        for method in route.methods:
            if path == "/login":
                continue
            resp = call(shared_app, path, method.lower())
            if path == "/api":
                assert "<error code=\"200\"" in resp.text               # no function: nothing more said
                assert "<error code=\"100\"" in call(shared_app, "/api?t=search").text
                assert "<caps>" in call(shared_app, "/api?t=caps").text
            else:
                assert resp.status == 303 and resp.headers["location"].startswith("/login"), (method, path)
            checked += 1
    assert checked >= 11


def test_a_merged_releases_page_is_its_survivors(app, keys, web_dsn, ids):
    headers = sign_in(app, "alice", keys["alice"])
    survivor, merged = ids["Crimson.River.2019.1080p.BluRay.x264-GRP"], ids["Jane.Austen-Paper.Moon.1999.EPUB"]
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        conn.execute("UPDATE voyager.releases SET settled_at = coalesce(settled_at, now())")
        conn.execute("SELECT voyager.merge_releases(%s, %s, %s, %s)", ([survivor], [merged], ["sidecar"], [None]))
        guids = dict(conn.execute("SELECT id, encode(release_key, 'hex') FROM voyager.releases WHERE id = ANY (%s)",
                                  ([survivor, merged],)).fetchall())
    resp = call(app, f"/release/{guids[merged]}", headers=headers, follow_redirects=False)
    assert resp.status == 301 and resp.headers["location"] == f"/release/{guids[survivor]}"
    html = page(app, f"/release/{guids[survivor]}", headers)
    assert "Jane.Austen-Paper.Moon.1999.epub" in html and "Crimson.River.2019.1080p.BluRay.x264-GRP.part01.rar" in html
    resp = call(app, f"/nzb/{guids[merged]}", headers=headers)
    assert resp.status == 200
    assert resp.headers["content-disposition"].startswith('attachment; filename="Crimson.River.2019.1080p.BluRay.x264-GRP.nzb"')


# -- the junk judge's verdicts ----------------------------------------------------------

def total_shown(html: str) -> int:
    """A listing's total as it reads above the rows ("1–4 of 4"; 0 for "Nothing found.")."""
    m = re.search(r"<p class=\"muted\">\d+–\d+ of ([\d,]+)</p>", html)
    assert m or "Nothing found." in html, html[:500]
    return int(m.group(1).replace(",", "")) if m else 0


def browse_counts(html: str) -> dict[str, int]:
    """The browse page's counts by its links (categories and groups)."""
    return {href: int(n.replace(",", "")) for href, n in
            re.findall(r'<a href="(/browse/[^"]+)">[^<]*</a></t[hd]><td class="n">([\d,]+)</td>', html)}


LISTINGS = ["/", "/new", "/search?q=harbor", "/search?q=silent+harbor&cat=5000", "/search?q=harb",
            "/search?q=harbor&minsize=0&complete=yes", "/search?group=alt.binaries.teevee",
            "/browse/category/5000", "/browse/category/5040", "/browse/group/alt.binaries.teevee"]


def test_a_judged_release_leaves_every_listing_and_total_and_its_page_states_the_rule(app, keys, web_dsn, ids):
    from tests.web.catalog import FAKE, FAKE_PROGRAM, judge_fake

    alice, root = sign_in(app, "alice", keys["alice"]), sign_in(app, "root", keys["root"])
    before = {path: page(app, path, alice) for path in LISTINGS}
    for path, html in before.items():
        assert FAKE in rows(html), path
    counts = browse_counts(page(app, "/browse", alice))
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        judge_fake(conn, ids[FAKE])
        guid = conn.execute("SELECT encode(release_key, 'hex') FROM voyager.releases WHERE id = %s",
                            (ids[FAKE],)).fetchone()[0]

    # gone from every listing, and every total one less (the front page's, the search's, the browse counts)
    for path, html in before.items():
        after = page(app, path, alice)
        assert FAKE not in rows(after) and len(rows(after)) == len(rows(html)) - 1, path
        assert total_shown(after) == total_shown(html) - 1, path
    # the browse page: its category, parent and groups one less, every other count the same
    less = {"/browse/category/5000", "/browse/category/5040", "/browse/group/alt.binaries.teevee",
            "/browse/group/alt.binaries.test.window"}
    assert browse_counts(page(app, "/browse", alice)) == {k: n - (k in less) for k, n in counts.items()}

    # an admin's judged=1 lists it again, tagged with its verdict, the total whole
    for path in ("/search?q=harbor", "/browse/category/5000"):
        sep = "&" if "?" in path else "?"
        html = page(app, path + sep + "judged=1", root)
        assert FAKE in rows(html) and total_shown(html) == total_shown(before[path]), path
        assert '<span class="tag warn">fake</span>' in html
    # a user's judged=1 is ignored
    assert FAKE not in rows(page(app, "/search?q=harbor&judged=1", alice))

    # its page (a link from before) says why: the verdict, the rule, what matched, the rule set and when
    html = page(app, f"/release/{guid}", alice)
    judged = dict(re.findall(r"<dt>([^<]+)</dt><dd[^>]*>(.*?)</dd>", html))
    assert '<span class="tag warn verdict">fake</span>' in judged["Judged"]
    assert "hidden from listings, searches and totals" in judged["Judged"]
    assert judged["Rule"].startswith("a film, episode or music name whose content is a program")
    assert judged["What matched"] == f"programs: {FAKE_PROGRAM}"
    assert judged["Rule set"] == "version 1"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", judged["Judged at"])
    # a release the judge passed says nothing of it
    other = page(app, "/release/" + _guid(web_dsn, ids["Crimson.River.2019.1080p.BluRay.x264-GRP"]), alice)
    assert "<dt>Judged</dt>" not in other and "<dt>Rule</dt>" not in other


def test_the_repeated_rule_is_stated_with_its_rule_sets_bar(app, keys, web_dsn, ids):
    """A rule set of its own (repeat_releases 3): the page states the bar of
    the rule set that judged, and its version."""
    name = "Crimson.River.2019.1080p.BluRay.x264-GRP"
    holders = [ids[name], ids["Windows.11.2024.v2.0.x64-GRP"], ids["Jane.Austen-Paper.Moon.1999.EPUB"]]
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        from psycopg.types.json import Jsonb

        version = conn.execute("SELECT voyager.add_rule_set(%s, 'three repeats')",
                               (Jsonb({"judge": {**conn.execute(
                                   "SELECT rules -> 'judge' FROM voyager.rule_set()").fetchone()[0],
                                   "repeat_releases": 3}}),)).fetchone()[0]
        for rid in holders:
            conn.execute("""INSERT INTO voyager.file_hashes (message_id, md5_16k, size, release_id, file_index)
                            VALUES (%s, decode(md5('one sample'), 'hex'), 123456, %s, 0)""", (f"h{rid}@web", rid))
        out = conn.execute("SELECT voyager.judge_releases(%s, now())", (holders,)).fetchone()[0]
        assert out["hidden"] == 3
    html = page(app, "/release/" + _guid(web_dsn, ids[name]), sign_in(app, "alice", keys["alice"]))
    judged = dict(re.findall(r"<dt>([^<]+)</dt><dd[^>]*>(.*?)</dd>", html))
    assert '<span class="tag warn verdict">repeated</span>' in judged["Judged"]
    assert "held by 3 releases or more" in judged["Rule"]
    assert judged["What matched"] == "file starts shared: 1; releases holding each start (the fewest): 3"
    assert judged["Rule set"] == f"version {version}"


def test_the_status_page_shows_the_judges_panel(app, keys, web_dsn, ids):
    """The judge job run by the tick as it runs it (its dirty marks judged):
    the panel's row of the rule counts the verdict, the backlog and the last run."""
    from tests.test_judge import archive, probe
    from tests.web.catalog import FAKE, FAKE_PROGRAM
    from voyager.tick import Tick

    with psycopg.connect(web_dsn, autocommit=True) as conn:
        probe(conn, ids[FAKE], "archive", facts=archive(FAKE_PROGRAM))        # marks it dirty
        assert conn.execute("SELECT count(*) FROM voyager.judge_queue").fetchone()[0] >= 1
        conn.execute("UPDATE voyager.jobs SET enabled = (name = 'judge'), next_run_at = now()")
    ran = Tick(web_dsn, handlers={}).run_due()
    assert [r["job"] for r in ran] == ["judge"] and ran[0]["error"] is None
    html = page(app, "/status", sign_in(app, "root", keys["root"]))
    panel = html[html.index('<h2 id="judge">'):]
    panel = panel[:panel.index("</table>")]
    assert "voyager.status_judge" in panel
    cols = re.findall(r"<th>([^<]+)</th>", panel)
    table = [dict(zip(cols, re.findall(r"<td>([^<]*)</td>", tr))) for tr in re.findall(r"<tr>(<td>.*?)</tr>", panel)]
    assert [r["verdict"] for r in table] == ["dead", "fake", "repeated", "locked", "unusable"]
    by_rule = {r["verdict"]: r for r in table}
    assert by_rule["fake"]["releases"] == "1" and {r["releases"] for r in table if r["verdict"] != "fake"} == {"0"}
    assert by_rule["fake"]["backlog"] == "0"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", by_rule["fake"]["judge_last_run_at"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", by_rule["fake"]["last_judged_at"])
    assert '"hidden":1' in by_rule["fake"]["judge_last_result"].replace("&#34;", '"')


def _guid(dsn: str, release_id: int) -> str:
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT encode(release_key, 'hex') FROM voyager.releases WHERE id = %s",
                            (release_id,)).fetchone()[0]


# -- spots -------------------------------------------------------------------------------

def test_a_release_page_shows_its_spots_and_not_a_disposed_one(app, keys, web_dsn, ids):
    """A spot linked to the release (or to one merged into it) shows on its
    page: title, description, website, the spotter and whether its signature
    was verified by a trusted key; a disposed spot shows no more; all escaped."""
    headers = sign_in(app, "alice", keys["alice"])
    rid = ids["Crimson.River.2019.1080p.BluRay.x264-GRP"]
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        guid = conn.execute("SELECT encode(release_key, 'hex') FROM voyager.releases WHERE id = %s", (rid,)).fetchone()[0]
        conn.execute("""INSERT INTO voyager.spots (message_id, verified, trusted, title, description, website,
                                                   spotter_id, posted_at, disposed_at)
                        VALUES ('<a@spot>', true, true, 'Crimson River (2019) 1080p', %s, 'https://www.imdb.com/title/tt0000001/',
                                'Xk3mTq', now(), NULL),
                               ('<b@spot>', true, false, 'A spot taken back', 'gone', NULL, 'Zz9', now(), now())""",
                     (EVIL,))
        conn.execute("""INSERT INTO voyager.spot_matches (spot_id, release_id, via)
                        VALUES ('<a@spot>', %s, 'identity'), ('<b@spot>', %s, 'identity')""", (rid, rid))
    html = page(app, f"/release/{guid}", headers)
    assert "<h2>Spot</h2>" in html and html.count("<h2>Spot</h2>") == 1
    assert "Crimson River (2019) 1080p" in html and "https://www.imdb.com/title/tt0000001/" in html
    assert "Xk3mTq" in html and "verified, a trusted key" in html
    assert "Evil&lt;script&gt;" in html and "A spot taken back" not in html
