"""Searches of the catalog: the web parses a `Query`, the database plans it.

A search is a `Query` (words, categories, sizes, age, groups, poster, a
season/episode, outside IDs, flags); it gives an exact total and a page of
release rows, newest first, in one statement: voyager.search_page() decides
the way (words alone, categories alone, any other search's first page,
shared or counted total, the page from the matches or walked newest first,
whole words that match nothing asked again as substrings) and writes nothing.

Words are whole words: voyager.search_words() splits a text into runs of
letters and digits, and a release matches when one of its texts has every
word of the query (release_texts' words GIN index: exact posting lists, no
recheck); as substrings (`substring`) they go through the trigram index.

What a search leaves for later is a statement of its own after it, on the
primary (`leave`; the search itself may have read a replica): a common
word's tracking asked of the fold (voyager.ask_search_promotion), a counted
total kept for the web's other processes (voyager.keep_search_total). Totals
are kept once per catalog state: voyager.catalog_state() moves with every
committed change of what a search reads (statement triggers), so a total
cached under a state is exact for as long as the state is the one read. The
search's statement reads the state in its own snapshot, on whichever server
it runs, and a cached total goes along only for that state.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import OrderedDict
from dataclasses import dataclass, replace

from .labels import Labels
from .names import EpisodeMatch

WORD = re.compile(r"[^\W_]+")
MAX_WORDS = 16


@dataclass(frozen=True)
class Query:
    words: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    cats: frozenset[int] = frozenset()     # expanded: parents with their subcategories
    maxage_days: int | None = None
    minsize: int | None = None
    maxsize: int | None = None
    groups: tuple[str, ...] = ()
    poster: str | None = None
    episode: EpisodeMatch | None = None
    media_ids: tuple[tuple[str, str], ...] = ()
    complete: bool | None = None
    passworded: bool | None = None
    judged: bool = False                   # judged-hidden releases too
    substring: bool = False                # words as substrings (the trigram index), not whole words

    def key(self) -> tuple:
        return (self.words, self.excluded, tuple(sorted(self.cats)), self.maxage_days, self.minsize, self.maxsize,
                self.groups, self.poster, self.episode, self.media_ids, self.complete, self.passworded, self.judged,
                self.substring)


def split_words(q: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(words, excluded words) of a query: letters and digits, `-word` excludes."""
    words: list[str] = []
    excluded: list[str] = []
    for token in q.split():
        neg = token.startswith("-") and len(token) > 1
        parts = [w.lower() for w in WORD.findall(token)]
        (excluded if neg else words).extend(parts)
    return tuple(dict.fromkeys(words)), tuple(dict.fromkeys(excluded))


# what a feed's item shows (web/feeds.py reads these and no more): the API's
# searches read them alone, a tenth of a millisecond less a page than the
# pages' rows below (fewer columns to send and load, no judgement to look up).
# The group's and poster's names are the web's own to add (web/labels.py).
FEED_COLUMNS = """r.release_key, r.name, r.posted_at, r.bytes, r.files, voyager.search_category(r.category) AS category,
       r.group_id, r.poster_id, coalesce(gr.grabs, 0) AS grabs, coalesce(pw.status, 0) AS password"""

FEED_JOINS = """LEFT JOIN voyager.release_grabs gr ON gr.release_id = r.id
  LEFT JOIN voyager.release_passwords pw ON pw.release_id = r.id"""

# what a result row shows on the pages and in details: the feed's and more
ITEM_COLUMNS = f"""r.id, {FEED_COLUMNS},
       r.last_posted_at, r.segments, r.file_total, r.complete, r.has_par2, j.verdict"""

ITEM_JOINS = FEED_JOINS + """
  LEFT JOIN voyager.release_judgements j ON j.release_id = r.id"""


def _page_rows(columns: str, joins: str) -> str:
    """A one-statement page's rows: its release ids (a CTE `page` of total,
    release_id, posted_at) joined to what a result row shows."""
    return f"""LEFT JOIN LATERAL (
    SELECT {columns} FROM voyager.releases r
      {joins}
     WHERE r.id = page.release_id) x ON true
 ORDER BY page.posted_at DESC, page.release_id DESC"""


class Totals:
    """Exact totals per query and catalog state, least recently used out."""

    def __init__(self, size: int = 20_000):
        self.size = size
        self.entries: OrderedDict[tuple, tuple[int, int]] = OrderedDict()

    def get(self, key: tuple, state: int | None) -> int | None:
        hit = self.entries.get(key)
        if hit is None or state is None or hit[0] != state:
            return None
        self.entries.move_to_end(key)
        return hit[1]

    def held(self, key: tuple) -> tuple[int | None, int | None]:
        """(state, total) held for a query, whichever state it was counted at."""
        hit = self.entries.get(key)
        if hit is None:
            return None, None
        self.entries.move_to_end(key)
        return hit

    def put(self, key: tuple, state: int, total: int) -> None:
        self.entries[key] = (state, total)
        self.entries.move_to_end(key)
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)


# a first page's matches at most: voyager.search_page's own, unless a test sets it
PROBE: int | None = None

# what search_page says of the page (the total first), the catalog state the
# statement read and whether on a standby, then each row's release columns (never null first)
SUMMARY = ("total", "kept", "state", "plan", "substrings", "promote", "read_state", "standby")

# A total this process keeps goes along only when it was counted at the state
# the statement reads (search_page is STABLE: the same snapshot). The shared
# totals are asked for only on the primary: voyager.search_totals is
# unlogged, so a standby has none and refuses to read it.
# With `use`, the statement is the API request's whole round trip: first the
# key's check (voyager.api_use, its columns before the summary's: counted on
# the primary, judged on a replica, web/routing.py's `use`), then the search
# behind the key's code (the gate a subquery of its own, OFFSET 0, so a
# refused key reads nothing).
# the key's check of an API request (its arguments web/routing.py's `use`'s)
USE_REQUEST_CALL = "voyager.api_use(%(key)s, 'request', NULL, %(held)s, %(sent)s::integer[], %(sent_lsn)s::pg_lsn[])"


def _search_statement(columns: str, joins: str, use: bool = False) -> str:
    page = """voyager.search_page(%(q)s::jsonb, %(limit)s, %(offset)s,
        CASE WHEN s.state = %(total_state)s::bigint THEN %(total)s::bigint END,
        CASE WHEN NOT s.standby THEN %(shared)s::bytea END,
        CASE WHEN s.state = %(substring_total_state)s::bigint THEN %(substring_total)s::bigint END,
        CASE WHEN NOT s.standby THEN %(substring_shared)s::bytea END, s.state, %(plan)s, %(probe)s, %(releases)s)"""
    if use:
        page = f"LATERAL (SELECT * FROM {page} WHERE u.code = 0 OFFSET 0)"
    return f"""WITH {f"u AS MATERIALIZED (SELECT * FROM {USE_REQUEST_CALL})," if use else ""}
s AS MATERIALIZED (SELECT voyager.catalog_state() AS state, pg_is_in_recovery() AS standby),
page AS MATERIALIZED (SELECT p.* FROM s{", u" if use else ""}, {page} p)
SELECT {"u.*, " if use else ""}{", ".join(f"page.{k}" for k in SUMMARY[:-2])}, s.state AS read_state, s.standby, x.*
  FROM {"u, " if use else ""}s LEFT JOIN page ON true {_page_rows(columns, joins)}"""


SEARCH_SQL = _search_statement(ITEM_COLUMNS, ITEM_JOINS)
FEED_SEARCH_SQL = _search_statement(FEED_COLUMNS, FEED_JOINS)
USE_FEED_SEARCH_SQL = _search_statement(FEED_COLUMNS, FEED_JOINS, use=True)


def query_json(q: Query) -> str:
    """The query as voyager.search_page() reads it."""
    return json.dumps({
        "words": list(q.words), "excluded": list(q.excluded), "cats": sorted(q.cats),
        "maxage_days": q.maxage_days, "minsize": q.minsize, "maxsize": q.maxsize, "groups": list(q.groups),
        "poster": q.poster, "episode_regex": q.episode.regex if q.episode else None,
        "episode_likes": list(q.episode.likes) if q.episode else [], "media_ids": [list(m) for m in q.media_ids],
        "complete": q.complete, "passworded": q.passworded, "judged": q.judged, "substring": q.substring})


def search_sql(q: Query, limit: int, offset: int, *, totals: Totals | None = None, plan: str | None = None,
               probe: int | None = None, releases: int | None = None, feed: bool = False,
               use: dict | None = None) -> tuple[str, dict]:
    """The one statement of a search: the catalog state it reads,
    voyager.search_page's total, how it came by it and the page's ids, the
    rows with them (a feed's columns alone with `feed`). What this process
    knows of the totals (of the words as words and as substrings, each with
    the state it was counted at) goes along. With `use` (the arguments of an
    API key's check, a feed's search), the key's check comes first in the same
    statement."""
    params = {"q": query_json(q), "limit": limit, "offset": offset, "total": None, "total_state": None,
              "shared": None, "substring_total": None, "substring_total_state": None, "substring_shared": None,
              "plan": plan, "probe": PROBE if probe is None else probe, "releases": releases}
    if totals is not None:
        for name, key in (("", q.key()), ("substring_", replace(q, substring=True).key())):
            params[f"{name}total_state"], params[f"{name}total"] = totals.held(key)
            params[f"{name}shared"] = _hash(key)
    if use is not None:
        if not feed:
            raise ValueError("a key's check goes with a feed's search")
        return USE_FEED_SEARCH_SQL, {**params, **use}
    return FEED_SEARCH_SQL if feed else SEARCH_SQL, params


@dataclass
class Found:
    total: int
    rows: list[dict]
    plan: str                   # the way voyager.search_page took
    state: int                  # the catalog state read: total and rows are exact for it
    promote: str | None = None  # words to ask the fold to track (voyager.ask_search_promotion)
    keep: tuple | None = None   # (query hash, state, total): a counted total for the other processes
    user: dict | None = None    # voyager.api_use's row, when the key's check went along (`use`)


async def find(conn, q: Query, limit: int, offset: int, *, totals: Totals | None, plan: str | None = None,
               probe: int | None = None, releases: int | None = None, feed: bool = False,
               labels: Labels | None = None, use: dict | None = None) -> Found:
    """A search in one statement, which writes nothing (a replica's
    connection will do) unless it checks the key too and counts the request
    (`use`, on the primary): what it leaves for later is `leave`'s. A key refused is a
    Found of its `user` row alone. Totals come
    from this process's cache, then the shared one (voyager.search_totals) for
    what is costly to count, then a count. `plan`, `probe` and `releases`
    stand in for the database's own choices where a test wants them
    (voyager.search_walk_pays reads the planner's estimate of the catalog's size).
    The rows' group and poster names come from `labels` (looked up afresh without)."""
    # rows in binary (no timestamps and keys written out as text and parsed back)
    sql, params = search_sql(q, limit, offset, totals=totals, plan=plan, probe=probe, releases=releases, feed=feed,
                             use=use)
    cur = await conn.execute(sql, params, binary=True)
    # every row: the key's columns (with `use`), the page's summary (SUMMARY),
    # then a release's columns (none on an empty page's one row)
    names = column_names(cur, sql)
    at = names.index(SUMMARY[0])
    n = at + len(SUMMARY)
    cols = names[n:]
    fetched = await cur.fetchall()
    user = dict(zip(names[:at], fetched[0][:at])) if use is not None else None
    if user is not None and user["code"]:
        return Found(0, [], "refused", user["catalog_state"], user=user)
    meta = dict(zip(SUMMARY, fetched[0][at:n]))
    rows = [dict(zip(cols, row[n:])) for row in fetched if row[n] is not None]
    if rows:
        await (labels or Labels()).fill(conn, rows)
    total, state = meta["total"], meta["read_state"]
    # a common word now: the fold is to count it and keep its count from then on
    found = Found(total, rows, meta["plan"], state, promote=" ".join(q.words) if meta["promote"] else None,
                  user=user)
    if totals is not None and meta["kept"] is not None:
        key = replace(q, substring=meta["substrings"]).key()
        totals.put(key, state, total)
        if meta["kept"] == "counted" and not meta["standby"]:
            found.keep = (_hash(key), state, total)
    return found


async def run(db, web, q: Query, limit: int, offset: int, *, totals: Totals | None, feed: bool = False,
              labels: Labels | None = None, use: str | None = None) -> Found:
    """A search as the API (`feed`: the rows a feed shows) and the pages run
    it: read where reads go (`db`, web/routing.py) under the web's statement
    settings, then what it leaves for later on the primary. With `use` (an
    API key) the key's check goes in the same statement: `db.use`'s, counted
    there on the primary or judged on a replica and held (`db.used`)."""
    from .app import settings_for

    async def read(conn, check=None) -> Found:
        async with settings_for(conn, web):
            return await find(conn, q, limit, offset, totals=totals, feed=feed, labels=labels, use=check)

    if use is None:
        found = await db.read(read)
    else:
        # a key the replica has not replayed yet: the primary's to judge
        found = await db.use(use, "request", read, behind=lambda f: f.user["code"] == 100)
        db.used(use, found.user, "request")
    await leave(db, found)                               # (a refused key's Found leaves nothing)
    return found


async def leave(db, found: Found) -> None:
    """What a search leaves for later, in calls of their own on the primary
    (`db.primary()`; a replica refuses writes). A total counted on a replica
    is not shared (`find` leaves none to keep): the shared totals are
    unlogged, for the primary's readers alone, and a replica's state is
    seldom the primary's then; this process keeps it all the same."""
    if found.promote is None and found.keep is None:
        return
    async with db.primary() as conn:
        if found.promote is not None:
            await conn.execute("SELECT voyager.ask_search_promotion(%s)", (found.promote,))
        if found.keep is not None:
            await conn.execute("SELECT voyager.keep_search_total(%s, %s, %s)", found.keep)


_NAMES: dict[str, list[str]] = {}


def column_names(cur, sql: str) -> list[str]:
    """The columns of a statement the web runs again and again (its text the
    key): read once from a cursor's description, which builds an object a
    column each time it is asked."""
    names = _NAMES.get(sql)
    if names is None:
        names = _NAMES[sql] = [c.name for c in cur.description]
    return names


def _hash(key: tuple) -> bytes:
    return hashlib.sha1(repr(key).encode("utf-8", "surrogatepass")).digest()
