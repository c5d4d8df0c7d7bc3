"""The search's plans agree: the total read from voyager.search_count, counted
with the texts alone or joined to the releases, the one-pass first page, the
page of the matches, the newest-first walk and the month-by-month search give
the same releases for every query, limit and offset; the plan picked follows
the total."""
from __future__ import annotations

import asyncio

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from web import search
from web.names import episode_match
from web.search import Query

from tests.web.util import AsyncOver

CATS = frozenset({5000, 5010, 5020, 5030, 5040, 5045, 5050, 5060, 5070, 5080, 5090})
QUERIES = [
    Query(words=("harbor",)), Query(words=("silent", "harbor")), Query(words=("harbor",), excluded=("s01e02",)),
    Query(words=("grp",), cats=CATS), Query(words=("1080p",), complete=True), Query(words=("x264",), judged=True),
    Query(words=("s0",)), Query(words=("harbor",), episode=episode_match("1", None)),
    Query(episode=episode_match("3", "7")), Query(words=("grp",), groups=("alt.binaries.teevee",)),
    Query(words=("nothing-here",)), Query(words=("web",), maxage_days=36500, minsize=1),
    Query(words=("crème",)), Query(cats=CATS), Query(),
    Query(words=("harb",), substring=True), Query(words=("ilent", "arbor"), substring=True),
    Query(words=("harbor",), cats=CATS), Query(words=("grp", "harbor")), Query(cats=frozenset({8010})),
]


def _rows(conn, sql, params):
    cur = conn.execute(sql, params)
    return [dict(zip([c.name for c in cur.description], r)) for r in cur.fetchall()]


@pytest.fixture(scope="module")
def conn(shared_dsn):
    with psycopg.connect(shared_dsn, autocommit=True) as c:
        # one judged release, so that the hidden filter matters
        c.execute("INSERT INTO voyager.release_judgements (release_id, hidden, verdict) "
                  "SELECT id, true, 'test' FROM voyager.releases WHERE name LIKE 'Silent.Harbor.S02E01%' "
                  "ON CONFLICT DO NOTHING")
        yield c
        c.execute("DELETE FROM voyager.release_judgements")


def _page(conn, q, limit, offset, plan=None, **kw):
    """voyager.search_page's total and ids, the way forced by `plan`."""
    rows = _rows(conn, *search.search_sql(q, limit, offset, plan=plan, **kw))
    return rows[0], [r["id"] for r in rows if r["id"] is not None]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(q=st.sampled_from(QUERIES), limit=st.integers(0, 6), offset=st.integers(0, 14))
def test_the_plans_agree(conn, q, limit, offset):
    total = _page(conn, q, limit, offset, "count")[0]["total"]
    first_row, first = _page(conn, q, limit, offset, "first")
    assert first_row["total"] == total and first_row["plan"] == "first"
    auto_row, auto = _page(conn, q, limit, offset)
    words_only, newest_only = auto_row["plan"] == "words", auto_row["plan"] == "newest"
    plans = ["matches", "months", "days"] if words_only else ["matches", "walk"]
    pages = {p: _page(conn, q, limit, offset, p)[1] for p in plans}
    if newest_only:
        assert auto_row["total"] == total                   # read from search_count's keys
        pages["newest"] = auto
    if words_only:
        assert auto_row["total"] == total                   # read from search_count where it keeps the word
        pages["words"] = auto
    for plan, ids in pages.items():
        assert ids == first, plan
    assert len(first) == max(0, min(limit, total - offset))
    # the joined count equals the texts-only one
    if q.words:
        joined = Query(**{**q.__dict__, "minsize": 0})
        assert _page(conn, joined, limit, offset, "count")[0]["total"] == total


def test_run_picks_the_plan_by_the_total(conn):
    """Past the probe's matches the total is counted apart and the page walked
    when that pays; a words-only search is one statement, its total read from
    voyager.search_count."""
    def find(q, **kw):
        return asyncio.run(search.find(AsyncOver(conn), q, 1, 0, totals=search.Totals(), probe=2, **kw))

    q = Query(words=("grp",), minsize=1)
    found = find(q, releases=12)
    assert found.plan == "walk" and len(found.rows) == 1        # most releases match: walk the newest
    assert found.total == _page(conn, q, 1, 0, "count")[0]["total"] > 2
    found2 = find(q, releases=10**6)
    assert found2.plan == "matches" and [r["id"] for r in found2.rows] == [r["id"] for r in found.rows]
    assert found2.total == found.total
    words = Query(words=("grp",))
    assert conn.execute("SELECT voyager.search_word_key('grp')").fetchone()[0] == "w:grp"
    found3 = find(words, releases=12)
    assert found3.plan == "words" and (found3.total, found3.rows) == (found.total, found.rows)


def test_an_undated_release_is_a_words_page_first_whichever_way_it_is_found(conn):
    """A release of no date (its texts carry its date) comes first, newest
    first, in every plan of a words page; the months and days walks probe
    the undated texts only while such a release exists, so the probe's skip
    must not lose it."""
    q = Query(words=("harbor",))
    conn.execute("BEGIN")
    try:
        dated = _page(conn, q, 3, 0, "first")[1]
        oldest = conn.execute(
            """SELECT r.id FROM voyager.releases r
                WHERE r.id IN (SELECT t.release_id FROM voyager.release_texts t
                                WHERE voyager.search_terms(t.text, t.posted_at) @> voyager.search_words('harbor'))
                  AND NOT EXISTS (SELECT FROM voyager.release_judgements j WHERE j.release_id = r.id AND j.hidden)
                ORDER BY r.posted_at, r.id LIMIT 1""").fetchone()[0]
        assert oldest not in dated
        conn.execute("UPDATE voyager.releases SET posted_at = NULL WHERE id = %s", (oldest,))
        assert conn.execute("SELECT count(*) FROM voyager.release_texts WHERE release_id = %s AND posted_at IS NOT NULL",
                            (oldest,)).fetchone()[0] == 0
        first = _page(conn, q, 3, 0, "first")[1]
        assert first == [oldest] + dated[:2]
        for plan in (None, "matches", "months", "days"):
            assert _page(conn, q, 3, 0, plan)[1] == first, plan
    finally:
        conn.execute("ROLLBACK")


def test_the_words_page_walks_by_days_or_months_when_that_is_cheaper(conn):
    """On a catalog where one word is in every release, a dozen a day over
    years, the page walks days; a word in one release of twenty, months; a
    word in a few, the matches."""
    conn.execute("BEGIN")
    try:
        conn.execute("""INSERT INTO voyager.releases (posted_at, first_article, last_article, segments, bytes, group_id,
                                                      group_set_id, poster_id, files, source, complete, has_par2,
                                                      release_key, identity_key, name)
                        SELECT timestamptz '2020-01-01 00:00+00' + make_interval(hours => i * 2), i, i, 1, 1,
                               (SELECT min(id) FROM voyager.groups), (SELECT min(id) FROM voyager.group_sets),
                               (SELECT min(id) FROM voyager.posters), 1, 1, true, false,
                               substring(sha256(('w' || i)::bytea) FROM 1 FOR 20),
                               substring(sha256(('w' || i)::bytea) FROM 1 FOR 20),
                               'Everywhere.' || CASE WHEN i % 2000 = 0 THEN 'Rare.' WHEN i % 20 = 0 THEN 'Mid.' ELSE '' END || i
                          FROM generate_series(1, 24000) i""")
        conn.execute("INSERT INTO voyager.release_texts (release_id, kind, text) "
                     "SELECT id, 1, name FROM voyager.releases WHERE name LIKE 'Everywhere.%%'")

        def plan_of(word):
            total = conn.execute("SELECT total FROM voyager.search_words_page(%s, 10, 0)", (word,)).fetchone()[0]
            return conn.execute("SELECT voyager.search_words_plan(%s, 10)", (total,)).fetchone()[0]

        assert plan_of("everywhere") == "days" and plan_of("mid") == "months" and plan_of("rare") == "matches"
        for word in ("everywhere", "mid", "rare"):
            pages = {p: conn.execute("SELECT release_id FROM voyager.search_words_page(%s, 10, 3, false, %s)",
                                     (word, p)).fetchall() for p in ("matches", "months", "days")}
            total = conn.execute("SELECT total FROM voyager.search_words_page(%s, 10, 0)", (word,)).fetchone()[0]
            assert pages["matches"] == pages["months"] == pages["days"] and len(pages["matches"]) == min(10, total - 3)
    finally:
        conn.execute("ROLLBACK")


def _found(conn, q, limit, offset, totals=None, **kw) -> tuple[int, list[dict]]:
    found = asyncio.run(search.find(AsyncOver(conn), q, limit, offset, totals=totals, **kw))
    return found.total, found.rows


def test_no_whole_word_falls_back_to_substrings(conn):
    whole = _found(conn, Query(words=("harbor",)), 50, 0, releases=12)
    part = _found(conn, Query(words=("harb",)), 50, 0, releases=12)
    assert whole[0] > 0 and part[0] == whole[0] and [r["id"] for r in part[1]] == [r["id"] for r in whole[1]]
    assert _found(conn, Query(words=("zzyzx",)), 50, 0, releases=12) == (0, [])


@pytest.mark.parametrize("q", QUERIES, ids=range(len(QUERIES)))
def test_a_search_writes_nothing(conn, q):
    """Every statement of a search runs in a read-only transaction (as on a
    standby): what it leaves for later are calls of their own (search.leave's)."""
    conn.execute("BEGIN READ ONLY")
    try:
        for plan in (None, "first", "count", "matches", "walk", "months", "days"):
            _page(conn, q, 5, 0, plan)
        for releases in (12, 10**6):                        # both page plans, and the substring fallback
            _page(conn, q, 5, 0, releases=releases)
            _page(conn, q, 5, 0, releases=releases, probe=0)
            _found(conn, q, 5, 0, releases=releases)
            _found(conn, q, 5, 0, totals=search.Totals(), releases=releases, probe=0)   # a count to keep, not kept here
    finally:
        conn.execute("ROLLBACK")


@pytest.mark.parametrize("q", QUERIES[:4] + [Query(cats=CATS), Query()])
def test_a_feed_reads_its_columns_alone_and_renders_the_same(conn, q):
    """The API's search reads only what a feed item shows: the same releases
    as the pages' rows, in the same order, and the same document from them."""
    from web import feeds

    cats = asyncio.run(_facts(conn))
    full = asyncio.run(search.find(AsyncOver(conn), q, 8, 0, totals=None))
    feed = asyncio.run(search.find(AsyncOver(conn), q, 8, 0, totals=None, feed=True))
    assert (feed.total, feed.plan) == (full.total, full.plan)
    assert [r["release_key"] for r in feed.rows] == [r["release_key"] for r in full.rows]
    assert full.rows or q.words == ("nothing-here",)
    assert set(feed.rows[0]) < set(full.rows[0])       # fewer columns
    site = feeds.Site(base="http://indexer.test", title="Voyager", apikey="k")
    for render in (feeds.rss, feeds.rss_json):
        for wanted in (None, frozenset({"category", "size", "poster", "group", "grabs", "password", "usenetdate"})):
            kw = dict(site=site, cats=cats, total=full.total, offset=0, wanted=wanted)
            assert render(feed.rows, **kw) == render(full.rows, **kw)


async def _facts(conn):
    from web.app import load_catalog_facts

    return (await load_catalog_facts(AsyncOver(conn)))[0]
