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
