"""Outside clients against a real `voyager web` process: FlexGet's newznab
search plugin and rss input, feedparser, the spec-strict nzb package, and the
checks Sonarr, Prowlarr and NZBHydra2 run when an indexer is added."""
from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import urlopen

import feedparser
import pytest

from tests.web.catalog import RELEASES
from tests.web.util import Feed
from tests.wellformed import check_response, parse

pytestmark = pytest.mark.slow


def fetch(live, **params) -> tuple[str, str, bytes]:
    with urlopen(f"{live.base}/api?{urlencode(params)}", timeout=30) as r:
        body = r.read()
        check_response(r.headers.get("Content-Type"), body)
        return r.status, r.headers.get("Content-Type"), body


def caps(live) -> ET.Element:
    return ET.fromstring(fetch(live, t="caps")[2])


def caps_categories(root: ET.Element) -> set[int]:
    return {int(c.get("id")) for c in root.iter("category")} | {int(c.get("id")) for c in root.iter("subcat")}


def test_sonarr_adds_the_indexer(live, keys):
    """Sonarr's NewznabCapabilitiesProvider, then its test request."""
    root = caps(live)
    lim = root.find("limits")
    int(lim.get("max")), int(lim.get("default"))                       # Sonarr: int.Parse, or it fails
    searching = root.find("searching")
    for element in searching:
        assert element.get("available") in ("yes", "no"), element.tag
        assert element.get("supportedParams") is not None
    tv = searching.find("tv-search")
    assert tv.get("available") == "yes" and "q" in tv.get("supportedParams").split(",")
    for cat in root.iter("category"):
        int(cat.get("id"))
        assert cat.get("name")
        for sub in cat.findall("subcat"):
            int(sub.get("id"))
    status, ctype, body = fetch(live, t="tvsearch", cat="5030,5040", extended="1", apikey=keys["alice"],
                                offset="0", limit="100")
    assert status == 200 and ctype.startswith("application/rss+xml")
    feed = Feed(body.decode())
    assert feed.items, "Sonarr: no results were returned from your indexer"
    for item in feed.items:
        assert item["enclosure"]["type"] == "application/x-nzb" and int(item["attrs"]["size"][0]) > 0
        assert set(item["attrs"]["category"]) & {"5030", "5040"}


def test_prowlarr_adds_the_indexer(live, keys):
    """Prowlarr: a search without q, every category of the items in caps."""
    listed = caps_categories(caps(live))
    feed = Feed(fetch(live, t="search", extended="1", apikey=keys["alice"])[2].decode())
    assert feed.items
    for item in feed.items:
        assert {int(c) for c in item["attrs"]["category"]} <= listed


@pytest.mark.parametrize("params", [
    {"t": "search"}, {"t": "search", "q": "harbor"}, {"t": "tvsearch", "q": "silent harbor"},
    {"t": "search", "cat": "5000"}, {"t": "search", "q": "grp"}, {"t": "movie"},
])
def test_nzbhydra2_pages(live, keys, params):
    """NZBHydra2: an offset-0 page shorter than the limit only when it is the whole total."""
    for limit in (1, 2, 3, 5, 100):
        feed = Feed(fetch(live, apikey=keys["alice"], limit=str(limit), offset="0", **params)[2].decode())
        assert len(feed.items) == min(limit, feed.total), (params, limit)
        if len(feed.items) < limit:
            assert len(feed.items) == feed.total
        seen = list(feed.titles)
        offset = len(seen)
        while offset < feed.total:                     # the pages tile the total exactly
            nxt = Feed(fetch(live, apikey=keys["alice"], limit=str(limit), offset=str(offset), **params)[2].decode())
            assert nxt.total == feed.total and nxt.items
            seen += nxt.titles
            offset += len(nxt.items)
        assert len(seen) == len(set(seen)) == feed.total


def _start_newznab_attr(self, attrs_d):
    """feedparser's hook for an element it does not know (how Python Newznab
    clients read the attributes): every newznab:attr of an item, kept."""
    context = self._get_context()
    context.setdefault("newznab_attrs", []).append((attrs_d.get("name"), attrs_d.get("value")))


def test_feedparser_reads_every_attribute(live, keys, monkeypatch):
    _status, _ctype, body = fetch(live, t="search", extended="1", apikey=keys["alice"])
    ours = Feed(body.decode())
    plain = feedparser.parse(body)
    assert not plain.bozo, plain.get("bozo_exception")
    assert plain.feed["newznab_response"]["total"] == str(len(RELEASES))
    monkeypatch.setattr(feedparser.mixin._FeedParserMixin, "_start_newznab_attr", _start_newznab_attr, raising=False)
    parsed = feedparser.parse(body)
    assert len(parsed.entries) == len(ours.items) == len(RELEASES)
    for entry, item in zip(parsed.entries, ours.items):
        assert entry.title == item["title"] and entry.link == item["link"] and entry.id == item["guid"]
        assert entry.comments == item["comments"] and entry.published_parsed is not None
        assert entry.tags[0]["term"] == item["category"]
        enclosure = next(l for l in entry.links if l.get("rel") == "enclosure")
        assert (enclosure["href"], enclosure["length"], enclosure["type"]) == \
            (item["enclosure"]["url"], item["enclosure"]["length"], "application/x-nzb")
        read: dict[str, list[str]] = {}
        for name, value in entry["newznab_attrs"]:
            read.setdefault(name, []).append(value)
        assert read == item["attrs"]
        for name in ("size", "category", "files", "poster", "group", "grabs", "usenetdate", "password", "comments"):
            assert name in read


def test_the_nzb_package_parses_every_nzb_served(live, keys):
    import nzb as nzb_pkg

    feed = Feed(fetch(live, t="search", extended="1", apikey=keys["root"])[2].decode())
    assert len(feed.items) == len(RELEASES)
    for item in feed.items:
        with urlopen(item["link"], timeout=30) as r:
            assert r.headers["Content-Type"] == "application/x-nzb"
            name = r.headers["X-DNZB-Name"]
            text = r.read().decode()
        parse(text)
        parsed = nzb_pkg.Nzb.from_str(text)
        assert parsed.meta.title == item["title"] and name
        assert len(parsed.files) == int(item["attrs"]["files"][0])
        assert all(f.segments for f in parsed.files)


def test_flexget_accepts_the_results(live, keys, tmp_path):
    """FlexGet (PyPI): its newznab search plugin through discover, and an rss task."""
    out = tmp_path / "accepted.tsv"
    def exec_(size: str) -> dict:
        line = "{{task}}\t{{title}}\t{{url}}\t{{%s}}" % size
        return {"on_output": {"for_accepted": f'echo "{line}" >> {out}'}}

    config = {
        "tasks": {
            "newznab_search": {
                "discover": {
                    "what": [{"mock": [{"title": "Silent Harbor S01E02", "series_name": "Silent Harbor",
                                        "series_season": 1, "series_episode": 2}]}],
                    "from": [{"newznab": {"website": live.base, "apikey": keys["alice"], "category": "tv"}}],
                    "release_estimations": "ignore"},
                "accept_all": True, "disable": ["seen"], "exec": exec_("content_size")},
            "rss_feed": {
                "rss": f"{live.base}/api?t=search&cat=5000&apikey={keys['alice']}",
                "accept_all": True, "disable": ["seen"], "exec": exec_("size")},
        }
    }
    import yaml

    (tmp_path / "config.yml").write_text(yaml.safe_dump(config))
    flexget = Path(sys.executable).with_name("flexget")
    done = subprocess.run([str(flexget), "-c", str(tmp_path / "config.yml"), "execute"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, env=dict(os.environ, HOME=str(tmp_path)))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    rows = [line.split("\t") for line in out.read_text().splitlines()]
    searched = [r for r in rows if r[0] == "newznab_search"]
    assert [r[1] for r in searched] == ["Silent.Harbor.S01E02.1080p.WEB.h264-GRP"]
    assert "t=get" in searched[0][2] and int(searched[0][3]) > 0
    assert "ERROR" not in done.stdout + done.stderr
    rss = sorted(r[1] for r in rows if r[0] == "rss_feed")
    assert all(int(r[3]) > 0 for r in rows if r[0] == "rss_feed")
    assert rss == sorted(n for n, _f, c, _x in RELEASES if c and c // 1000 == 5)
