"""`GET /api?t=...`: the Newznab API.

Order of checks: the function (202, 203), the key (100, 101) and the day's
quota (500; 501 for `get`), then the parameters (200, 201), then the item
(300). Errors are HTTP 200 with `<error code description/>` (or its JSON).
"""
from __future__ import annotations

import logging
import re
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from urllib.parse import quote, urlencode

import psycopg
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, raw

from . import feeds, search
from .feeds import ID_KINDS, Limits, Site
from .labels import Labels
from .names import episode_match, parse_season_ep
from .nzbs import nzb_bytes, release_of_rows

log = logging.getLogger("voyager.web.api")
bp = Blueprint("api")

SEARCHES = {"search", "tvsearch", "movie", "music", "book"}
FUNCTIONS = SEARCHES | {"caps", "details", "getnfo", "get"}
NOT_OFFERED = {"register", "cartadd", "cartdel", "comments", "commentadd", "user"}
DEFAULT_CATS = {"tvsearch": 5000, "movie": 2000, "music": 3000, "book": 7000}
MULTI = {"cat", "attrs", "group"}            # repeated parameters join with commas
GUID = re.compile(r"^[0-9a-fA-F]{40}$")
IMDB = re.compile(r"^(?:tt)?(\d{1,10})$")
DIGITS = re.compile(r"^\d{1,12}$")
GROUP = re.compile(r"^[A-Za-z0-9_.+-]{1,200}$")

RSS = "application/rss+xml; charset=utf-8"
XML = "application/xml; charset=utf-8"
JSON = "application/json; charset=utf-8"


# stand-ins in a cached document for what differs per user (random: no release
# name can hold them)
KEY_MARK = secrets.token_hex(16)
LIMITS_MARK = f"<!--{secrets.token_hex(16)}-->"


class Responses:
    """Rendered search documents by query and catalog state. The state makes
    the totals and rows exact; grabs move without changing it, so a document
    also ages out after `max_age` seconds."""

    def __init__(self, max_bytes: int = 64 << 20, max_age: float = 60.0):
        self.max_bytes, self.max_age = max_bytes, max_age
        self.bytes = 0
        self.entries: OrderedDict[tuple, tuple[int, float, str]] = OrderedDict()

    def get(self, key: tuple, state: int | None) -> str | None:
        hit = self.entries.get(key)
        if state is None or not self._fresh(hit) or hit[0] != state:
            return None
        self.entries.move_to_end(key)
        return hit[2]

    def holds(self, key: tuple) -> bool:
        """A document is kept for the key, at whichever state, and young enough
        to serve: worth the key's check first, to learn the state it needs."""
        return self._fresh(self.entries.get(key))

    def _fresh(self, hit: tuple | None) -> bool:
        return hit is not None and time.monotonic() - hit[1] <= self.max_age

    def put(self, key: tuple, state: int | None, body: str) -> None:
        if state is None or len(body) > self.max_bytes // 8:
            return
        old = self.entries.pop(key, None)
        if old is not None:
            self.bytes -= len(old[2])
        self.entries[key] = (state, time.monotonic(), body)
        self.bytes += len(body)
        while self.bytes > self.max_bytes:
            _k, (_s, _t, b) = self.entries.popitem(last=False)
            self.bytes -= len(b)


class ApiError(Exception):
    def __init__(self, code: int, detail: str | None = None):
        super().__init__(code, detail)
        self.code, self.detail = code, detail


# text neither PostgreSQL nor XML 1.0 can hold: NUL and the other C0 controls
# but tab and line ends, lone surrogates, the non-characters U+FFFE/U+FFFF
BAD_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
HIDDEN = {"apikey", "r"}                     # never logged


def valid_text(v: str) -> bool:
    return BAD_TEXT.search(v) is None


class Params(dict):
    """A request's parameters by lower-cased name, and the names whose value is
    no valid text (`bad`): the one place parameters are read and checked."""
    bad: list[str]


def _params(request: Request) -> Params:
    out = Params()
    out.bad = []
    for k, values in request.get_args(keep_blank_values=True).items():
        k = k.lower()
        if not valid_text(k):
            continue                             # no parameter of ours
        if not all(valid_text(v) for v in values):
            out.bad.append(k)
            continue
        out[k] = ",".join(values) if k in MULTI else values[0]
    return out


def loggable(request: Request) -> str:
    """The query string for a log line: the key (and `r`) left out."""
    try:
        args = request.get_args(keep_blank_values=True)
        return urlencode([(k, v) for k, vs in args.items() if k.lower() not in HIDDEN for v in vs])[:300]
    except Exception:
        return "(unreadable)"


def _int(p: dict, name: str, lo: int = 0, hi: int = 2**31 - 1) -> int | None:
    v = p.get(name, "").strip()
    if v == "":
        return None
    if not v.isdigit() or not v.isascii() or len(v) > 19 or not lo <= int(v) <= hi:
        raise ApiError(201, name)
    return int(v)


def _flag(p: dict, name: str) -> bool:
    v = p.get(name, "").strip().lower()
    if v in ("", "0", "false", "no"):
        return False
    if v in ("1", "true", "yes"):
        return True
    raise ApiError(201, name)


def _list(p: dict, name: str) -> list[str]:
    return [x.strip() for x in p.get(name, "").split(",") if x.strip()]


def _group(name: str) -> str:
    if not GROUP.match(name):
        raise ApiError(201, "group")
    return "alt.binaries." + name[4:] if name.startswith("a.b.") else name


@dataclass
class Ask:
    """A request's parsed parameters (the parts every function shares)."""
    fmt: str
    limit: int
    offset: int
    wanted: frozenset[str] | None


def _common(p: dict, cfg) -> Ask:
    fmt = p.get("o", "xml").strip().lower() or "xml"
    if fmt not in ("xml", "json"):
        raise ApiError(201, "o")
    limit = _int(p, "limit")
    limit = cfg.limit_default if limit is None else min(limit, cfg.limit_max)
    offset = _int(p, "offset") or 0
    _flag(p, "del")                       # accepted; this indexer keeps no cart
    if _flag(p, "extended"):
        wanted = None
    else:
        extra = {a.lower() for a in _list(p, "attrs")}
        if len(extra) > 50:
            raise ApiError(201, "attrs")
        wanted = frozenset({"category", "size"} | extra)
    return Ask(fmt, limit, offset, wanted)


def search_query(t: str, p: dict, cats: feeds.Categories, admin: bool = False) -> search.Query:
    """The Query of a search function's parameters (ApiError 201 when wrong;
    `judged=1` is an admin's)."""
    q = p.get("q", "")
    if len(q) > 1000:
        raise ApiError(201, "q")
    extra = []
    for name in ("artist", "album", "label", "track", "author", "title"):
        if t in ("music", "book") and p.get(name, "").strip():
            extra.append(p[name])
    if t == "music" and p.get("year", "").strip():
        _int(p, "year", 1000, 9999)
        extra.append(p["year"])
    words, excluded = search.split_words(" ".join([q, *extra]))
    if len(words) + len(excluded) > search.MAX_WORDS:
        raise ApiError(201, "q: too many words")
    cat_ids = []
    for c in _list(p, "cat"):
        if not c.isdigit() or not c.isascii() or len(c) > 6:
            raise ApiError(201, "cat")
        cat_ids.append(int(c))
    if not cat_ids and t in DEFAULT_CATS:
        cat_ids = [DEFAULT_CATS[t]]
    groups = tuple(sorted({_group(g) for g in _list(p, "group")}))
    if len(groups) > 50:
        raise ApiError(201, "group")
    poster = p.get("poster", "").strip() or None
    if poster is not None and len(poster) > 200:
        raise ApiError(201, "poster")
    episode = None
    if t == "tvsearch":
        try:
            season, ep = parse_season_ep(p.get("season"), p.get("ep"))
        except ValueError as e:
            raise ApiError(201, str(e)) from None
        episode = episode_match(season, ep)
    media_ids = []
    if t in ("tvsearch", "movie"):
        for name, kind in ID_KINDS.items():
            v = p.get(name, "").strip()
            if not v:
                continue
            m = IMDB.match(v) if name == "imdbid" else DIGITS.match(v)
            if not m:
                raise ApiError(201, name)
            media_ids.append((kind, str(int(m.group(1) if name == "imdbid" else m.group(0)))))
    minsize, maxsize = _int(p, "minsize", hi=2**62), _int(p, "maxsize", hi=2**62)
    judged = _flag(p, "judged")
    if judged and not admin:
        raise ApiError(201, "judged: an admin's")
    return search.Query(
        words=words, excluded=excluded, cats=cats.expand(cat_ids), maxage_days=_int(p, "maxage", hi=100_000),
        minsize=minsize, maxsize=maxsize, groups=groups, poster=poster, episode=episode,
        media_ids=tuple(sorted(media_ids)), judged=judged)


def _site(request: Request, apikey: str | None) -> Site:
    cfg = request.app.ctx.web
    base = cfg.base_url.rstrip("/") if cfg.base_url else f"{request.scheme}://{request.host}"
    return Site(base=base, title=cfg.title, apikey=apikey)


def _error(code: int, fmt: str, detail: str | None = None) -> HTTPResponse:
    if fmt == "json":
        return raw(feeds.error_json(code, detail), content_type=JSON)
    return raw(feeds.error(code, detail), content_type=XML)


@bp.get("/api")
async def api(request: Request) -> HTTPResponse:
    try:
        p = _params(request)
    except Exception:                                    # an unparseable query string
        return _error(201, "xml", "query")
    fmt = "json" if p.get("o", "").strip().lower() == "json" else "xml"
    t = p.get("t", "").strip().lower()
    if "t" in p.bad:
        return _error(202, fmt)
    if not t:
        return _error(200, fmt, "t")
    if t in NOT_OFFERED:
        return _error(203, fmt, t)
    if t not in FUNCTIONS:
        return _error(202, fmt)
    ctx = request.app.ctx
    try:
        if t == "caps":
            return await _caps(request, fmt)
        key = p.get("apikey", "").strip()
        if not key or len(key) > 64 or "apikey" in p.bad:
            return _error(100, fmt)
        if t == "get":
            return await _get(request, p, key, fmt)
        site = _site(request, key)
        q = None
        if t in SEARCHES and not p.bad:
            try:
                q, ask = search_query(t, p, ctx.cats), _common(p, ctx.web)
            except ApiError:
                q = None                                 # the key's own error first: its check alone, below
            # the key's check goes along with the search
            if q is not None and not (ctx.web.count_cache and ctx.responses.holds(_response_key(q, ask, site))):
                return await _search(request, q, ask, site, key)
        # the key's check alone: counted on the primary, or judged on a replica and held
        user = await use_request(ctx.db, key)
        if user["code"]:
            return _error(user["code"], fmt)
        if p.bad:
            raise ApiError(201, p.bad[0])
        if q is None:                                    # (else parsed above: the role counts for judged=1 alone)
            ask = _common(p, ctx.web)
        if t in SEARCHES:
            if q is None:
                q = search_query(t, p, ctx.cats, admin=user["admin"])
            return await _search(request, q, ask, site, key, user)
        limits = _limits(user)
        find = _release_find(p)
        if t == "details":
            rows = await ctx.db.read(lambda conn: _details_rows(conn, find, ctx.labels), behind=lambda rows: not rows)
            if not rows:
                raise ApiError(300)
            ask.wanted = None
            return _feed(rows, site, ctx.cats, len(rows), ask, limits)
        return await _getnfo(request, find, p, site, ask, limits)
    except ApiError as e:
        return _error(e.code, fmt, e.detail)
    except psycopg.errors.QueryCanceled:
        log.warning("api: a statement timed out: %s", loggable(request))
        return _error(900, fmt, "timed out")
    except psycopg.Error:
        log.exception("api: database error")
        return _error(900, fmt)
    except Exception:                                    # the contract: errors are documents, never a 500
        log.exception("api: unexpected error on %s", loggable(request))
        return _error(900, fmt)


def _limits(user: dict) -> Limits:
    return Limits(user["requests"], user["requests_max"], user["downloads"], user["downloads_max"])


def _response_key(q: search.Query, ask: Ask, site: Site) -> tuple:
    return q.key(), ask.limit, ask.offset, ask.wanted, ask.fmt, site.base


async def _search(request: Request, q: search.Query, ask: Ask, site: Site, key: str,
                  user: dict | None = None) -> HTTPResponse:
    """`user` is the key's check made, with the primary's state then: a
    document kept under it was rendered from a read of that very state (on
    whichever server), so it is served as it is; else the search is read (a
    replica's when up) and its document kept under the state it read.
    Without `user`, the search checks and counts the key in its own statement
    (reads go to the primary)."""
    ctx = request.app.ctx
    cached = ctx.web.count_cache
    ckey = _response_key(q, ask, site)
    body = ctx.responses.get(ckey, user["catalog_state"]) if cached and user is not None else None
    if body is None:
        found = await search.run(ctx.db, ctx.web, q, ask.limit, ask.offset, totals=ctx.totals if cached else None,
                                 feed=True, labels=ctx.labels, use=None if user is not None else key)
        if user is None:
            user = found.user
            if user["code"]:
                return _error(user["code"], ask.fmt)
        marked = Site(base=site.base, title=site.title, apikey=KEY_MARK)
        kw = dict(site=marked, cats=ctx.cats, total=found.total, offset=ask.offset, wanted=ask.wanted)
        if ask.fmt == "json":
            body = feeds.rss_json(found.rows, **kw, limits_mark=LIMITS_MARK)
        else:
            body = feeds.rss(found.rows, **kw, limits_mark=LIMITS_MARK)
        if cached:
            ctx.responses.put(ckey, found.state, body)
    limits = _limits(user)
    if ask.fmt == "json":
        import json

        body = body.replace(f'"{LIMITS_MARK}"', json.dumps({"@attributes": limits.attrs()}))
        return raw(body.replace(KEY_MARK, key), content_type=JSON)
    body = body.replace(LIMITS_MARK, feeds.limits_xml(limits)).replace(KEY_MARK, key)
    return raw(body, content_type=RSS)


def _feed(rows, site, cats, total, ask: Ask, limits, description=None) -> HTTPResponse:
    kw = dict(site=site, cats=cats, total=total, offset=ask.offset, limits=limits, wanted=ask.wanted,
              description=description)
    if ask.fmt == "json":
        return raw(feeds.rss_json(rows, **kw), content_type=JSON)
    return raw(feeds.rss(rows, **kw), content_type=RSS)


async def _caps(request: Request, fmt: str) -> HTTPResponse:
    ctx = request.app.ctx
    kw = dict(site=_site(request, None), cats=ctx.cats, limit_max=ctx.web.limit_max,
              limit_default=ctx.web.limit_default, known_id_kinds=ctx.id_kinds)
    if fmt == "json":
        return raw(feeds.caps_json(**kw), content_type=JSON)
    return raw(feeds.caps(**kw), content_type=XML)


def _release_find(p: dict) -> tuple[str, object]:
    """(a query for the release's id with one parameter, the parameter) of
    an `id` or `guid` parameter (its 40-hex guid; `id` also takes the
    catalog's number; a merged-away release answers with its survivor)."""
    v = (p.get("id") or p.get("guid") or "").strip()
    if not v:
        raise ApiError(200, "id")
    if GUID.match(v):
        return "SELECT voyager.release_of_guid(%s)", bytes.fromhex(v)
    if DIGITS.match(v) and "id" in p:
        return "SELECT voyager.release_of_id(%s)", int(v)
    raise ApiError(300)


async def _details_rows(conn, find: tuple[str, object], labels: Labels) -> list[dict]:
    cur = await conn.execute(f"SELECT {search.ITEM_COLUMNS} FROM voyager.releases r {search.ITEM_JOINS} "
                             f"WHERE r.id = ({find[0]})", (find[1],))
    cols = [c.name for c in cur.description]
    rows = [dict(zip(cols, row)) for row in await cur.fetchall()]
    await labels.fill(conn, rows)
    return rows


async def _getnfo(request: Request, find: tuple[str, object], p, site, ask: Ask, limits) -> HTTPResponse:
    async def read(conn):
        rows = await _details_rows(conn, find, request.app.ctx.labels)
        if not rows:
            return None
        cur = await conn.execute("SELECT text FROM voyager.release_nfos WHERE release_id = %s", (rows[0]["id"],))
        nfo = await cur.fetchone()
        return rows, nfo[0] if nfo else None

    # no release, or no NFO yet: perhaps only not replayed yet
    found = await request.app.ctx.db.read(read, behind=lambda got: got is None or got[1] is None)
    if found is None:
        raise ApiError(300)
    rows, nfo = found
    if nfo is None:
        raise ApiError(300, "no NFO")
    if _flag(p, "raw"):
        return raw(nfo, content_type="text/plain; charset=utf-8")
    return _feed(rows, site, request.app.ctx.cats, len(rows), ask, limits, description=nfo)


UNSAFE_NAME = re.compile(r'[\x00-\x1f\x7f"\\/:*?<>|]+')


def _filename(name: str) -> str:
    safe = UNSAFE_NAME.sub("_", name).strip(" .") or "release"
    return safe[:200]


def _use_chunk_sql(find: str) -> str:
    """The download: the key's code (100, 101, 300, 501 in that order),
    its user, and the release's chunks when it is allowed (nzb_source's rows,
    a row of nulls when not), in one round trip. Counted (the download and
    the grab) on the primary, judged on a replica (web/routing.py's `use`)."""
    return f"""WITH f AS MATERIALIZED ({find}),
                 u AS MATERIALIZED (SELECT u.code, u.user_id FROM voyager.api_use(%(key)s, 'download', (SELECT x FROM f),
                                    %(held)s, %(sent)s::integer[], %(sent_lsn)s::pg_lsn[]) u)
            SELECT u.code, u.user_id, s.* FROM u LEFT JOIN (f CROSS JOIN LATERAL voyager.nzb_source(f.x) s) ON u.code = 0
             ORDER BY s.chunk_no"""


# the key and the day's count of a request (not a download)
USE_REQUEST = f"SELECT * FROM {search.USE_REQUEST_CALL}"


async def use_request(db, key: str) -> dict:
    """The key's check of a request (voyager.api_use's row), where `db.use` runs it."""
    async def check(conn, params):
        cur = await conn.execute(USE_REQUEST, params)
        return dict(zip(search.column_names(cur, USE_REQUEST), await cur.fetchone()))

    # a key the replica has not replayed yet: the primary's to judge
    user = await db.use(key, "request", check, behind=lambda u: u["code"] == 100)
    db.used(key, user, "request")
    return user

# a merged-away release answers with its survivor
BY_GUID = "SELECT x FROM voyager.release_of_guid(%(arg)s) x WHERE x IS NOT NULL"
BY_ID = "SELECT x FROM voyager.release_of_id(%(arg)s) x WHERE x IS NOT NULL"
BY_NONE = "SELECT NULL::bigint AS x WHERE %(arg)s::text IS NULL"
USE = {k: _use_chunk_sql(f) for k, f in (("guid", BY_GUID), ("id", BY_ID), ("none", BY_NONE))}


async def _get(request: Request, p: dict, key: str, fmt: str) -> HTTPResponse:
    """The key, the release, the day's downloads and the release's chunks
    in one call: the primary's, which counts the download, or a replica's,
    which judges it (the count held for the primary)."""
    ctx = request.app.ctx
    if p.bad:
        # the key's own error first, then the parameter's; nothing counted
        async with ctx.db.primary() as conn:
            cur = await conn.execute("SELECT code FROM voyager.api_use(%s, 'none')", (key,))
            return _error((await cur.fetchone())[0] or 201, fmt, p.bad[0])
    v = (p.get("id") or p.get("guid") or "").strip()
    if GUID.match(v):
        by, arg = "guid", bytes.fromhex(v)
    elif DIGITS.match(v) and "id" in p:
        by, arg = "id", int(v)
    else:
        by, arg = "none", None
    sql = USE[by]

    async def read(conn, check):
        # binary: the chunks as they are stored, not in hex to be read back
        cur = await conn.execute(sql, {"arg": arg, **check}, binary=True)
        rows = await cur.fetchall()
        return ({"code": rows[0][0], "user_id": rows[0][1]},
                release_of_rows(search.column_names(cur, sql)[2:], [r[2:] for r in rows]))

    # a key, a release or its chunks a replica has not replayed yet: the primary's
    user, rel = await ctx.db.use(key, "download", read, behind=lambda got: got[0]["code"] in (100, 300) or (
        got[0]["code"] == 0 and (got[1] is None or got[1]["chunks"] is None)))
    ctx.db.used(key, user, "download", rel["id"] if rel is not None else None)
    code = user["code"]
    if code == 300 and not v:
        code = 200
    if code:
        return _error(code, fmt, "id" if code == 200 else None)
    if rel is None or rel["chunks"] is None:
        raise ApiError(300, "no segments")
    return nzb_response(rel, ctx.cats)


def nzb_response(rel: dict, cats: feeds.Categories) -> HTTPResponse:
    """The NZB as a download, with the DNZB headers SABnzbd and NZBGet read."""
    try:
        body = nzb_bytes(rel)
    except ValueError:
        log.exception("a release chunk does not decode: release %s", rel["id"])
        raise ApiError(900, "release chunk") from None
    name = _filename(rel["name"])
    headers = {
        "Content-Disposition": f'attachment; filename="{_ascii(name)}.nzb"; filename*=UTF-8\'\'{_quote(name)}.nzb',
        "X-DNZB-Name": _ascii(name),
        "X-DNZB-Category": _ascii(cats.path(rel["category"])),
    }
    if rel["password"]:
        headers["X-DNZB-Password"] = _ascii(rel["password"])
    return raw(body, content_type="application/x-nzb", headers=headers)


NOT_PRINTABLE = re.compile(r"[^\x20-\x7e]")


def _ascii(s: str) -> str:
    """A header value: printable ASCII (HTTP headers are Latin-1 at best)."""
    return NOT_PRINTABLE.sub("_", s)


def _quote(s: str) -> str:
    return quote(s, safe="")
