"""The Newznab API's documents: RSS 2.0 with the newznab namespace, caps, errors,
and `o=json` in the shape the big indexers serve (the XML as nested objects,
attributes under "@attributes")."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timezone

from .names import name_info

NEWZNAB_NS = "http://www.newznab.com/DTD/2010/feeds/attributes/"
ATOM_NS = "http://www.w3.org/2005/Atom"

ERRORS = {
    100: "Incorrect user credentials",
    101: "Account suspended",
    102: "Insufficient privileges/not authorized",
    200: "Missing parameter",
    201: "Incorrect parameter",
    202: "No such function",
    203: "Function not available",
    300: "No such item",
    500: "Request limit reached",
    501: "Download limit reached",
    900: "Unknown error",
}

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


@dataclass(frozen=True)
class Limits:
    """A user's day: `<newznab:apilimits>`."""
    requests: int
    requests_max: int | None
    downloads: int
    downloads_max: int | None

    def attrs(self) -> dict[str, str]:
        day = datetime.now(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
        out = {"apicurrent": str(self.requests)}
        if self.requests_max is not None:
            out["apimax"] = str(self.requests_max)
        out["grabcurrent"] = str(self.downloads)
        if self.downloads_max is not None:
            out["grabmax"] = str(self.downloads_max)
        out["apioldesttime"] = rfc822(day)
        out["grabsoldesttime"] = rfc822(day)
        return out


@dataclass(frozen=True)
class Categories:
    names: dict[int, str]              # id -> name
    parents: dict[int, int | None]     # id -> parent id

    def children(self, parent: int) -> list[int]:
        return sorted(c for c, p in self.parents.items() if p == parent)

    def roots(self) -> list[int]:
        return sorted(c for c, p in self.parents.items() if p is None)

    def expand(self, ids) -> frozenset[int]:
        out = set()
        for c in ids:
            out.add(c)
            if self.parents.get(c, -1) is None:
                out.update(self.children(c))
        return frozenset(out)

    def path(self, cid: int) -> str:
        parent = self.parents.get(cid)
        if parent is None:
            return self.names.get(cid, "Other")
        return f"{self.names[parent]} > {self.names[cid]}"

    def chain(self, cid: int) -> list[int]:
        """The category and its parent (parent first), as Newznab lists them."""
        parent = self.parents.get(cid)
        return [cid] if parent is None else [parent, cid]


@dataclass(frozen=True)
class Site:
    base: str                          # http://host:port, no trailing slash
    title: str
    apikey: str | None = None

    def nzb_url(self, guid: str) -> str:
        return f"{self.base}/api?t=get&id={guid}" + (f"&apikey={self.apikey}" if self.apikey else "")

    def details_url(self, guid: str) -> str:
        return f"{self.base}/release/{guid}"


ALL_ATTRS = ("category", "size", "files", "poster", "group", "grabs", "comments", "password", "usenetdate",
             "guid", "season", "episode", "tvtitle", "year", "resolution")


def item_attrs(row: dict, cats: Categories, wanted: frozenset[str] | None) -> list[tuple[str, str]]:
    """(name, value) of a release's newznab:attr elements; wanted None: all."""
    def want(n: str) -> bool:
        return wanted is None or n in wanted

    out: list[tuple[str, str]] = []
    if want("category"):
        out.extend(("category", str(c)) for c in cats.chain(row["category"]))
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
    return guid, site.nzb_url(guid), site.details_url(guid)


def limits_xml(limits: Limits | None) -> str:
    if limits is None:
        return ""
    return "<newznab:apilimits " + " ".join(f'{k}="{esc(v)}"' for k, v in limits.attrs().items()) + "/>\n"


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
            f"<category>{esc(cats.path(row['category']))}</category>\n"
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
            "pubDate": rfc822(row["posted_at"]), "category": cats.path(row["category"]),
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


SEARCHES = (("search", "q"), ("tv-search", "q,season,ep"), ("movie-search", "q"),
            ("music-search", "q,artist,album,track,year"), ("audio-search", "q,artist,album,track,year"),
            ("book-search", "q,author,title"))
ID_PARAMS = {"tv-search": ("tvdbid", "tvmazeid", "rid", "imdbid", "tmdbid", "traktid"),
             "movie-search": ("imdbid", "tmdbid", "traktid")}
ID_KINDS = {"tvdbid": "tvdb", "tvmazeid": "tvmaze", "rid": "tvrage", "imdbid": "imdb", "tmdbid": "tmdb",
            "traktid": "trakt"}


def searching(known_id_kinds: set[str]) -> list[tuple[str, str]]:
    """(element, supportedParams): ID parameters only for the IDs the catalog knows,
    so that clients search such an indexer by name."""
    out = []
    for elem, params in SEARCHES:
        ids = [p for p in ID_PARAMS.get(elem, ()) if ID_KINDS[p] in known_id_kinds]
        out.append((elem, ",".join([params, *ids])))
    return out


def caps(*, site: Site, cats: Categories, limit_max: int, limit_default: int, known_id_kinds: set[str]) -> str:
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<caps>\n',
           f'<server version="1.0" title="{esc(site.title)}" strapline="A header-first Usenet indexer" '
           f'url="{esc(site.base)}/"/>\n',
           f'<limits max="{limit_max}" default="{limit_default}"/>\n',
           '<registration available="no" open="no"/>\n<searching>\n']
    out.extend(f'<{e} available="yes" supportedParams="{p}"/>\n' for e, p in searching(known_id_kinds))
    out.append("</searching>\n<categories>\n")
    for root in cats.roots():
        out.append(f'<category id="{root}" name="{esc(cats.names[root])}">\n')
        out.extend(f'<subcat id="{c}" name="{esc(cats.names[c])}"/>\n' for c in cats.children(root))
        out.append("</category>\n")
    out.append("</categories>\n</caps>\n")
    return "".join(out)


def caps_json(*, site: Site, cats: Categories, limit_max: int, limit_default: int, known_id_kinds: set[str]) -> str:
    return json.dumps({
        "server": _a(version="1.0", title=site.title, strapline="A header-first Usenet indexer", url=site.base + "/"),
        "limits": _a(max=limit_max, default=limit_default),
        "registration": _a(available="no", open="no"),
        "searching": {e: _a(available="yes", supportedParams=p) for e, p in searching(known_id_kinds)},
        "categories": {"category": [
            {**_a(id=root, name=cats.names[root]),
             "subcat": [_a(id=c, name=cats.names[c]) for c in cats.children(root)]}
            for root in cats.roots()]},
    }, ensure_ascii=True)


def error(code: int, detail: str | None = None) -> str:
    desc = ERRORS[code] + (f" ({detail})" if detail else "")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<error code="{code}" description="{esc(desc)}"/>\n'


def error_json(code: int, detail: str | None = None) -> str:
    desc = ERRORS[code] + (f" ({detail})" if detail else "")
    return json.dumps({"error": _a(code=code, description=desc)}, ensure_ascii=True)

