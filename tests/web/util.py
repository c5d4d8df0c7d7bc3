"""Helpers the web tests share: requests through the ASGI client, the RSS read back."""
from __future__ import annotations

import asyncio
import re
import xml.etree.ElementTree as ET
from urllib.parse import urlencode

from tests.wellformed import check_response

NZ = "{http://www.newznab.com/DTD/2010/feeds/attributes/}"


def call(app, path: str, method: str = "get", **kw):
    """One request through Sanic's ASGI client (the app's listeners run around
    it), a fresh client each time: no cookie carried over from another request."""
    from sanic_testing.testing import SanicASGITestClient

    async def go():
        _, resp = await getattr(SanicASGITestClient(app), method)(path, **kw)
        return resp
    resp = asyncio.run(go())
    check_response(resp.headers.get("content-type"), resp.body)       # every XML answer is XML 1.0
    return resp


def api(app, **params):
    return call(app, "/api?" + urlencode(params))


class Feed:
    """An RSS response read back: total, offset, items with their attributes."""

    def __init__(self, text: str):
        self.root = ET.fromstring(text)
        assert self.root.tag == "rss", text[:300]
        ch = self.root.find("channel")
        resp = ch.find(f"{NZ}response")
        self.total = int(resp.get("total"))
        self.offset = int(resp.get("offset"))
        lim = ch.find(f"{NZ}apilimits")
        self.limits = dict(lim.attrib) if lim is not None else None
        self.items = []
        for it in ch.findall("item"):
            attrs: dict[str, list[str]] = {}
            for a in it.findall(f"{NZ}attr"):
                attrs.setdefault(a.get("name"), []).append(a.get("value"))
            enc = it.find("enclosure")
            self.items.append({
                "title": it.findtext("title"), "guid": it.findtext("guid"), "link": it.findtext("link"),
                "comments": it.findtext("comments"), "pubDate": it.findtext("pubDate"),
                "category": it.findtext("category"), "description": it.findtext("description"),
                "enclosure": dict(enc.attrib) if enc is not None else None, "attrs": attrs,
                "children": [c.tag for c in it]})

    @property
    def titles(self) -> list[str]:
        return [i["title"] for i in self.items]


def feed(resp) -> Feed:
    assert resp.status == 200
    assert resp.headers["content-type"].startswith("application/rss+xml"), resp.headers["content-type"]
    return Feed(resp.text)


def error_code(resp) -> int | None:
    """The Newznab error code of an answer (HTTP 200 with <error/>), or None."""
    assert resp.status == 200, resp.status
    m = re.search(r'<error code="(\d+)" description="[^"]*"/>', resp.text)
    return int(m.group(1)) if m else None


def login_form(app) -> tuple[str, str]:
    """The sign-in form as a browser gets it: (its token, the cookie header it came with)."""
    resp = call(app, "/login")
    assert resp.status == 200, resp.status
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', resp.text).group(1)
    return token, f"voyager_login={resp.cookies.get('voyager_login')}"


def post_login(app, name: str, key: str, **fields):
    """A sign-in as a browser posts it: the form fetched first, its token and cookie sent back."""
    token, cookie = login_form(app)
    return call(app, "/login", "post", data={"name": name, "apikey": key, "csrf": token, **fields},
                headers={"Cookie": cookie})


def sign_in(app, name: str, key: str) -> dict:
    """A signed-in session's cookie header (the sign-in asserted to have worked)."""
    resp = post_login(app, name, key, next="/account")
    assert resp.status == 303 and resp.headers["location"] == "/account", (resp.status, resp.text[:300])
    cookie = resp.cookies.get("voyager_session")
    assert cookie and "httponly" in resp.headers["set-cookie"].lower()
    return {"Cookie": f"voyager_session={cookie}"}


class AsyncOver:
    """psycopg's async surface over a sync connection (what search.find and
    Labels call), for tests that drive them without a server."""

    def __init__(self, conn):
        self.conn = conn

    async def execute(self, sql, params=None, **kw):
        cur = self.conn.execute(sql, params, **kw)

        class Cur:
            description = cur.description

            async def fetchone(self):
                return cur.fetchone()

            async def fetchall(self):
                return cur.fetchall()
        return Cur()
