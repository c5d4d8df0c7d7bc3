"""The Newznab documents as web/feeds.py wrote them before the fast rewrite
(commit 64c1d75), kept verbatim as the reference the rewrite must match byte
for byte (tests/web/test_feeds_reference.py) and the "before" of
bench/feeds.py. Categories' and Site's methods are copied too, so a
change there cannot move the reference along with the code under test."""
from __future__ import annotations

import json
import re
from datetime import datetime, timezone

from web.feeds import Categories, Limits, Site
from web.names import name_info

# XML 1.0 allows neither most C0 controls nor U+FFFE/U+FFFF nor lone surrogates
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SPECIAL = re.compile("[&<>\"'\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def esc(value) -> str:
    """Text or attribute value, escaped for XML (and HTML)."""
    s = value if isinstance(value, str) else str(value)
    if _SPECIAL.search(s) is None:          # the common case: nothing to do
        return s
    s = _NOT_XML.sub("\ufffd", s)
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("'", "&apos;"))


_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def rfc822(dt: datetime | None) -> str:
    """RFC 822 (RFC 2822) date in UTC with a numeric offset, locale-free."""
    if dt is None:
        dt = datetime(1970, 1, 1, tzinfo=timezone.utc)
    d = dt.astimezone(timezone.utc)
    return (f"{_DAYS[d.weekday()]}, {d.day:02d} {_MONTHS[d.month - 1]} {d.year:04d} "
            f"{d.hour:02d}:{d.minute:02d}:{d.second:02d} +0000")


def _path(cats: Categories, cid: int) -> str:
    parent = cats.parents.get(cid)
    if parent is None:
        return cats.names.get(cid, "Other")
    return f"{cats.names[parent]} > {cats.names[cid]}"


def _chain(cats: Categories, cid: int) -> list[int]:
    parent = cats.parents.get(cid)
    return [cid] if parent is None else [parent, cid]


def _nzb_url(site: Site, guid: str) -> str:
    return f"{site.base}/api?t=get&id={guid}" + (f"&apikey={site.apikey}" if site.apikey else "")


def _details_url(site: Site, guid: str) -> str:
    return f"{site.base}/release/{guid}"


def item_attrs(row: dict, cats: Categories, wanted: frozenset[str] | None) -> list[tuple[str, str]]:
    """(name, value) of a release's newznab:attr elements; wanted None: all."""
    def want(n: str) -> bool:
        return wanted is None or n in wanted

    out: list[tuple[str, str]] = []
    if want("category"):
        out.extend(("category", str(c)) for c in _chain(cats, row["category"]))
    if want("size"):
        out.append(("size", str(row["bytes"])))
    if want("files"):
        out.append(("files", str(row["files"])))
    if want("poster"):
        out.append(("poster", row["poster"]))
    if want("group"):
        out.append(("group", row["group_name"]))
    if want("grabs"):
        out.append(("grabs", str(row["grabs"])))
    if want("comments"):
        out.append(("comments", "0"))
    if want("password"):
        out.append(("password", str(row["password"])))
    if want("usenetdate"):
        out.append(("usenetdate", rfc822(row["posted_at"])))
    if want("guid"):
        out.append(("guid", row["release_key"].hex()))
    info = name_info(row["name"])
    for n in ("season", "episode", "tvtitle", "year", "resolution"):
        v = getattr(info, n)
        if v is not None and want(n):
            out.append((n, v))
    return out


def _item_parts(row: dict, site: Site, cats: Categories):
    guid = row["release_key"].hex()
    return guid, _nzb_url(site, guid), _details_url(site, guid)


def limits_xml(limits: Limits | None) -> str:
    if limits is None:
        return ""
    return "<newznab:apilimits " + " ".join(f'{k}="{esc(v)}"' for k, v in limits.attrs().items()) + "/>\n"


ATOM_NS = "http://www.w3.org/2005/Atom"
NEWZNAB_NS = "http://www.newznab.com/DTD/2010/feeds/attributes/"


def rss(rows: list[dict], *, site: Site, cats: Categories, total: int, offset: int, limits: Limits | None = None,
        wanted: frozenset[str] | None, description: str | None = None, limits_mark: str | None = None) -> str:
    """The RSS document; `limits_mark` stands where the apilimits go when the
    caller fills them in later (a cached document serves many users)."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n',
           f'<rss version="2.0" xmlns:atom="{ATOM_NS}" xmlns:newznab="{NEWZNAB_NS}">\n<channel>\n',
           f'<atom:link href="{esc(site.base)}/api" rel="self" type="application/rss+xml"/>\n',
           f"<title>{esc(site.title)}</title>\n<description>{esc(site.title)} feed</description>\n",
           f"<link>{esc(site.base)}/</link>\n<language>en-gb</language>\n",
           f'<newznab:response offset="{offset}" total="{total}"/>\n',
           limits_mark if limits_mark is not None else limits_xml(limits)]
    for row in rows:
        guid, nzb, details = _item_parts(row, site, cats)
        nzb_e = esc(nzb)
        details_e = esc(details)
        name_e = esc(row["name"])
        out.append(
            f"<item>\n<title>{name_e}</title>\n"
            f'<guid isPermaLink="true">{details_e}</guid>\n'
            f"<link>{nzb_e}</link>\n<comments>{details_e}#comments</comments>\n"
            f"<pubDate>{rfc822(row['posted_at'])}</pubDate>\n"
            f"<category>{esc(_path(cats, row['category']))}</category>\n"
            f"<description>{esc(description) if description is not None else name_e}</description>\n"
            f'<enclosure url="{nzb_e}" length="{row["bytes"]}" type="application/x-nzb"/>\n')
        out.extend([f'<newznab:attr name="{n}" value="{esc(v)}"/>\n' for n, v in item_attrs(row, cats, wanted)])
        out.append("</item>\n")
    out.append("</channel>\n</rss>\n")
    return "".join(out)


def _a(**attrs) -> dict:
    return {"@attributes": {k: str(v) for k, v in attrs.items()}}


def rss_json(rows: list[dict], *, site: Site, cats: Categories, total: int, offset: int, limits: Limits | None = None,
             wanted: frozenset[str] | None, description: str | None = None, limits_mark: str | None = None) -> str:
    items = []
    for row in rows:
        guid, nzb, details = _item_parts(row, site, cats)
        items.append({
            "title": row["name"], "guid": details, "link": nzb, "comments": details + "#comments",
            "pubDate": rfc822(row["posted_at"]), "category": _path(cats, row["category"]),
            "description": description if description is not None else row["name"],
            "enclosure": _a(url=nzb, length=row["bytes"], type="application/x-nzb"),
            "attr": [_a(name=n, value=v) for n, v in item_attrs(row, cats, wanted)],
        })
    channel = {"title": site.title, "description": f"{site.title} feed", "link": site.base + "/",
               "language": "en-gb", "response": _a(offset=offset, total=total), "item": items}
    if limits_mark is not None:
        channel["apilimits"] = limits_mark
    elif limits is not None:
        channel["apilimits"] = {"@attributes": limits.attrs()}
    return json.dumps({"@attributes": {"version": "2.0"}, "channel": channel}, ensure_ascii=True)
