"""The web pages: server-rendered HTML (Jinja2, autoescaped), no JavaScript.

Every page but the sign-in needs a session: a random cookie whose SHA-256 is
a row of voyager.web_sessions. Users sign in with their name and API key
(`voyager users add NAME` prints it) through voyager.sign_in, which limits an
address's failures; the sign-in form carries a token tied to a cookie of its
own, so no other site can post it. The status page and judged releases are an
admin's.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from urllib.parse import urlencode

import psycopg
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, html, redirect

from . import search
from .api import ApiError, _group, nzb_response, valid_text
from .app import settings_for
from .labels import Labels
from .names import name_info
from .nzbs import file_list, release_chunk

log = logging.getLogger("voyager.web.pages")
bp = Blueprint("pages")
COOKIE = "voyager_session"
LOGIN_COOKIE = "voyager_login"               # the sign-in form's token is tied to it
PAGE = 50
KINDS = {1: "name", 2: "file", 3: "nfo", 4: "par2", 5: "media", 6: "album member", 7: "merged", 8: "spot"}
PASSWORD = {0: "none known", 1: "passworded", 2: "maybe passworded"}
CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; "
       "frame-ancestors 'none'; base-uri 'none'")
GUID = re.compile(r"^[0-9a-f]{40}$")
# the judge's rules as a release's page states them, with the thresholds of
# the rule set that judged it (its `judge` section)
RULES = {
    "dead": "every probed first article of the release is gone (the server answered 430)",
    "fake": "a film, episode or music name whose content is a program: every archive entry or file read is "
            "one, by its extension or its first bytes",
    "repeated": "every file's start (its first 16 KiB and size) is held by {repeat_releases} releases or more",
    "locked": "passworded, and no password is known (from an NZB, the subject, the NFO or a spot)",
    "unusable": "no readable name, no inner name and no merge naming it, {unusable_after_hours} hours after "
                "settling",
    "merged": "merged into another release",
}
# what matched (release_judgements.detail), by key
MATCHED = {"gone": "first articles gone", "programs": "programs", "starts": "file starts shared",
           "holders": "releases holding each start (the fewest)", "source": "passworded by",
           "settled_at": "settled"}


def _size(n) -> str:
    if n is None:
        return ""
    n = float(n)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if n < 1024 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return ""


def _age(dt) -> str:
    if dt is None:
        return ""
    s = (datetime.now(timezone.utc) - dt).total_seconds()
    if s < 3600:
        return f"{max(int(s // 60), 0)}m"
    if s < 86400:
        return f"{int(s // 3600)}h"
    return f"{int(s // 86400)}d"


def _when(dt) -> str:
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC") if dt else ""


def _span(a, b) -> str:
    if not a or not b:
        return ""
    s = int((b - a).total_seconds())
    h, rem = divmod(max(s, 0), 3600)
    return f"{h}h {rem // 60:02d}m" if h else f"{rem // 60}m {rem % 60:02d}s"


def highlight(text: str, words) -> Markup:
    """The text, escaped, with the searched words marked."""
    if not words:
        return escape(text)
    pattern = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)), re.IGNORECASE)
    out, at = [], 0
    for m in pattern.finditer(text):
        out.append(escape(text[at:m.start()]))
        out.append(Markup("<mark>%s</mark>") % text[m.start():m.end()])
        at = m.end()
    out.append(escape(text[at:]))
    return Markup("").join(out)


_env = Environment(loader=FileSystemLoader(str(Path(__file__).parent / "templates")),
                   autoescape=select_autoescape(default=True, default_for_string=True), trim_blocks=True,
                   lstrip_blocks=True)
_env.filters.update(size=_size, age=_age, when=_when)
_env.globals.update(highlight=highlight, name_info=name_info, KINDS=KINDS, PASSWORD=PASSWORD)


def render(request: Request, template: str, status: int = 200, **ctx) -> HTTPResponse:
    ctx.setdefault("user", getattr(request.ctx, "user", None))
    ctx.setdefault("title", request.app.ctx.web.title)
    ctx["site_title"] = request.app.ctx.web.title
    ctx["csrf"] = getattr(request.ctx, "csrf", "")
    body = _env.get_template(template).render(**ctx)
    return html(body, status=status, headers=_headers())


def _headers() -> dict:
    return {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "same-origin", "X-Frame-Options": "DENY", "Cache-Control": "no-store"}


def _hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def _same(given: str, token: str) -> bool:
    """A form's token against ours, in constant time (as bytes: a str with
    other than ASCII would raise)."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), token.encode())


def _csrf(token: str) -> str:
    return hmac.new(token.encode(), b"voyager-form", hashlib.sha256).hexdigest()[:32]


async def _session_user(conn, token: str) -> dict | None:
    cur = await conn.execute(
        """SELECT u.id, u.name, u.role, u.suspended, r.admin,
                  coalesce(u.requests_per_day, r.requests_per_day) AS requests_max,
                  coalesce(u.downloads_per_day, r.downloads_per_day) AS downloads_max
             FROM voyager.web_sessions s JOIN voyager.users u ON u.id = s.user_id
             JOIN voyager.roles r ON r.name = u.role
            WHERE s.token_hash = %s AND s.expires_at > now()""", (_hash(token),))
    row = await cur.fetchone()
    return dict(zip([c.name for c in cur.description], row)) if row else None


def _login_redirect(request: Request) -> HTTPResponse:
    nxt = request.path + (f"?{request.query_string}" if request.query_string else "")
    return redirect("/login?" + urlencode({"next": nxt}), status=303, headers=_headers())


def signed_in(handler):
    """A page that needs a session: otherwise to the sign-in, answering
    nothing. The session is read where reads go, and from the primary when
    not found there (a sign-in's session a replica has not replayed yet)."""
    async def wrapped(request: Request, *args, **kwargs):
        token = request.cookies.get(COOKIE)
        user = None
        if token and len(token) <= 100:
            user = await request.app.ctx.db.read(partial(_session_user, token=token), behind=lambda u: u is None)
        if user is None or user["suspended"]:
            return _login_redirect(request)
        request.ctx.user = user
        request.ctx.csrf = _csrf(token)
        try:
            return await handler(request, *args, **kwargs)
        except psycopg.errors.QueryCanceled:
            return render(request, "error.html", status=503, message="The search took too long; narrow it down.")
    wrapped.__name__ = handler.__name__
    return wrapped


def _safe_next(nxt: str | None) -> str:
    if not nxt or not nxt.startswith("/") or nxt.startswith("//") or "\\" in nxt or len(nxt) > 2000:
        return "/"
    return nxt


def _login_form(request: Request, status: int = 200, nxt: str = "/", error: str | None = None) -> HTTPResponse:
    """The sign-in form with its token: the browser's sign-in cookie (made
    when it has none) and, in the form, that cookie's HMAC."""
    token = request.cookies.get(LOGIN_COOKIE) or ""
    fresh = not (20 <= len(token) <= 100 and valid_text(token))
    if fresh:
        token = secrets.token_urlsafe(32)
    resp = render(request, "login.html", status=status, next=nxt, error=error, login_csrf=_csrf(token))
    if fresh:
        resp.add_cookie(LOGIN_COOKIE, token, httponly=True, samesite="Strict",
                        secure=request.app.ctx.web.secure_cookies, max_age=86400, path="/login")
    return resp


def _address(request: Request) -> str:
    return (request.remote_addr or request.ip or "unknown")[:100]


@bp.get("/login")
async def login_form(request: Request) -> HTTPResponse:
    nxt = request.args.get("next")
    return _login_form(request, nxt=_safe_next(nxt if nxt and valid_text(nxt) else None))


@bp.post("/login")
async def login(request: Request) -> HTTPResponse:
    try:
        form = request.form or {}
    except Exception:                                    # a body that is no form
        form = {}
    fields = {k: (form.get(k) or "") for k in ("name", "apikey", "next", "csrf")}
    if not all(valid_text(v) for v in fields.values()):
        return _login_form(request, 400, error="The form held characters no name or key has.")
    name, key = fields["name"].strip(), fields["apikey"].strip()
    nxt = _safe_next(fields["next"])
    token = request.cookies.get(LOGIN_COOKIE) or ""
    if not token or not valid_text(token) or not _same(fields["csrf"], _csrf(token)):
        return _login_form(request, 403, nxt, "That form has expired; sign in again.")
    user, throttled = None, False
    if name and key and len(name) <= 64 and len(key) <= 64:
        async with request.app.ctx.db.primary() as conn:
            cur = await conn.execute("SELECT * FROM voyager.sign_in(%s, %s, %s)", (name, key, _address(request)))
            user, throttled = await cur.fetchone()
            if user is not None:
                session = secrets.token_urlsafe(32)
                await conn.execute(
                    """INSERT INTO voyager.web_sessions (token_hash, user_id, expires_at)
                       VALUES (%s, %s, now() + make_interval(days => %s))""",
                    (_hash(session), user, request.app.ctx.web.session_days))
                await conn.execute("DELETE FROM voyager.web_sessions WHERE expires_at < now()")
    if throttled:
        return _login_form(request, 429, nxt, "Too many failed sign-ins from your address; try again later.")
    if user is None:
        return _login_form(request, 401, nxt, "Unknown name or API key.")
    resp = redirect(nxt, status=303, headers=_headers())
    resp.add_cookie(COOKIE, session, httponly=True, samesite="Lax", secure=request.app.ctx.web.secure_cookies,
                    max_age=request.app.ctx.web.session_days * 86400, path="/")
    return resp


@bp.post("/logout")
@signed_in
async def logout(request: Request) -> HTTPResponse:
    form = request.form or {}
    if not _same(form.get("csrf") or "", request.ctx.csrf):
        return render(request, "error.html", status=403, message="That form has expired.")
    async with request.app.ctx.db.primary() as conn:
        await conn.execute("DELETE FROM voyager.web_sessions WHERE token_hash = %s",
                           (_hash(request.cookies.get(COOKIE)),))
    resp = redirect("/login", status=303, headers=_headers())
    resp.delete_cookie(COOKIE, path="/")
    return resp


# -- listings -------------------------------------------------------------------

def _form_int(args, name: str, scale: int = 1, hi: int = 2**62) -> tuple[int | None, str | None]:
    v = (args.get(name) or "").strip()
    if not v:
        return None, None
    try:
        n = float(v)
    except ValueError:
        return None, f"{name}: not a number"
    if not 0 <= n * scale <= hi or n != n:
        return None, f"{name}: out of range"
    return int(n * scale), None


def _tristate(args, name: str) -> bool | None:
    v = (args.get(name) or "").strip().lower()
    return True if v == "yes" else False if v == "no" else None


def web_query(request: Request, **fixed) -> tuple[search.Query, dict, list[str]]:
    """The Query of the search form's fields, the fields as given, and what was wrong."""
    args = request.get_args(keep_blank_values=True)
    form = {k: (args.get(k) or "").strip()[:1000] for k in
            ("q", "cat", "group", "minsize", "maxsize", "maxage", "complete", "passworded", "judged", "poster")}
    problems = []
    for k, v in form.items():
        if not valid_text(v):
            problems.append(f"{k}: not valid text")
            form[k] = ""
    if form["judged"] and not request.ctx.user["admin"]:
        problems.append("judged releases are an admin's")
        form["judged"] = ""
    words, excluded = search.split_words(form["q"])
    if len(words) + len(excluded) > search.MAX_WORDS:
        problems.append("too many words")
        words, excluded = words[:search.MAX_WORDS], ()
    cats = frozenset()
    cat = fixed.get("cat") or form["cat"]
    if cat:
        if str(cat).isdigit() and len(str(cat)) <= 6:
            cats = request.app.ctx.cats.expand([int(cat)])
        else:
            problems.append("category: not a category")
    groups = ()
    group = fixed.get("group") or form["group"]
    if group:
        try:
            groups = (_group(group),)
        except ApiError:
            problems.append("group: not a group name")
    minsize, e1 = _form_int(form, "minsize", 1024 * 1024)
    maxsize, e2 = _form_int(form, "maxsize", 1024 * 1024)
    maxage, e3 = _form_int(form, "maxage", 1, 100_000)
    problems += [e for e in (e1, e2, e3) if e]
    q = search.Query(words=words, excluded=excluded, cats=cats, maxage_days=maxage, minsize=minsize,
                     maxsize=maxsize, groups=groups, poster=form["poster"][:200] or None,
                     complete=_tristate(form, "complete"), passworded=_tristate(form, "passworded"),
                     judged=form["judged"] == "1")
    return q, form, problems


async def _listing(request: Request, heading: str, template: str = "list.html", **fixed) -> HTTPResponse:
    ctx = request.app.ctx
    q, form, problems = web_query(request, **fixed)
    page = request.args.get("page") or ""
    page, _ = _form_int({"page": page if valid_text(page) else ""}, "page", 1, 100_000)
    page = max(page or 1, 1)
    found = await search.run(ctx.db, ctx.web, q, PAGE, (page - 1) * PAGE,
                             totals=ctx.totals if ctx.web.count_cache else None, labels=ctx.labels)
    total, rows = found.total, found.rows
    keep = {k: v for k, v in form.items() if v}
    pages = {}
    if page > 1:
        pages["prev"] = "?" + urlencode({**keep, "page": page - 1})
    if page * PAGE < total:
        pages["next"] = "?" + urlencode({**keep, "page": page + 1})
    return render(request, template, heading=heading, rows=rows, total=total, page=page, pages=pages, form=form,
                  problems=problems, words=q.words, cats=ctx.cats, first=(page - 1) * PAGE + 1,
                  query_string=urlencode({"q": form["q"]}) if form["q"] else "")


async def _state(conn) -> int:
    cur = await conn.execute("SELECT voyager.catalog_state()")
    return (await cur.fetchone())[0]


@bp.get("/")
@signed_in
async def home(request: Request) -> HTTPResponse:
    return await _listing(request, "Newest releases")


@bp.get("/search")
@signed_in
async def search_page(request: Request) -> HTTPResponse:
    q = (request.args.get("q") or "").strip()
    return await _listing(request, f"Search: {q}" if q else "Search")


@bp.get("/new")
@signed_in
async def newest(request: Request) -> HTTPResponse:
    return await _listing(request, "Newest releases")


VISIBLE = "NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = r.id AND j.hidden)"


@bp.get("/browse")
@signed_in
async def browse(request: Request) -> HTTPResponse:
    ctx = request.app.ctx
    by_cat, by_group = await ctx.db.read(partial(_browse_counts, ctx=ctx))
    tree = []
    for root in ctx.cats.roots():
        subs = [(c, ctx.cats.names[c], by_cat.get(c, 0)) for c in ctx.cats.children(root)]
        tree.append((root, ctx.cats.names[root], by_cat.get(root, 0) + sum(n for _c, _n, n in subs), subs))
    return render(request, "browse.html", tree=tree, groups=by_group)


async def _browse_counts(conn, ctx) -> tuple[dict, list]:
    """Releases by category and by group, kept per catalog state (the state of the server read)."""
    state = await _state(conn)
    key = ("browse-counts",)
    counts = ctx.totals.get(key, state) if ctx.web.count_cache else None
    if counts is None:
        async with settings_for(conn, ctx.web):
            cur = await conn.execute(
                f"""SELECT (SELECT coalesce(jsonb_object_agg(c, n), '{{}}') FROM
                             (SELECT voyager.search_category(category) AS c, count(*) AS n FROM voyager.releases r
                               WHERE {VISIBLE} GROUP BY 1) x),
                          (SELECT coalesce(jsonb_agg(jsonb_build_array(g, n) ORDER BY g), '[]') FROM
                             (SELECT g, sum(n) AS n FROM
                                (SELECT group_set_id, count(*) AS n FROM voyager.releases r WHERE {VISIBLE} GROUP BY 1) y
                                JOIN voyager.group_sets gs ON gs.id = y.group_set_id, unnest(gs.groups) g
                               GROUP BY g) z),
                          voyager.catalog_state()""")
            by_cat, by_group, seen = await cur.fetchone()
        counts = ({int(k): v for k, v in by_cat.items()}, by_group)
        ctx.totals.put(key, seen, counts)
    return counts


@bp.get("/browse/category/<cat:int>")
@signed_in
async def browse_category(request: Request, cat: int) -> HTTPResponse:
    cats = request.app.ctx.cats
    if cat not in cats.names:
        return render(request, "error.html", status=404, message="No such category.")
    return await _listing(request, cats.path(cat), cat=str(cat))


@bp.get("/browse/group/<group:str>")
@signed_in
async def browse_group(request: Request, group: str) -> HTTPResponse:
    try:
        name = _group(group)
    except ApiError:
        return render(request, "error.html", status=404, message="No such group.")
    return await _listing(request, name, group=name)


# -- a release -------------------------------------------------------------------

async def _release_by_guid(conn, guid: str, labels: Labels) -> dict | None:
    if not GUID.match(guid):
        return None
    cur = await conn.execute(
        f"""SELECT {search.ITEM_COLUMNS}, gs.groups, r.settled_at, r.first_seen_at, r.source,
                   r.first_article, r.last_article, pw.password AS password_text
              FROM voyager.releases r {search.ITEM_JOINS}
              JOIN voyager.group_sets gs ON gs.id = r.group_set_id
             WHERE r.id = voyager.release_of_guid(%s)""", (bytes.fromhex(guid),))
    row = await cur.fetchone()
    if row is None:
        return None
    rel = dict(zip([c.name for c in cur.description], row))
    await labels.fill(conn, [rel])
    return rel


@bp.get("/release/<guid:str>")
@signed_in
async def release_page(request: Request, guid: str) -> HTTPResponse:
    guid = guid.lower()

    async def read(conn) -> dict | None:
        rel = await _release_by_guid(conn, guid, request.app.ctx.labels)
        if rel is None:
            return None
        if rel["release_key"].hex() != guid:           # merged away: the survivor's page
            return {"survivor": rel["release_key"].hex()}
        cur = await conn.execute("SELECT kind, text FROM voyager.release_texts WHERE release_id = %s "
                                 "ORDER BY kind, text", (rel["id"],))
        texts = await cur.fetchall()
        cur = await conn.execute("SELECT text FROM voyager.release_nfos WHERE release_id = %s", (rel["id"],))
        nfo = await cur.fetchone()
        return {"rel": rel, "texts": texts, "nfo": nfo[0] if nfo else None, "chunk": await release_chunk(conn, rel["id"]),
                "judgement": await _judgement(conn, rel["id"]) if rel["verdict"] else None,
                "spots": await _spots(conn, rel["id"])}

    # not found on a replica: perhaps not replayed yet
    page = await request.app.ctx.db.read(read, behind=lambda got: got is None)
    if page is None:
        return render(request, "error.html", status=404, message="No such release.")
    if "survivor" in page:
        return redirect("/release/" + page["survivor"], status=301, headers=_headers())
    rel, texts, chunk = page["rel"], page["texts"], page["chunk"]
    words, _ = search.split_words(request.args.get("q") or "")
    files, broken = [], False
    if chunk and chunk["chunks"] is not None:
        try:
            files = file_list(chunk["chunks"])
        except ValueError:
            broken = True
    matched = [(k, t) for k, t in texts if words and all(w in t.lower() for w in words)]
    return render(request, "release.html", rel=rel, guid=guid, texts=texts, matched=matched, words=words,
                  files=files, broken=broken, cats=request.app.ctx.cats, span=_span(rel["posted_at"], rel["last_posted_at"]),
                  info=name_info(rel["name"]), nfo=page["nfo"], judgement=page["judgement"], spots=page["spots"])


async def _spots(conn, release_id: int) -> list[dict]:
    """The standing spots linked to a release or to a release merged into it:
    what the spotter posted (title, description, website), who (the spotter's
    id) and whether its signature was verified and by a trusted key."""
    cur = await conn.execute(
        """SELECT s.title, s.description, s.website, s.spotter_id, s.verified, s.trusted, s.posted_at, m.via
             FROM voyager.spot_matches m JOIN voyager.spots s ON s.message_id = m.spot_id AND s.disposed_at IS NULL
            WHERE m.release_id = %s
               OR m.release_id IN (SELECT r.id FROM voyager.releases r WHERE r.merged_into = %s)
            ORDER BY s.posted_at DESC NULLS LAST, s.message_id""", (release_id, release_id))
    return [dict(zip([c.name for c in cur.description], row)) for row in await cur.fetchall()]


class _Thresholds(dict):
    """A judge section for RULES' sentences: a threshold it lacks reads as `?`."""

    def __missing__(self, key: str) -> str:
        return "?"


async def _judgement(conn, release_id: int) -> dict | None:
    """A release's verdict as its page shows it: the rule in words with the
    thresholds of the rule set that judged it, what matched, the version, when."""
    cur = await conn.execute(
        # a rule set without a judge section judges by rule set 1's, as judge_releases does
        """SELECT j.verdict, j.hidden, j.rule_version, j.detail, j.judged_at,
                  coalesce(rs.rules -> 'judge', (SELECT o.rules -> 'judge' FROM voyager.rule_sets o WHERE o.version = 1))
             FROM voyager.release_judgements j LEFT JOIN voyager.rule_sets rs ON rs.version = j.rule_version
            WHERE j.release_id = %s""", (release_id,))
    row = await cur.fetchone()
    if row is None:
        return None
    verdict, hidden, version, detail, judged_at, rules = row
    rule = RULES.get(verdict, verdict).format_map(_Thresholds(rules or {}))
    matched = [(MATCHED.get(k, k), ", ".join(map(str, v)) if isinstance(v, list) else str(v))
               for k, v in (detail or {}).items()]
    return {"verdict": verdict, "hidden": hidden, "rule": rule, "matched": matched, "rule_version": version,
            "judged_at": judged_at}


@bp.get("/nzb/<guid:str>")
@signed_in
async def nzb_download(request: Request, guid: str) -> HTTPResponse:
    user = request.ctx.user
    db = request.app.ctx.db
    rel = await db.read(partial(_release_by_guid, guid=guid.lower(), labels=request.app.ctx.labels),
                        behind=lambda r: r is None)
    if rel is None:
        return render(request, "error.html", status=404, message="No such release.")
    async with db.primary() as conn:                   # the download counted: a write
        cur = await conn.execute("SELECT code FROM voyager.user_use(%s, 'download', %s)", (user["id"], rel["id"]))
        (code,) = await cur.fetchone()
    if code == 501:
        return render(request, "error.html", status=429, message="Your NZB downloads for today are used up.")
    if code:
        return render(request, "error.html", status=403, message="Downloads are not open to this account.")
    chunk = await db.read(partial(release_chunk, release_id=rel["id"]),
                          behind=lambda c: c is None or c["chunks"] is None)
    if chunk is None or chunk["chunks"] is None:
        return render(request, "error.html", status=404, message="This release has no segments.")
    try:
        return nzb_response(chunk, request.app.ctx.cats)
    except ApiError:
        return render(request, "error.html", status=500, message="This release's segment list is damaged.")


# -- the account and the status ------------------------------------------------------

@bp.get("/account")
@signed_in
async def account(request: Request) -> HTTPResponse:
    user = request.ctx.user
    async with request.app.ctx.db.primary() as conn:     # where the requests have just counted
        cur = await conn.execute("SELECT requests, downloads FROM voyager.user_days "
                                 "WHERE user_id = %s AND day = (now() AT TIME ZONE 'UTC')::date", (user["id"],))
        today = await cur.fetchone() or (0, 0)
    return render(request, "account.html", today=today, api_url=f"{request.scheme}://{request.host}/api")


@bp.get("/status")
@signed_in
async def status(request: Request) -> HTTPResponse:
    """The panels of `voyager status` (voyager.status.PANELS: the same views), and the web's own figures."""
    from voyager.status import PANELS

    if not request.ctx.user["admin"]:
        return render(request, "error.html", status=403, message="The status page is an admin's.")
    panels = []
    # the primary's views: the system as it runs (a standby's own would tell of its replay)
    async with request.app.ctx.db.primary() as conn:
        for key, title, view, one in PANELS:
            cur = await conn.execute(f"SELECT * FROM {view} LIMIT 500")
            panels.append((key, title, view, one, [c.name for c in cur.description], await cur.fetchall()))
        cur = await conn.execute(
            """SELECT (SELECT coalesce(sum(grabs), 0) FROM voyager.release_grabs) AS grabs,
                      (SELECT count(*) FROM voyager.users) AS users,
                      (SELECT coalesce(sum(requests), 0) FROM voyager.user_days
                        WHERE day = (now() AT TIME ZONE 'UTC')::date) AS api_requests_today,
                      (SELECT coalesce(sum(downloads), 0) FROM voyager.user_days
                        WHERE day = (now() AT TIME ZONE 'UTC')::date) AS nzbs_today""")
        figures = dict(zip([c.name for c in cur.description], await cur.fetchone()))
    tally = request.app.ctx.db.tally
    if tally is not None:
        # judged on the replicas, not written yet: this process's alone
        figures["api_counts_held"] = tally.pending()
        figures["api_count_writes_failed"] = tally.failed
    return render(request, "status.html", panels=panels, figures=figures, replicas=request.app.ctx.db.figures())


def _cell(v, name: str = "") -> str:
    """A value as `voyager status` prints it (times, sizes, JSON), by its column's name."""
    from voyager.status import cell

    return cell(name, v)


_env.filters["cell"] = _cell
