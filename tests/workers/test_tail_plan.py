"""The tail planner as `voyager tick` runs it, against the simulator in live
mode: the groups grow, each round plans what is new (a tail range added, then
grown), only the planned groups unless tail_plan_wildmat admits new ones; a
server that is not there is a skip with a warning, not a failure."""
from __future__ import annotations

import socket
import time

import pytest

from sim.server import ServerOptions, run_in_thread
from sim.synthetic import synthetic_lines
from tests.helpers import plan, ranges, set_setting
from voyager.corpus import CorpusWriter
from voyager.tick import Tick
from workers.nntp import NntpConfig, list_active

A, B, C = "alt.binaries.alpha", "alt.binaries.beta", "alt.binaries.gamma"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("tail-corpus")
    w = CorpusWriter(root)
    for group, low, high in ((A, 1, 3000), (B, 501, 1800), (C, 1, 400)):
        start = 1
        while start <= high:
            end = start + 1999
            first, last = max(start, low), min(end, high)
            if first <= last:
                w.write_range(group, start, end, [(first, last, [x for _, x in synthetic_lines(group, first, last)])])
            start = end + 1
    w.write_groups([{"name": A, "low": 1, "high": 3000, "priority": 1},
                    {"name": B, "low": 501, "high": 1800, "priority": 2},
                    {"name": C, "low": 1, "high": 400, "priority": 3}])
    return root


@pytest.fixture
def live(corpus):
    handle = run_in_thread(corpus, ServerOptions(live=True, live_rate=5, live_interval=0.1, seed=7))
    try:
        yield handle
    finally:
        handle.stop()


def highs(port: int) -> dict[str, int]:
    cfg = NntpConfig(host="127.0.0.1", port=port, timeout=10)
    return {r["name"]: r["high"] for r in list_active(cfg)}


def wait_for_growth(port: int, past: dict[str, int], articles: int = 40) -> dict[str, int]:
    deadline = time.monotonic() + 20
    while True:
        now = highs(port)
        if all(now[g] >= past[g] + articles for g in past) or time.monotonic() > deadline:
            return now
        time.sleep(0.1)


def tiled(conn, group: str) -> tuple[int, list]:
    """The group's ranges checked to tile 1 .. their end without gaps or overlaps."""
    rows = ranges(conn, group)
    expect = 1
    for start, end, *_ in rows:
        assert start == expect, rows
        expect = end + 1
    return expect - 1, rows


def run_tail_plan(db_dsn, port: int) -> dict:
    t = Tick(db_dsn, node="tick", environ={"VOYAGER_NNTP_HOST": "127.0.0.1", "VOYAGER_NNTP_PORT": str(port),
                                           "VOYAGER_NNTP_TIMEOUT": "10"})
    try:
        out = {r["job"]: r for r in t.run_due()}
    finally:
        t.close()
    assert out["tail_plan"]["error"] is None and out["tail_plan"]["recorded"]
    return out["tail_plan"]["result"]


def test_the_tail_planner_follows_growing_groups(conn, db_dsn, live):
    set_setting(conn, "range_articles", 100_000)          # growth stays inside one grid cell
    first = {k: v for k, v in highs(live.port).items() if k in (A, B)}
    plan(conn, [{"name": g, "low": 1 if g == A else 501, "high": h} for g, h in first.items()])
    conn.execute("UPDATE voyager.jobs SET enabled = false WHERE name <> 'tail_plan'")

    grown = wait_for_growth(live.port, first)
    result = run_tail_plan(db_dsn, live.port)
    assert (result["groups_listed"], result["groups_planned"], result["groups_added"]) == (3, 2, 0)
    assert (result["ranges_added"], result["ranges_grown"], result["groups_missing"]) == (2, 0, 0)
    listed = {g: h for g, h in conn.execute("SELECT name, high FROM voyager.groups").fetchall()}
    assert set(listed) == {A, B}                          # gamma is not planned: no wildmat admits it
    for g in (A, B):
        assert listed[g] >= grown[g]
        end, rows = tiled(conn, g)
        assert end == listed[g]
        tail = rows[-1]
        # the new articles: one tail range from the first plan's end, at the tail's priority
        assert (tail[0], tail[1], tail[3], tail[4]) == (rows[-2][1] + 1, listed[g], "planned", -1)
        assert tail[0] == first[g] + 1
    assert result["articles_planned"] == sum(listed[g] - ranges(conn, g)[-2][1] for g in (A, B))

    # the next round grows the open tail range instead of adding one
    before = dict(listed)
    wait_for_growth(live.port, before)
    conn.execute("UPDATE voyager.jobs SET next_run_at = now() WHERE name = 'tail_plan'")
    result = run_tail_plan(db_dsn, live.port)
    assert (result["ranges_added"], result["ranges_grown"]) == (0, 2)
    for g in (A, B):
        high = conn.execute("SELECT high FROM voyager.groups WHERE name = %s", (g,)).fetchone()[0]
        end, rows = tiled(conn, g)
        assert end == high > before[g] and rows[-1][4] == -1 and rows[-1][0] == rows[-2][1] + 1
    tail = conn.execute("SELECT articles_todo FROM voyager.status_tail WHERE group_name IS NULL").fetchone()[0]
    assert tail == sum(conn.execute("SELECT high FROM voyager.groups WHERE name = %s", (g,)).fetchone()[0]
                       - ranges(conn, g)[-2][1] for g in (A, B))

    # a wildmat admits new groups as they appear
    set_setting(conn, "tail_plan_wildmat", "alt.binaries.g*")
    conn.execute("UPDATE voyager.jobs SET next_run_at = now() WHERE name = 'tail_plan'")
    result = run_tail_plan(db_dsn, live.port)
    assert result["groups_added"] == 1 and result["groups_planned"] == 3
    end, rows = tiled(conn, C)
    assert rows[0][4] == 100 and end >= 400                # a new group: history, from article 1


def test_an_unreachable_server_is_a_skip_with_a_warning(conn, db_dsn, caplog):
    plan(conn, [{"name": A, "low": 1, "high": 100}])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]                          # nobody listens there
        result = run_tail_plan(db_dsn, port)
    assert "not reachable" in result["skipped"]
    assert "tail_plan skipped" in caplog.text
    row = conn.execute("SELECT last_ok, last_error, failures FROM voyager.status_jobs WHERE name = 'tail_plan'").fetchone()
    assert row == (True, None, 0)
    assert len(ranges(conn, A)) == 1


def test_nothing_planned_and_no_wildmat_asks_the_server_nothing(conn, db_dsn):
    result = run_tail_plan(db_dsn, 9)                      # the discard port: never contacted
    assert result == {"skipped": "no group planned yet and tail_plan_wildmat is empty"}
