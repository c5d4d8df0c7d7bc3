"""The Newznab API's documents: RSS 2.0 with the newznab namespace, caps, errors,
and `o=json` in the shape the big indexers serve (the XML as nested objects,
attributes under "@attributes")."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import lru_cache
from json.encoder import encode_basestring_ascii as _jstr

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


_UTC = timezone.utc
_2D = tuple(f"{i:02d}" for i in range(60))
_EPOCH = "Thu, 01 Jan 1970 00:00:00 +0000"


def rfc822(dt: datetime | None) -> str:
    """RFC 822 (RFC 2822) date in UTC with a numeric offset, locale-free."""
    if dt is None:
        return _EPOCH
    if dt.tzinfo is not _UTC:              # psycopg gives timezone.utc when the session's zone is UTC
        dt = dt.astimezone(_UTC)
    return (f"{_DAYS[dt.weekday()]}, {_2D[dt.day]} {_MONTHS[dt.month - 1]} {dt.year:04d} "
            f"{_2D[dt.hour]}:{_2D[dt.minute]}:{_2D[dt.second]} +0000")


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
    # id -> what rss()/rss_json() write for it (_category_parts), filled as they meet the ids
    _parts: dict = field(default_factory=dict, init=False, repr=False, compare=False)

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
        before, after = self.nzb_url_parts()
        return before + guid + after

    def nzb_url_parts(self) -> tuple[str, str]:
        """What comes before and after the guid in nzb_url."""
        return f"{self.base}/api?t=get&id=", (f"&apikey={self.apikey}" if self.apikey else "")

    def details_url(self, guid: str) -> str:
        return self.details_url_prefix() + guid

    def details_url_prefix(self) -> str:
        return f"{self.base}/release/"


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


# The documents' fast path: what does not change from item to item is worked out
# once: per category (the <category> element, the category attrs), per release
# name (escaped, what the name says as attrs), per poster and group (escaped),
# per page (the URLs around the guid); an item is then one f-string. The
# output is byte for byte what item_attrs() and the straightforward rendering
# give (tests/web/test_feeds_reference.py holds them to it).
_NAME_ATTRS = ("season", "episode", "tvtitle", "year", "resolution")
_NAMES_CACHED = 1 << 14                 # release names per format: a few MB each
_ESCAPED_CACHED = 1 << 13               # posters and groups


def _xml_attr(n: str, v) -> str:
    return f'<newznab:attr name="{n}" value="{esc(v)}"/>\n'


def _json_attr(n: str, v) -> str:
    return f'{{"@attributes": {{"name": "{n}", "value": {_jstr(str(v))}}}}}'


def _category_parts(cats: Categories, cid) -> tuple[str, str, str, str]:
    """(<category> element, category attrs as XML, path as JSON, category attrs as JSON) of an id."""
    parts = cats._parts.get(cid)
    if parts is None:
        path = cats.path(cid)
        chain = cats.chain(cid)
        parts = (f"<category>{esc(path)}</category>\n", "".join([_xml_attr("category", c) for c in chain]),
                 _jstr(path), ", ".join([_json_attr("category", c) for c in chain]))
        cats._parts[cid] = parts
    return parts


@lru_cache(maxsize=_NAMES_CACHED)
def _name_xml(name: str) -> tuple[str, str]:
    """(the name escaped, the attrs name_info finds in it) as XML."""
    info = name_info(name)
    return esc(name), "".join([_xml_attr(n, v) for n in _NAME_ATTRS if (v := getattr(info, n)) is not None])


@lru_cache(maxsize=_NAMES_CACHED)
def _name_json(name: str) -> tuple[str, str]:
    """(the name, the attrs name_info finds in it, each after ", ") as JSON."""
    info = name_info(name)
    return _jstr(name), "".join([", " + _json_attr(n, v) for n in _NAME_ATTRS
                                 if (v := getattr(info, n)) is not None])


# posters and groups: few that recur, and many with <, >, & (the slow case of esc)
_esc_cached = lru_cache(maxsize=_ESCAPED_CACHED, typed=True)(esc)


def clear_caches(cats: Categories | None = None) -> None:
    """Forget the fragments worked out so far (for benchmarks)."""
    _name_xml.cache_clear()
    _name_json.cache_clear()
    _esc_cached.cache_clear()
    if cats is not None:
        cats._parts.clear()


def _wanted_flags(wanted: frozenset[str]) -> tuple:
    """Which of ALL_ATTRS a request wants: one bool per attr up to guid, then the name's attrs wanted."""
    return (*(n in wanted for n in ALL_ATTRS[:10]), tuple(n for n in _NAME_ATTRS if n in wanted))


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
    # escaping works character by character, and a guid is hex: the URLs' fixed parts are escaped once
    nzb_a, nzb_b = (esc(s) for s in site.nzb_url_parts())
    details_a = esc(site.details_url_prefix())
    desc_e = esc(description) if description is not None else None
    full = wanted is None
    if not full:
        w_cat, w_size, w_files, w_poster, w_group, w_grabs, w_comments, w_password, w_date, w_guid, w_names = \
            _wanted_flags(wanted)
    names = full or bool(w_names)           # name_info's work only when its attrs are wanted
    cat_parts = cats._parts.get
    append = out.append
    for row in rows:
        guid = row["release_key"].hex()
        cid = row["category"]
        cp = cat_parts(cid) or _category_parts(cats, cid)
        if names:
            name_e, name_attrs = _name_xml(row["name"])
        else:
            name_e = esc(row["name"])
        date = rfc822(row["posted_at"])
        size = row["bytes"]                 # numbers (integer columns) need no escaping
        nzb = f"{nzb_a}{guid}{nzb_b}"
        details = details_a + guid
        item = (f"<item>\n<title>{name_e}</title>\n"
                f'<guid isPermaLink="true">{details}</guid>\n'
                f"<link>{nzb}</link>\n<comments>{details}#comments</comments>\n"
                f"<pubDate>{date}</pubDate>\n{cp[0]}"
                f"<description>{name_e if desc_e is None else desc_e}</description>\n"
                f'<enclosure url="{nzb}" length="{size}" type="application/x-nzb"/>\n')
        if full:
            append(f"{item}{cp[1]}"
                   f'<newznab:attr name="size" value="{size}"/>\n'
                   f'<newznab:attr name="files" value="{row["files"]}"/>\n'
                   f'<newznab:attr name="poster" value="{_esc_cached(row["poster"])}"/>\n'
                   f'<newznab:attr name="group" value="{_esc_cached(row["group_name"])}"/>\n'
                   f'<newznab:attr name="grabs" value="{row["grabs"]}"/>\n'
                   '<newznab:attr name="comments" value="0"/>\n'
                   f'<newznab:attr name="password" value="{row["password"]}"/>\n'
                   f'<newznab:attr name="usenetdate" value="{date}"/>\n'
                   f'<newznab:attr name="guid" value="{guid}"/>\n'
                   f"{name_attrs}</item>\n")
            continue
        parts = [item]
        if w_cat:
            parts.append(cp[1])
        if w_size:
            parts.append(f'<newznab:attr name="size" value="{size}"/>\n')
        if w_files:
            parts.append(f'<newznab:attr name="files" value="{row["files"]}"/>\n')
        if w_poster:
            parts.append(f'<newznab:attr name="poster" value="{_esc_cached(row["poster"])}"/>\n')
        if w_group:
            parts.append(f'<newznab:attr name="group" value="{_esc_cached(row["group_name"])}"/>\n')
        if w_grabs:
            parts.append(f'<newznab:attr name="grabs" value="{row["grabs"]}"/>\n')
        if w_comments:
            parts.append('<newznab:attr name="comments" value="0"/>\n')
        if w_password:
            parts.append(f'<newznab:attr name="password" value="{row["password"]}"/>\n')
        if w_date:
            parts.append(f'<newznab:attr name="usenetdate" value="{date}"/>\n')
        if w_guid:
            parts.append(f'<newznab:attr name="guid" value="{guid}"/>\n')
        if w_names:
            if len(w_names) == len(_NAME_ATTRS):
                parts.append(name_attrs)
            else:
                info = name_info(row["name"])
                parts.extend([_xml_attr(n, v) for n in w_names if (v := getattr(info, n)) is not None])
        parts.append("</item>\n")
        append("".join(parts))
    out.append("</channel>\n</rss>\n")
    return "".join(out)


def _a(**attrs) -> dict:
    return {"@attributes": {k: str(v) for k, v in attrs.items()}}


def rss_json(rows: list[dict], *, site: Site, cats: Categories, total: int, offset: int, limits: Limits | None = None,
             wanted: frozenset[str] | None, description: str | None = None, limits_mark: str | None = None) -> str:
    """The RSS document as JSON: what json.dumps(ensure_ascii=True) makes of
    {"@attributes": {"version": "2.0"}, "channel": {..., "item": [...]}},
    with the items written directly (JSON strings by json's own encoder)."""
    channel = {"title": site.title, "description": f"{site.title} feed", "link": site.base + "/",
               "language": "en-gb", "response": _a(offset=offset, total=total)}
    # json.dumps(...) ends with the "}}" that closes the channel and the document
    head = json.dumps({"@attributes": {"version": "2.0"}, "channel": channel}, ensure_ascii=True)[:-2]
    if limits_mark is not None:
        tail = ", \"apilimits\": " + json.dumps(limits_mark, ensure_ascii=True) + "}}"
    elif limits is not None:
        tail = ", \"apilimits\": " + json.dumps({"@attributes": limits.attrs()}, ensure_ascii=True) + "}}"
    else:
        tail = "}}"
    # a JSON string's text is its characters' escapes one by one, and a guid is hex
    nzb_a, nzb_b = (_jstr(s)[1:-1] for s in site.nzb_url_parts())
    details_a = _jstr(site.details_url_prefix())[1:-1]
    desc_j = json.dumps(description, ensure_ascii=True) if description is not None else None
    full = wanted is None
    if not full:
        w_cat, w_size, w_files, w_poster, w_group, w_grabs, w_comments, w_password, w_date, w_guid, w_names = \
            _wanted_flags(wanted)
    names = full or bool(w_names)
    cat_parts = cats._parts.get
    items = []
    append = items.append
    for row in rows:
        guid = row["release_key"].hex()
        cid = row["category"]
        cp = cat_parts(cid) or _category_parts(cats, cid)
        if names:
            name_j, name_attrs = _name_json(row["name"])
        else:
            name_j = _jstr(row["name"])
        date = rfc822(row["posted_at"])
        size = row["bytes"]
        nzb = f'"{nzb_a}{guid}{nzb_b}"'
        details = details_a + guid
        item = (f'{{"title": {name_j}, "guid": "{details}", "link": {nzb}, "comments": "{details}#comments", '
                f'"pubDate": "{date}", "category": {cp[2]}, '
                f'"description": {name_j if desc_j is None else desc_j}, '
                f'"enclosure": {{"@attributes": {{"url": {nzb}, "length": "{size}", "type": "application/x-nzb"}}}}, '
                '"attr": [')
        if full:
            append(f"{item}{cp[3]}, "
                   f'{{"@attributes": {{"name": "size", "value": "{size}"}}}}, '
                   f'{{"@attributes": {{"name": "files", "value": "{row["files"]}"}}}}, '
                   f'{{"@attributes": {{"name": "poster", "value": {_jstr(str(row["poster"]))}}}}}, '
                   f'{{"@attributes": {{"name": "group", "value": {_jstr(str(row["group_name"]))}}}}}, '
                   f'{{"@attributes": {{"name": "grabs", "value": "{row["grabs"]}"}}}}, '
                   '{"@attributes": {"name": "comments", "value": "0"}}, '
                   f'{{"@attributes": {{"name": "password", "value": "{row["password"]}"}}}}, '
                   f'{{"@attributes": {{"name": "usenetdate", "value": "{date}"}}}}, '
                   f'{{"@attributes": {{"name": "guid", "value": "{guid}"}}}}'
                   f"{name_attrs}]}}")
            continue
        attrs = []
        if w_cat:
            attrs.append(cp[3])
        if w_size:
            attrs.append(f'{{"@attributes": {{"name": "size", "value": "{size}"}}}}')
        if w_files:
            attrs.append(f'{{"@attributes": {{"name": "files", "value": "{row["files"]}"}}}}')
        if w_poster:
            attrs.append(_json_attr("poster", row["poster"]))
        if w_group:
            attrs.append(_json_attr("group", row["group_name"]))
        if w_grabs:
            attrs.append(f'{{"@attributes": {{"name": "grabs", "value": "{row["grabs"]}"}}}}')
        if w_comments:
            attrs.append('{"@attributes": {"name": "comments", "value": "0"}}')
        if w_password:
            attrs.append(f'{{"@attributes": {{"name": "password", "value": "{row["password"]}"}}}}')
        if w_date:
            attrs.append(f'{{"@attributes": {{"name": "usenetdate", "value": "{date}"}}}}')
        if w_guid:
            attrs.append(f'{{"@attributes": {{"name": "guid", "value": "{guid}"}}}}')
        if w_names:
            if len(w_names) == len(_NAME_ATTRS):
                if name_attrs:
                    attrs.append(name_attrs[2:])
            else:
                info = name_info(row["name"])
                attrs.extend([_json_attr(n, v) for n in w_names if (v := getattr(info, n)) is not None])
        append(item + ", ".join(attrs) + "]}")
    return head + ', "item": [' + ", ".join(items) + "]" + tail


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

