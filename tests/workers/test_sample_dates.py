"""The tick's sample_dates job against the simulator: each planned group's
posting dates sampled (16 slices of 32 articles for a small group), recorded,
and every range given a date from the curve, monotone in article order; its
NNTP connection taken from the budget and given back; no connection free in
the budget, or no server, is a skip, not a failure."""
from __future__ import annotations

import datetime as dt

import pytest

from sim.generate import Options, generate
from sim.server import ServerOptions, run_in_thread
from tests.helpers import plan, set_setting
from voyager.corpus import Corpus
from voyager.tick import Tick


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    out = tmp_path_factory.mktemp("dates") / "corpus"
    generate(Options(out=out, seed=5, groups=2, lines=20_000, days=4, range_articles=5_000,
                     chunk_articles=2_500, bodies=False))
    return out


@pytest.fixture(scope="module")
def server(corpus):
    handle = run_in_thread(corpus, ServerOptions())
    try:
        yield handle
    finally:
        handle.stop()


def run_job(db_dsn, port: int, **env) -> dict:
    t = Tick(db_dsn, node="tick", environ={"VOYAGER_NNTP_HOST": "127.0.0.1", "VOYAGER_NNTP_PORT": str(port),
                                           "VOYAGER_NNTP_TIMEOUT": "10", **env})
    try:
        out = {r["job"]: r for r in t.run_due()}
    finally:
        t.close()
    assert out["sample_dates"]["error"] is None and out["sample_dates"]["recorded"], out
    return out["sample_dates"]["result"]


def test_the_tick_samples_dates_and_the_ranges_get_theirs(conn, db_dsn, corpus, server):
    set_setting(conn, "range_articles", 5_000)
    groups = Corpus(corpus).groups()
    plan(conn, groups)
    conn.execute("UPDATE voyager.jobs SET enabled = (name = 'sample_dates')")
    assert conn.execute("SELECT count(*) FROM voyager.ranges WHERE est_date IS NOT NULL").fetchone()[0] == 0

    result = run_job(db_dsn, server.port)
    assert result["groups"] == len(groups) and result["missing"] == 0
    per_group = dict(conn.execute("""SELECT g.name, count(*) FROM voyager.group_dates d
                                       JOIN voyager.groups g ON g.id = d.group_id GROUP BY g.name""").fetchall())
    assert set(per_group) == {g["name"] for g in groups}
    assert all(12 <= n <= 16 for n in per_group.values()), per_group     # 16 slices; a slice may hold no Date
    assert result["samples"] == sum(per_group.values())

    # every range has a date, monotone in article order, within the corpus's days
    rows = conn.execute("""SELECT g.name, r.start_article, r.est_date FROM voyager.ranges r
                             JOIN voyager.groups g ON g.id = r.group_id
                            WHERE r.status <> 'ancient' ORDER BY g.name, r.start_article""").fetchall()
    assert rows and all(d is not None for _g, _s, d in rows)
    assert result["ranges_dated"] == conn.execute(
        "SELECT count(*) FROM voyager.ranges WHERE est_date IS NOT NULL").fetchone()[0]
    for g in {r[0] for r in rows}:
        dates = [d for name, _s, d in rows if name == g]
        assert dates == sorted(dates)
        assert dates[-1] - dates[0] < dt.timedelta(days=6)
    # the connection went back to the budget
    assert conn.execute("SELECT count(*) FROM voyager.nntp_claims WHERE node LIKE 'tick/%'").fetchone()[0] == 0

    # the next run takes the groups sampled longest ago
    conn.execute("UPDATE voyager.settings SET value = '1' WHERE name = 'sample_dates_groups'")
    conn.execute("UPDATE voyager.jobs SET next_run_at = now() WHERE name = 'sample_dates'")
    oldest = conn.execute("""SELECT g.name FROM voyager.groups g JOIN voyager.group_dates d ON d.group_id = g.id
                              GROUP BY g.name, g.priority ORDER BY max(d.sampled_at), g.priority LIMIT 1""").fetchone()[0]
    assert run_job(db_dsn, server.port)["groups"] == 1
    newest = conn.execute("""SELECT g.name FROM voyager.groups g JOIN voyager.group_dates d ON d.group_id = g.id
                              GROUP BY g.name ORDER BY max(d.sampled_at) DESC LIMIT 1""").fetchone()[0]
    assert newest == oldest


def test_no_connection_free_in_the_budget_is_a_skip(conn, db_dsn, corpus, server):
    plan(conn, Corpus(corpus).groups())
    conn.execute("UPDATE voyager.jobs SET enabled = (name = 'sample_dates')")
    # a worker holds all the headers role may take of a 2-connection account (the rest is the reserve)
    assert conn.execute("SELECT voyager.nntp_claim('w', 'headers', 2, 2)").fetchone()[0] == 1
    result = run_job(db_dsn, server.port, VOYAGER_NNTP_CONNECTIONS="2")
    assert result == {"skipped": "no NNTP connection free in the budget"}
    assert conn.execute("SELECT count(*) FROM voyager.group_dates").fetchone()[0] == 0


def test_no_server_configured_is_a_skip(conn, db_dsn):
    t = Tick(db_dsn, node="tick", environ={})
    conn.execute("UPDATE voyager.jobs SET enabled = (name = 'sample_dates')")
    try:
        out = {r["job"]: r for r in t.run_due()}
    finally:
        t.close()
    assert out["sample_dates"]["result"] == {"skipped": "no news server configured (VOYAGER_NNTP_HOST)"}
