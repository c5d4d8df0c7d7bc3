"""A search's rows get their group's and poster's names from the web's
Labels: the same names a join gives, each id looked up once, and a name
never seen before looked up when a row first carries it."""
from __future__ import annotations

import asyncio

import psycopg
import pytest

from web import search
from web.labels import LOOKUP, Labels
from web.search import Query

from tests.web.util import AsyncOver


class _Counting(AsyncOver):
    """The async surface over a sync connection, counting the name lookups."""

    def __init__(self, conn):
        super().__init__(conn)
        self.lookups = 0

    async def execute(self, sql, params=None, **kw):
        self.lookups += sql == LOOKUP
        return await super().execute(sql, params, **kw)


@pytest.fixture
def conn(web_dsn):
    with psycopg.connect(web_dsn, autocommit=True) as c:
        yield c


def _joined(conn) -> dict[bytes, tuple[str, str]]:
    return {k: (g, p) for k, g, p in conn.execute(
        "SELECT r.release_key, g.name, p.poster FROM voyager.releases r "
        "JOIN voyager.groups g ON g.id = r.group_id JOIN voyager.posters p ON p.id = r.poster_id")}


def _find(c: _Counting, q: Query, labels: Labels, feed: bool = True):
    return asyncio.run(search.find(c, q, 50, 0, totals=None, feed=feed, labels=labels))


def test_rows_carry_the_names_a_join_gives_each_looked_up_once(conn):
    truth = _joined(conn)
    c, labels = _Counting(conn), Labels()
    for feed in (True, False):                          # the API's rows and the pages'
        found = _find(c, Query(), labels, feed=feed)
        assert found.rows
        assert {r["release_key"]: (r["group_name"], r["poster"]) for r in found.rows} == \
            {r["release_key"]: truth[r["release_key"]] for r in found.rows}
    assert c.lookups == 1                               # the second page's names were all kept
    assert len(labels.posters) == len({truth[r["release_key"]][1] for r in found.rows})


def test_a_poster_first_seen_later_is_looked_up(conn):
    c, labels = _Counting(conn), Labels()
    _find(c, Query(), labels)
    pid = conn.execute("INSERT INTO voyager.posters (poster) VALUES ('late <late@example.com>') RETURNING id"
                       ).fetchone()[0]
    key = conn.execute("UPDATE voyager.releases SET poster_id = %s WHERE id = (SELECT min(id) FROM voyager.releases) "
                       "RETURNING release_key", (pid,)).fetchone()[0]
    found = _find(c, Query(), labels)
    assert c.lookups == 2
    assert [r["poster"] for r in found.rows if r["release_key"] == key] == ["late <late@example.com>"]


def test_past_its_size_the_oldest_names_go_and_come_back_when_asked(conn):
    group = conn.execute("SELECT id FROM voyager.groups ORDER BY id LIMIT 1").fetchone()[0]
    names = [f"poster{i} <p{i}@example.com>" for i in range(10)]
    ids = [conn.execute("INSERT INTO voyager.posters (poster) VALUES (%s) RETURNING id", (n,)).fetchone()[0]
           for n in names]
    c, labels = _Counting(conn), Labels(size=4)

    def fill(some: list[int]) -> list[str]:
        rows = [{"group_id": group, "poster_id": i} for i in some]
        asyncio.run(labels.fill(c, rows))
        return [r["poster"] for r in rows]

    assert fill(ids[:5]) == names[:5] and c.lookups == 1
    assert fill(ids[5:]) == names[5:] and c.lookups == 2     # five kept, past four: the oldest two forgotten
    assert fill(ids[2:5]) == names[2:5] and c.lookups == 2
    assert fill(ids[:2]) == names[:2] and c.lookups == 3


def test_a_web_starts_with_the_groups_and_the_newest_posters(conn):
    ids = [conn.execute("INSERT INTO voyager.posters (poster) VALUES (%s) RETURNING id", (f"p{i}",)).fetchone()[0]
           for i in range(5)]
    c, labels = _Counting(conn), Labels(size=3)
    asyncio.run(labels.load(c))
    assert list(labels.posters) == ids[-3:]             # the newest, the oldest of them first to go
    assert set(labels.groups) == {g for (g,) in conn.execute("SELECT id FROM voyager.groups")}
    group = next(iter(labels.groups))
    rows = [{"group_id": group, "poster_id": i} for i in ids[-3:]]
    asyncio.run(labels.fill(c, rows))
    assert c.lookups == 0 and [r["poster"] for r in rows] == ["p2", "p3", "p4"]


def test_names_forgotten_while_a_lookup_waits_still_fill_its_rows(conn):
    """A search keeps the names it saw at its start though the kept names
    forget their older half before its lookup returns (another search's
    lookup in between)."""
    group = conn.execute("SELECT id FROM voyager.groups ORDER BY id LIMIT 1").fetchone()[0]
    ids = [conn.execute("INSERT INTO voyager.posters (poster) VALUES (%s) RETURNING id", (f"q{i}",)).fetchone()[0]
           for i in range(8)]
    labels = Labels(size=2)
    rows = [{"group_id": group, "poster_id": i} for i in ids[:3]]
    asyncio.run(labels.fill(_Counting(conn), rows))     # q0..q2 kept: past two

    class Interleaved(_Counting):
        async def execute(self, sql, params=None, **kw):
            # meanwhile another search looks up q5
            await labels.fill(_Counting(conn), [{"group_id": group, "poster_id": ids[5]}])
            return await super().execute(sql, params, **kw)

    rows = [{"group_id": group, "poster_id": i} for i in (ids[0], ids[6])]
    asyncio.run(labels.fill(Interleaved(conn), rows))
    assert [r["poster"] for r in rows] == ["q0", "q6"]
