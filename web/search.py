"""Searches of the catalog, in SQL with parameters only.

A search is a `Query` (words, categories, sizes, age, groups, poster, a
season/episode, outside IDs, flags); it gives an exact total and a page of
release rows, newest first.

Words are whole words: voyager.search_words() splits a text into runs of
letters and digits, and a release matches when one of its texts has every
word of the query (release_texts' words GIN index: exact posting lists, no
recheck). A search whose words match nothing is asked again with the words
as substrings (`substring`, through the trigram index: `harb` finds Harbor).

Totals: a search by words alone, or by categories alone, or nothing at all,
is one statement (voyager.search_words_page, voyager.search_newest_page) that
reads its total from voyager.search_count() where its keys give it (kept exact
by the catalog's triggers, whatever the catalog's size); any other is counted.
The search's statements write nothing: what a search leaves for later (a
common word's tracking asked of the fold, a counted total shared with the
other processes) is a statement of its own after them.
Two page plans, chosen on the total by voyager.search_walk_pays():

- few matches: the matching ids from the index, then the newest of them;
- many matches: a walk down releases_newest_idx that keeps a release when one
  of its texts has the words (a semi-join probe per release), stopping at the
  page's end: for a common word that is a few hundred probes, where collecting
  every match would read tens of thousands of rows.

Counted totals are kept once per catalog state: voyager.catalog_state() moves
with every committed change of what a search reads (statement triggers), so a
total cached under a state is exact for as long as the state is the one read.
"""
from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass, field, replace

from .names import EpisodeMatch

WORD = re.compile(r"[^\W_]+")
# words voyager.search_words() splits and lower-cases exactly as split_words
# does (ASCII letters and digits): their ILIKE pre-checks are sound
PLAIN_WORD = re.compile(r"[a-z0-9]{1,64}")
MAX_WORDS = 16
NULL_CATEGORY = 8010                   # voyager.search_category() of a release not yet categorised (Other > Misc)


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

    @property
    def has_text(self) -> bool:
        return bool(self.words or self.episode)

    @property
    def indexed_words(self) -> tuple[str, ...]:
        """The words an index finds: all of them, but for substrings those with a trigram."""
        return tuple(w for w in self.words if len(w) >= 3) if self.substring else self.words


def split_words(q: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(words, excluded words) of a query: letters and digits, `-word` excludes."""
    words: list[str] = []
    excluded: list[str] = []
    for token in q.split():
        neg = token.startswith("-") and len(token) > 1
        parts = [w.lower() for w in WORD.findall(token)]
        (excluded if neg else words).extend(parts)
    return tuple(dict.fromkeys(words)), tuple(dict.fromkeys(excluded))


def _like(word: str) -> str:
    return "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


@dataclass
class Sql:
    conds: list[str] = field(default_factory=list)
    params: dict = field(default_factory=dict)
    text: str | None = None            # the condition on a release_texts row `t`
    probe: str | None = None           # the same, for one release's texts (the walk's probe)
    text_only: bool = True             # no condition on the release row but the judge's

    def add(self, cond: str, **params) -> None:
        self.conds.append(cond)
        self.params.update(params)


def build(q: Query) -> Sql:
    s = Sql()
    if not q.judged:
        s.add("NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = r.id AND j.hidden)")
    hidden_only = len(s.conds)
    if q.cats:
        cats = sorted(q.cats)
        if NULL_CATEGORY in q.cats:
            s.add("(r.category = ANY(%(cats)s::integer[]) OR r.category IS NULL)", cats=cats)
        else:
            s.add("r.category = ANY(%(cats)s::integer[])", cats=cats)
    if q.maxage_days is not None:
        s.add("r.posted_at >= now() - make_interval(days => %(maxage)s)", maxage=q.maxage_days)
    if q.minsize is not None:
        s.add("r.bytes >= %(minsize)s", minsize=q.minsize)
    if q.maxsize is not None:
        s.add("r.bytes <= %(maxsize)s", maxsize=q.maxsize)
    if q.groups:
        s.add("r.group_set_id = ANY (ARRAY(SELECT gs.id FROM voyager.group_sets gs WHERE gs.groups && %(groups)s::text[]))",
              groups=list(q.groups))
    if q.poster:
        s.add("r.poster_id = ANY (ARRAY(SELECT po.id FROM voyager.posters po WHERE po.poster ILIKE %(poster)s))",
              poster=_like(q.poster))
    if q.complete is not None:
        s.add("r.complete = %(complete)s", complete=q.complete)
    if q.passworded is True:
        s.add("EXISTS (SELECT 1 FROM voyager.release_passwords pw WHERE pw.release_id = r.id AND pw.status > 0)")
    elif q.passworded is False:
        s.add("NOT EXISTS (SELECT 1 FROM voyager.release_passwords pw WHERE pw.release_id = r.id AND pw.status > 0)")
    for i, (kind, value) in enumerate(q.media_ids):
        s.add(f"r.id IN (SELECT m.release_id FROM voyager.release_media_ids m WHERE m.kind = %(mk{i})s AND m.value = %(mv{i})s)",
              **{f"mk{i}": kind, f"mv{i}": value})
    if q.excluded:
        if q.substring:
            for i, w in enumerate(q.excluded):
                s.add(f"r.name NOT ILIKE %(x{i})s", **{f"x{i}": _like(w)})
        else:
            s.add("NOT voyager.search_words(r.name) && voyager.search_words(%(excluded)s)",
                  excluded=" ".join(q.excluded))
    if q.episode:
        s.add("r.name ~* %(ep_re)s", ep_re=q.episode.regex)
    text, probe = [], []
    if q.words and not q.substring:
        # the words as voyager.search_words() splits them (folded to a constant
        # when planned); none at all would match every text, so it matches none
        text.append("voyager.search_terms(t.text, t.posted_at) @> voyager.search_words(%(words)s) "
                    "AND cardinality(voyager.search_words(%(words)s)) > 0")
        s.params["words"] = " ".join(q.words)
        # the walk's probe: a cheap substring test first where it is sound, so
        # that the words of a text are split only for the texts that may match
        for i, w in enumerate(q.words):
            if PLAIN_WORD.fullmatch(w):
                probe.append(f"t.text ILIKE %(w{i})s")
                s.params[f"w{i}"] = _like(w)
    for i, w in enumerate(q.words if q.substring else ()):
        # short words have no trigram: kept out of the index's reach (a trigram-less
        # pattern would make the index read everything), checked on the rows found
        col = "t.text" if len(w) >= 3 else "(t.text || '')"
        text.append(f"{col} ILIKE %(w{i})s")
        s.params[f"w{i}"] = _like(w)
    if q.episode and not q.indexed_words:
        text.append("t.text ILIKE ANY(%(ep_likes)s::text[])")
        s.params["ep_likes"] = list(q.episode.likes)
    if text:
        s.text = " AND ".join(text)
        s.probe = " AND ".join(probe + text)
    s.text_only = len(s.conds) == hidden_only
    return s


def count_sql(q: Query) -> tuple[str, dict]:
    """The total counted from the rows, and the catalog state."""
    expr, params = _counted(q)
    return f"SELECT {expr}, voyager.catalog_state()", params


def _counted(q: Query) -> tuple[str, dict]:
    s = build(q)
    if s.text and s.text_only:
        # words and nothing on the release row: the texts alone (every text's
        # release exists), no probe into releases per match
        hidden = "" if q.judged else (" AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j "
                                      "WHERE j.release_id = t.release_id AND j.hidden)")
        return f"(SELECT count(DISTINCT t.release_id) FROM voyager.release_texts t WHERE {s.text}{hidden})", s.params
    conds = list(s.conds)
    if s.text:
        conds.append(f"r.id IN (SELECT t.release_id FROM voyager.release_texts t WHERE {s.text})")
    where = " AND ".join(conds) or "true"
    return f"(SELECT count(*) FROM voyager.releases r WHERE {where})", s.params


ITEM_COLUMNS = """r.id, r.release_key, r.name, r.posted_at, r.last_posted_at, r.bytes, r.files, r.segments,
       r.file_total, voyager.search_category(r.category) AS category, r.complete, r.has_par2, g.name AS group_name,
       p.poster, coalesce(gr.grabs, 0) AS grabs, coalesce(pw.status, 0) AS password, j.verdict"""

ITEM_JOINS = """JOIN voyager.groups g ON g.id = r.group_id
  JOIN voyager.posters p ON p.id = r.poster_id
  LEFT JOIN voyager.release_grabs gr ON gr.release_id = r.id
  LEFT JOIN voyager.release_passwords pw ON pw.release_id = r.id
  LEFT JOIN voyager.release_judgements j ON j.release_id = r.id"""


def words_only(q: Query) -> bool:
    """Whole words and nothing asked of the release row: the texts alone find
    and order the matches (they carry their release's posting date)."""
    return bool(q.words) and not q.substring and not q.episode and build(q).text_only


def page_sql(q: Query, limit: int, offset: int, plan: str) -> tuple[str, dict]:
    """The page's SQL by plan: "matches" (every match, the newest kept),
    "walk" (releases newest first, each probing its texts); for words only
    also "months" and "days" (voyager.search_words_page's walks)."""
    if words_only(q):
        return words_sql(q, limit, offset, plan)
    s = build(q)
    conds = list(s.conds)
    params = {**s.params, "limit": limit, "offset": offset}
    if plan == "matches" and s.text:
        # every match from the index, each probing its release (the planner,
        # misjudging a word as common, would walk a million rows)
        where = " AND ".join(["r.id = tm.release_id", *conds])
        sql = f"""WITH tm AS MATERIALIZED (SELECT DISTINCT t.release_id FROM voyager.release_texts t WHERE {s.text}),
     page AS MATERIALIZED (
    SELECT x.id, x.posted_at FROM tm, LATERAL (SELECT r.id, r.posted_at FROM voyager.releases r WHERE {where}) x
     ORDER BY x.posted_at DESC, x.id DESC LIMIT %(limit)s OFFSET %(offset)s)
SELECT {ITEM_COLUMNS}
  FROM page JOIN voyager.releases r ON r.id = page.id
  {ITEM_JOINS}
 ORDER BY page.posted_at DESC, page.id DESC"""
        return sql, params
    source = "voyager.releases r"
    if plan == "walk" and s.text:
        # OFFSET 0: kept a probe per release (as a semi-join, misjudging how
        # common the words are, the planner would read every match first)
        conds.append(f"EXISTS (SELECT 1 FROM voyager.release_texts t WHERE t.release_id = r.id AND {s.probe} OFFSET 0)")
        source = "(SELECT * FROM voyager.releases ORDER BY posted_at DESC OFFSET 0) r"
    where = " AND ".join(conds) or "true"
    sql = f"""WITH page AS MATERIALIZED (
    SELECT r.id, r.posted_at FROM {source} WHERE {where}
     ORDER BY r.posted_at DESC, r.id DESC LIMIT %(limit)s OFFSET %(offset)s)
SELECT {ITEM_COLUMNS}
  FROM page JOIN voyager.releases r ON r.id = page.id
  {ITEM_JOINS}
 ORDER BY page.posted_at DESC, page.id DESC"""
    return sql, params


def newest_only(q: Query) -> bool:
    """Nothing asked but categories (or nothing at all): the newest releases."""
    return replace(q, cats=frozenset()) == Query()


# a one-statement page's rows: its release ids (a CTE `page` of total,
# release_id, posted_at) joined to what a result row shows
PAGE_ROWS = f"""LEFT JOIN LATERAL (
    SELECT {ITEM_COLUMNS} FROM voyager.releases r
      {ITEM_JOINS}
     WHERE r.id = page.release_id) x ON true
 ORDER BY page.posted_at DESC, page.release_id DESC"""


def newest_sql(q: Query, limit: int, offset: int) -> tuple[str, dict]:
    """A categories-only search in one statement (voyager.search_newest_page)."""
    sql = f"""WITH page AS MATERIALIZED (
    SELECT * FROM voyager.search_newest_page(%(cats)s::integer[], %(limit)s, %(offset)s))
SELECT page.total, x.*
  FROM page {PAGE_ROWS}"""
    return sql, {"cats": sorted(q.cats) or None, "limit": limit, "offset": offset}


def words_sql(q: Query, limit: int, offset: int, plan: str | None = None) -> tuple[str, dict]:
    """A words-only search in one statement: voyager.search_words_page gives
    the total (read from search_count where the word's key gives it, and
    whether to ask for the word's tracking) and the page's ids by the cheapest
    way (or by `plan`); the rows come with them. The statement's text is the
    same for every such search: prepared once."""
    sql = f"""WITH page AS MATERIALIZED (
    SELECT * FROM voyager.search_words_page(%(words)s, %(limit)s, %(offset)s, %(judged)s, %(plan)s))
SELECT page.total, page.promote, x.*
  FROM page {PAGE_ROWS}"""
    return sql, {"words": " ".join(q.words), "limit": limit, "offset": offset, "judged": q.judged, "plan": plan}


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

    def put(self, key: tuple, state: int, total: int) -> None:
        self.entries[key] = (state, total)
        self.entries.move_to_end(key)
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)


PROBE = 500


def first_page_sql(q: Query, limit: int, offset: int) -> tuple[str, dict]:
    """A total not yet known: up to PROBE matches are collected once for both
    the total and the page (`probed` above PROBE: a common word, whose total
    is then counted apart and its page walked, see run). The texts' matches
    are read from the trigram index lazily, each probing its release."""
    s = build(q)
    conds = " AND ".join(["r.id = tm.release_id", *s.conds])
    if s.text:
        source = f"""tm AS MATERIALIZED (SELECT t.release_id FROM voyager.release_texts t WHERE {s.text}),
     m0 AS MATERIALIZED (SELECT x.id, x.posted_at FROM tm, LATERAL (
         SELECT r.id, r.posted_at FROM voyager.releases r WHERE {conds}) x LIMIT %(probe)s),"""
    else:
        where = " AND ".join(s.conds) or "true"
        source = f"m0 AS MATERIALIZED (SELECT r.id, r.posted_at FROM voyager.releases r WHERE {where} LIMIT %(probe)s),"
    sql = f"""WITH {source}
     m AS MATERIALIZED (SELECT DISTINCT id, posted_at FROM m0),
     page AS MATERIALIZED (SELECT id, posted_at FROM m ORDER BY posted_at DESC, id DESC LIMIT %(limit)s OFFSET %(offset)s),
     t AS (SELECT count(*) AS total, (SELECT count(*) FROM m0) AS probed, voyager.catalog_state() AS state FROM m)
SELECT t.total, t.probed, t.state, x.* FROM t LEFT JOIN LATERAL (
    SELECT {ITEM_COLUMNS}, page.posted_at AS page_at
      FROM page JOIN voyager.releases r ON r.id = page.id
      {ITEM_JOINS}) x ON true
 ORDER BY x.page_at DESC, x.id DESC"""
    return sql, {**s.params, "limit": limit, "offset": offset, "probe": PROBE + 1}


async def _rows(cur) -> list[dict]:
    cols = [c.name for c in cur.description]
    return [dict(zip(cols, row)) for row in await cur.fetchall()]


async def _shared_total(conn, key: tuple, state: int | None) -> int | None:
    if state is None:
        return None
    cur = await conn.execute("SELECT voyager.kept_search_total(%s, %s)", (_hash(key), state))
    return (await cur.fetchone())[0]


async def _count(conn, q: Query, key: tuple, totals: Totals | None) -> int:
    """The exact total, counted (and kept for the other processes)."""
    cur = await conn.execute(*count_sql(q))
    total, seen_state = await cur.fetchone()
    if totals is not None:
        totals.put(key, seen_state, total)
        # a statement of its own: the count itself writes nothing
        await conn.execute("SELECT voyager.keep_search_total(%s, %s, %s)", (_hash(key), seen_state, total))
    return total


def _hash(key: tuple) -> bytes:
    return hashlib.sha1(repr(key).encode("utf-8", "surrogatepass")).digest()


async def run(conn, q: Query, limit: int, offset: int, *, state: int | None, totals: Totals | None,
              releases: int | None = None) -> tuple[int, list[dict]]:
    """(exact total, the page's rows as dicts). Totals come from this process's
    cache, then the shared one (voyager.search_totals) for what is costly to
    count, then a count. `releases` stands in for the catalog's size where a
    test wants one (voyager.search_walk_pays reads the planner's estimate)."""
    total, rows = await _run(conn, q, limit, offset, state=state, totals=totals, releases=releases)
    if total == 0 and q.words and not q.substring:
        # no whole word matched: the words as substrings
        return await _run(conn, replace(q, substring=True), limit, offset, state=state, totals=totals,
                          releases=releases)
    return total, rows


async def _run(conn, q: Query, limit: int, offset: int, *, state: int | None, totals: Totals | None,
               releases: int | None) -> tuple[int, list[dict]]:
    if words_only(q) or newest_only(q):
        # one statement; rows in binary (no timestamps and keys written out as text and parsed back)
        sql = words_sql(q, limit, offset) if q.words else newest_sql(q, limit, offset)
        rows = await _rows(await conn.execute(*sql, binary=True))
        total = rows[0].pop("total")
        if rows[0].pop("promote", False):
            # a common word now: the fold is to count it and keep its count from then on
            await conn.execute("SELECT voyager.ask_search_promotion(%s)", (sql[1]["words"],))
        return total, [r for r in rows if r["id"] is not None]
    key = q.key()
    total = totals.get(key, state) if totals is not None else None
    if total is None and q.has_text:
        rows = await _rows(await conn.execute(*first_page_sql(q, limit, offset)))
        if rows[0]["probed"] <= PROBE:
            total, seen_state = rows[0]["total"], rows[0]["state"]
            if totals is not None:
                totals.put(key, seen_state, total)
            return total, [r for r in rows if r["id"] is not None]
    if total is None and totals is not None:
        total = await _shared_total(conn, key, state)
        if total is not None:
            totals.put(key, state, total)
    if total is None:
        total = await _count(conn, q, key, totals)
    if offset >= total or limit == 0:
        return total, []
    # the database weighs the walk against the matches (it knows the catalog's size)
    cur = await conn.execute("SELECT voyager.search_walk_pays(%s, %s, %s, %s, %s)",
                             (total, offset + limit, q.has_text, bool(q.indexed_words or q.episode), releases))
    (walk,) = await cur.fetchone()
    sql, params = page_sql(q, limit, offset, "walk" if walk else "matches")
    return total, await _rows(await conn.execute(sql, params))
