"""The search's plans agree: the total counted with the texts alone or joined to
the releases, the one-pass first page, the page of the matches and the
newest-first walk give the same releases for every query, limit and offset;
the plan picked for a common word on a big catalog is the walk."""
from __future__ import annotations

import asyncio

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from web import search
from web.names import episode_match
from web.search import Query

CATS = frozenset({5000, 5010, 5020, 5030, 5040, 5045, 5050, 5060, 5070, 5080, 5090})
QUERIES = [
    Query(words=("harbor",)), Query(words=("silent", "harbor")), Query(words=("harbor",), excluded=("s01e02",)),
    Query(words=("grp",), cats=CATS), Query(words=("1080p",), complete=True), Query(words=("x264",), judged=True),
    Query(words=("s0",)), Query(words=("harbor",), episode=episode_match("1", None)),
    Query(episode=episode_match("3", "7")), Query(words=("grp",), groups=("alt.binaries.teevee",)),
    Query(words=("nothing-here",)), Query(words=("web",), maxage_days=36500, minsize=1),
    Query(words=("crème",)), Query(cats=CATS), Query(),
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


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(q=st.sampled_from(QUERIES), limit=st.integers(0, 6), offset=st.integers(0, 14))
def test_the_plans_agree(conn, q, limit, offset):
    total = conn.execute(*search.count_sql(q)).fetchone()[0]
    first = _rows(conn, *search.first_page_sql(q, limit, offset))
    assert first[0]["total"] == total
    first = [r["id"] for r in first if r["id"] is not None]
    matches = [r["id"] for r in _rows(conn, *search.page_sql(q, limit, offset, walk=False))]
    walk = [r["id"] for r in _rows(conn, *search.page_sql(q, limit, offset, walk=True))]
    assert first == matches == walk
    assert len(matches) == max(0, min(limit, total - offset))
    # the joined count equals the texts-only one
    if q.words:
        joined = Query(**{**q.__dict__, "minsize": 0})
        assert conn.execute(*search.count_sql(joined)).fetchone()[0] == total


def test_run_takes_the_common_word_path(conn, monkeypatch):
    """Past PROBE matches the total is counted apart and the page walked when that pays."""
    class Conn:                                   # psycopg's async surface over the sync connection
        async def execute(self, sql, params=None):
            cur = conn.execute(sql, params)

            class Cur:
                description = cur.description

                async def fetchone(self):
                    return cur.fetchone()

                async def fetchall(self):
                    return cur.fetchall()
            return Cur()

    seen = []
    real = search.page_sql
    monkeypatch.setattr(search, "PROBE", 2)
    monkeypatch.setattr(search, "page_sql", lambda *a, **k: seen.append(a[3]) or real(*a, **k))
    q = Query(words=("grp",))
    totals = search.Totals()
    total, rows = asyncio.run(search.run(Conn(), q, 1, 0, state=None, totals=totals, releases=12))
    assert seen == [True] and len(rows) == 1                     # most releases match: walk the newest
    assert total == conn.execute(*search.count_sql(q)).fetchone()[0] > 2
    total2, rows2 = asyncio.run(search.run(Conn(), q, 1, 0, state=None, totals=totals, releases=10**6))
    assert seen == [True, False] and [r["id"] for r in rows2] == [r["id"] for r in rows] and total2 == total
