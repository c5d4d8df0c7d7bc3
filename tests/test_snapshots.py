"""Kept snapshots in SQL: every snapshot a lane stores is kept beside the older
ones (the current one is what its next holder restores), with the rule set it
ran with; voyager.prune_snapshots (the tick's prune_snapshots job) thins them
by its settings: the last N of a lane, the latest in each stretch of M articles
further back, MB per group, never a lane's current one nor one an open
recovery starts from."""
from __future__ import annotations

import pytest

from tests.helpers import advance, lease, next_range, plan, set_setting

STEP = 100


@pytest.fixture
def walked(conn):
    """One group of 5 ranges of 1,000 articles, its history lane stored in
    batches of 100 with a snapshot after each, up to the last batch: snapshots
    at 101, 201, ... 4901, each of SIZE bytes."""
    set_setting(conn, "range_articles", 1000)
    plan(conn, [{"name": "g.kept", "low": 1, "high": 5000}])
    held = lease(conn, "history", "n1")
    token = held["token"]
    conn.execute("SELECT voyager.lease_rules(%s)", (token,))
    articles = []
    while (rng := next_range(conn, token)) is not None:
        first = rng["next_article"]
        while first <= rng["end_article"] and first < 4901:
            nxt = first + STEP
            advance(conn, token, rng, first, nxt, STEP)
            conn.execute("SELECT voyager.store_snapshot(%s, %s, %s)", (token, nxt, window_bytes(nxt)))
            articles.append(nxt)
            first = nxt
        if first == 4901:
            break
    return conn, token, articles


SIZE = 300_000


def window_bytes(article: int) -> bytes:
    return str(article).encode().ljust(SIZE, b".")


def kept(conn) -> list[int]:
    return [a for (a,) in conn.execute("SELECT article FROM voyager.snapshots ORDER BY article")]


def prune(conn) -> dict:
    return conn.execute("SELECT voyager.run_sql_job('prune_snapshots')").fetchone()[0]


def test_every_snapshot_is_kept_and_the_current_one_is_restored(walked):
    conn, token, articles = walked
    assert kept(conn) == articles == list(range(101, 4902, STEP))
    assert conn.execute("SELECT DISTINCT rule_version FROM voyager.snapshots").fetchall() == [(1,)]
    conn.execute("SELECT voyager.release_group(%s)", (token,))
    again = lease(conn, "history", "n2")
    assert (again["snapshot_article"], again["snapshot_bytes"]) == (4901, SIZE)
    assert conn.execute("SELECT article, data FROM voyager.snapshot(%s)", (again["token"],)).fetchone() == \
        (4901, window_bytes(4901))
    assert next_range(conn, again["token"])["next_article"] == 4901
    # one row per held lane in the status views, whatever is kept
    assert conn.execute("SELECT snapshot_article FROM voyager.status_held").fetchall() == [(4901,)]
    assert conn.execute("SELECT snapshot_bytes FROM voyager.status_leases").fetchall() == [(SIZE,)]
    # a redo stores its window again where the lost one stood: that article's row only
    conn.execute("SELECT voyager.store_snapshot(%s, 4901, 'again')", (again["token"],))
    assert kept(conn) == articles
    assert conn.execute("SELECT data FROM voyager.snapshot(%s)", (again["token"],)).fetchone()[0] == b"again"


def test_the_thinning_keeps_the_last_n_and_one_per_stretch_of_articles(walked):
    conn, token, articles = walked
    set_setting(conn, "snapshot_keep_last", 3)
    set_setting(conn, "snapshot_keep_every_articles", 1000)
    freed = prune(conn)
    # the last 3; further back, the latest of each stretch 1-1000, 1001-2000, ...
    want = sorted({4701, 4801, 4901} | {901, 1901, 2901, 3901, 4901})
    assert kept(conn) == want
    assert freed == {"snapshots": len(articles) - len(want), "bytes": (len(articles) - len(want)) * SIZE}
    assert prune(conn) == {"snapshots": 0, "bytes": 0}           # what the rule keeps stays
    assert conn.execute("SELECT article FROM voyager.snapshot(%s)", (token,)).fetchone() == (4901,)


def test_the_bytes_bound_drops_the_oldest_first_but_never_the_current_or_a_recoverys(walked):
    conn, token, _articles = walked
    set_setting(conn, "snapshot_keep_last", 3)
    set_setting(conn, "snapshot_keep_every_articles", 1000)
    set_setting(conn, "snapshot_keep_mb", 1)            # 3 snapshots of 300 KB fit in 1 MB, not 4
    gid = conn.execute("SELECT id FROM voyager.groups WHERE name = 'g.kept'").fetchone()[0]
    # an open recovery starting from the snapshot at 1901 keeps it, first against the bound
    conn.execute("""INSERT INTO voyager.recoveries (rule, key, group_id, rule_version, ranges, stale,
                                                    snapshot_lane, snapshot_article)
                    SELECT 'dropped-poster', 'x', %s, 1, ARRAY[r.id], ARRAY[r.id], 'history', 1901
                      FROM voyager.ranges r WHERE r.group_id = %s AND r.start_article = 2001""", (gid, gid))
    prune(conn)
    assert kept(conn) == [1901, 4801, 4901]
    # the current one stays even alone past the bound
    set_setting(conn, "snapshot_keep_mb", 0)
    conn.execute("UPDATE voyager.recoveries SET done_at = now()")
    prune(conn)
    assert kept(conn) == [4901]
    assert conn.execute("SELECT article FROM voyager.snapshot(%s)", (token,)).fetchone() == (4901,)
