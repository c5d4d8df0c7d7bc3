"""voyager tick: the jobs' schedule in the database, --once, two ticks racing,
a failing job, a claim whose tick died, SIGTERM."""
from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest

from voyager.tick import HANDLERS, Tick

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_JOBS = ["chunk_partitions", "judge", "judge_daily", "merges", "par2_lists", "pending_ladder", "prune_snapshots", "recategorize", "sample_dates", "search_counts", "settle", "spot_matches", "spots_inspect", "spots_read", "tail_plan"]


def jobs(conn) -> dict[str, dict]:
    cur = conn.execute("SELECT * FROM voyager.status_jobs")
    return {r[0]: dict(zip([c.name for c in cur.description], r)) for r in cur.fetchall()}


def add_job(conn, name: str, function: str, every_seconds: int = 3600, timeout: str = "10 minutes") -> None:
    conn.execute("""INSERT INTO voyager.settings (name, value, description) VALUES (%s, %s, 'test period')
                    ON CONFLICT (name) DO UPDATE SET value = excluded.value""", (f"{name}_seconds", str(every_seconds)))
    conn.execute("""INSERT INTO voyager.jobs (name, kind, function, every_setting, timeout, description)
                    VALUES (%s, 'sql', %s, %s, %s, 'a test job')""", (name, function, f"{name}_seconds", timeout))


@pytest.fixture
def job_log(conn):
    """public.job_log: each run of the test jobs, with when it started and ended."""
    conn.execute("CREATE TABLE public.job_log (job text, started timestamptz, ended timestamptz, node text)")
    conn.execute("""CREATE FUNCTION public.logged_job(p_job text, p_sleep float8) RETURNS text LANGUAGE plpgsql AS $$
                    DECLARE t0 timestamptz := clock_timestamp();
                    BEGIN
                        PERFORM pg_sleep(p_sleep);
                        INSERT INTO public.job_log VALUES (p_job, t0, clock_timestamp(),
                                                           current_setting('application_name'));
                        RETURN p_job || ' done';
                    END $$""")
    for name, sleep in (("slow_a", 0.3), ("slow_b", 0.3), ("slow_c", 0.3), ("slow_d", 0.3), ("long", 2.0)):
        conn.execute(f"""CREATE FUNCTION public.{name}() RETURNS text LANGUAGE sql
                         AS $$ SELECT public.logged_job('{name}', {sleep}) $$""")
    return conn


def tick(dsn, node="t1", **kw) -> Tick:
    kw.setdefault("environ", {})                 # no news server: the tail planner skips
    return Tick(dsn, node=node, **kw)


def test_once_runs_every_due_job_once_and_then_nothing(conn, db_dsn, caplog):
    t = tick(db_dsn)
    out = t.run_due()
    assert sorted(r["job"] for r in out) == DEFAULT_JOBS
    assert all(r["error"] is None and r["recorded"] for r in out)
    by = {r["job"]: r for r in out}
    assert by["settle"]["result"] == 0
    assert by["chunk_partitions"]["result"] >= 2                 # this month and the next
    assert by["tail_plan"]["result"] == {"skipped": "no news server configured (VOYAGER_NNTP_HOST)"}
    assert "tail_plan skipped: no news server configured" in caplog.text
    state = jobs(conn)
    for name, period in (("tail_plan", 120), ("settle", 300), ("chunk_partitions", 3600)):
        j = state[name]
        assert (j["runs"], j["failures"], j["last_ok"], j["running"], j["last_node"]) == (1, 0, True, False, "t1")
        assert j["every"] == dt.timedelta(seconds=period)
        assert dt.timedelta(seconds=period - 60) < j["due_in"] <= dt.timedelta(seconds=period)
    assert t.run_due() == []                                      # nothing is due right after
    assert tick(db_dsn, node="t2").run_due() == []                # for any tick
    t.close()


def test_the_cli_once_then_nothing(conn, db_dsn, monkeypatch, capsys):
    from voyager.cli import main

    for k in [k for k in os.environ if k.startswith("VOYAGER_NNTP")]:
        monkeypatch.delenv(k)
    monkeypatch.setenv("VOYAGER_DSN", db_dsn)
    assert main(["tick", "--once", "--node", "cli"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sorted(__import__("json").loads(x)["job"] for x in lines) == DEFAULT_JOBS
    assert main(["tick", "--once"]) == 0
    assert capsys.readouterr().out == ""
    assert {j["last_node"] for j in jobs(conn).values()} == {"cli"}


def test_a_period_setting_and_next_run_at_decide(conn, db_dsn):
    t = tick(db_dsn)
    t.run_due()
    conn.execute("UPDATE voyager.jobs SET next_run_at = now() WHERE name = 'settle'")   # run it now
    conn.execute("UPDATE voyager.jobs SET enabled = false WHERE name = 'chunk_partitions'")
    conn.execute("UPDATE voyager.jobs SET next_run_at = now() WHERE name = 'chunk_partitions'")
    conn.execute("UPDATE voyager.settings SET value = '30' WHERE name = 'settle_seconds'")
    assert [r["job"] for r in t.run_due()] == ["settle"]
    assert dt.timedelta(seconds=25) < jobs(conn)["settle"]["due_in"] <= dt.timedelta(seconds=30)
    t.close()


def test_two_ticks_never_run_a_job_twice_in_a_period(job_log, db_dsn):
    conn = job_log
    for name in ("slow_a", "slow_b", "slow_c", "slow_d"):
        add_job(conn, name, f"public.{name}")
    ticks = [tick(db_dsn, node=f"t{i}") for i in range(2)]
    barrier = threading.Barrier(2)
    out: dict[str, list] = {}

    def run(t):
        t._connection()
        barrier.wait()
        out[t.node] = [r["job"] for r in t.run_due()]

    threads = [threading.Thread(target=run, args=(t,)) for t in ticks]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    ran = out["t0"] + out["t1"]
    assert sorted(ran) == sorted(DEFAULT_JOBS + ["slow_a", "slow_b", "slow_c", "slow_d"])   # each once
    assert out["t0"] and out["t1"]                        # both took some: they ran side by side
    assert conn.execute("SELECT job, count(*) FROM public.job_log GROUP BY 1 HAVING count(*) > 1").fetchall() == []
    assert conn.execute("SELECT count(*) FROM public.job_log").fetchone()[0] == 4
    assert {j["runs"] for j in jobs(conn).values()} == {1}
    assert [t.run_due() for t in ticks] == [[], []]       # and neither runs anything again this period
    for t in ticks:
        t.close()


def test_two_tick_processes_share_the_periods(job_log, db_dsn):
    conn = job_log
    conn.execute("UPDATE voyager.jobs SET enabled = false")
    add_job(conn, "slow_a", "public.slow_a", every_seconds=1)         # 0.3 s a run, due every second
    add_job(conn, "slow_b", "public.slow_b", every_seconds=1)
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOYAGER_")}
    env.update(VOYAGER_DSN=db_dsn)
    procs = [subprocess.Popen([sys.executable, "-m", "voyager.cli", "tick", "--interval", "0.05", "--node", f"p{i}"],
                              env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for i in range(2)]
    try:
        time.sleep(5)
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            p.communicate(timeout=20)
    assert [p.returncode for p in procs] == [0, 0]
    for name in ("slow_a", "slow_b"):
        runs = conn.execute("SELECT started, ended, node FROM public.job_log WHERE job = %s ORDER BY started",
                            (name,)).fetchall()
        assert len(runs) >= 3
        for (s0, e0, _), (s1, _e1, _) in zip(runs, runs[1:]):
            assert e0 <= s1 and s1 - s0 >= dt.timedelta(seconds=0.9)     # one run a period, never two at once
    nodes = {n for (n,) in conn.execute("SELECT DISTINCT node FROM public.job_log")}
    assert nodes == {"voyager tick p0", "voyager tick p1"}                # both took their turns


def test_a_run_longer_than_its_period_never_overlaps_itself(job_log, db_dsn):
    conn = job_log
    conn.execute("UPDATE voyager.jobs SET enabled = false")
    add_job(conn, "long", "public.long", every_seconds=1)             # runs 2 s, due every second
    a, b = tick(db_dsn, node="a"), tick(db_dsn, node="b")
    th = threading.Thread(target=a.run_due)
    th.start()
    time.sleep(1.4)                                                   # due again, but still running
    assert jobs(conn)["long"]["running"] is True
    assert b.run_due() == []
    th.join(30)
    time.sleep(0.2)
    assert [r["job"] for r in b.run_due()] == ["long"]                # due, no longer running
    spans = conn.execute("SELECT started, ended FROM public.job_log ORDER BY started").fetchall()
    assert len(spans) == 2 and spans[0][1] <= spans[1][0]
    a.close()
    b.close()


def test_a_dead_ticks_claim_runs_out_with_its_lease(conn, db_dsn):
    conn.execute("UPDATE voyager.jobs SET enabled = false WHERE name <> 'settle'")
    name, _kind, _fn, claim, _timeout = conn.execute(
        "SELECT * FROM voyager.claim_due_job('dead', '{}', '{}')").fetchone()   # and never finishes
    assert name == "settle"
    conn.execute("UPDATE voyager.jobs SET next_run_at = now() - interval '1 second'")   # due again
    assert tick(db_dsn).run_due() == []                                # but its lease still holds
    conn.execute("UPDATE voyager.jobs SET expires_at = now() - interval '1 second' WHERE name = 'settle'")
    assert [r["job"] for r in tick(db_dsn, node="alive").run_due()] == ["settle"]
    # the dead tick's late answer is not recorded over the new run
    assert conn.execute("SELECT voyager.finish_job('settle', %s, '1', 'late')", (claim,)).fetchone()[0] is False
    j = jobs(conn)["settle"]
    assert (j["last_node"], j["last_error"], j["runs"]) == ("alive", None, 2)


def test_a_failing_job_is_recorded_retried_next_period_and_the_others_run(conn, db_dsn, caplog):
    conn.execute("""CREATE FUNCTION public.broken() RETURNS integer LANGUAGE plpgsql
                    AS $$ BEGIN RAISE EXCEPTION 'the disk is full'; END $$""")
    add_job(conn, "broken", "public.broken", every_seconds=60)
    calls = []

    def failing_handler(ctx):
        calls.append(ctx.name)
        raise RuntimeError("the news server said no")

    conn.execute("""INSERT INTO voyager.jobs (name, kind, every_setting, description)
                    VALUES ('py_broken', 'python', 'broken_seconds', 'a python job that fails')""")
    t = tick(db_dsn, handlers={**HANDLERS, "py_broken": failing_handler})
    out = {r["job"]: r for r in t.run_due()}
    assert sorted(out) == sorted(DEFAULT_JOBS + ["broken", "py_broken"])
    assert "the disk is full" in out["broken"]["error"] and out["broken"]["recorded"]
    assert out["py_broken"]["error"] == "RuntimeError: the news server said no"
    state = jobs(conn)
    assert all(state[n]["last_ok"] for n in DEFAULT_JOBS)
    b = state["broken"]
    assert (b["last_ok"], b["failures"], b["runs"], b["running"]) == (False, 1, 1, False)
    assert "the disk is full" in b["last_error"]
    assert dt.timedelta(seconds=50) < b["due_in"] <= dt.timedelta(seconds=60)       # retried next period
    assert "job broken failed" in caplog.text
    # next period it is tried again; fixed, it succeeds and the error is gone
    conn.execute("UPDATE voyager.jobs SET next_run_at = now() WHERE name IN ('broken', 'py_broken')")
    assert sorted(r["job"] for r in t.run_due()) == ["broken", "py_broken"]
    assert jobs(conn)["broken"]["failures"] == 2 and calls == ["py_broken", "py_broken"]
    conn.execute("CREATE OR REPLACE FUNCTION public.broken() RETURNS integer LANGUAGE sql AS $$ SELECT 7 $$")
    conn.execute("UPDATE voyager.jobs SET next_run_at = now() WHERE name = 'broken'")
    t.run_due()
    b = jobs(conn)["broken"]
    assert (b["last_ok"], b["last_error"], b["last_result"], b["failures"], b["runs"]) == (True, None, 7, 2, 3)
    t.close()


def test_a_python_job_without_a_handler_here_is_left_to_a_tick_that_has_one(conn, db_dsn):
    conn.execute("""INSERT INTO voyager.jobs (name, kind, every_setting, description)
                    VALUES ('phase2_probe', 'python', 'settle_seconds', 'a phase-2 job')""")
    assert "phase2_probe" not in [r["job"] for r in tick(db_dsn).run_due()]
    seen = []
    out = tick(db_dsn, handlers={"phase2_probe": lambda ctx: seen.append(ctx.name) or {"probed": 0}}).run_due()
    assert [r["job"] for r in out] == ["phase2_probe"] and seen == ["phase2_probe"]
    assert jobs(conn)["phase2_probe"]["last_result"] == {"probed": 0}


def test_the_loop_survives_failures_and_stops_when_asked(conn, db_dsn):
    conn.execute("""CREATE FUNCTION public.broken() RETURNS integer LANGUAGE plpgsql
                    AS $$ BEGIN RAISE EXCEPTION 'still broken'; END $$""")
    add_job(conn, "broken", "public.broken", every_seconds=1)
    t = tick(db_dsn, interval=0.2)
    rc = []
    th = threading.Thread(target=lambda: rc.append(t.run()))
    th.start()
    time.sleep(2.6)
    t.request_stop()
    th.join(10)
    assert not th.is_alive() and rc == [0]
    state = jobs(conn)
    assert state["broken"]["runs"] >= 2 and state["broken"]["failures"] == state["broken"]["runs"]
    assert state["settle"]["runs"] == 1 and state["settle"]["last_ok"]


def test_sigterm_lets_the_job_in_hand_finish_then_exits(job_log, db_dsn):
    conn = job_log
    conn.execute("UPDATE voyager.jobs SET enabled = false")
    add_job(conn, "long", "public.long")                              # 2 s
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOYAGER_")}
    env.update(VOYAGER_DSN=db_dsn)
    p = subprocess.Popen([sys.executable, "-m", "voyager.cli", "tick", "--interval", "0.2", "--node", "proc"],
                         env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while not jobs(conn)["long"]["running"]:
            assert time.monotonic() < deadline and p.poll() is None
            time.sleep(0.05)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    assert '"job": "long"' in out
    j = jobs(conn)["long"]
    assert (j["runs"], j["last_ok"], j["running"], j["last_result"]) == (1, True, False, "long done")
    assert conn.execute("SELECT count(*) FROM public.job_log").fetchone()[0] == 1


def test_claims_need_a_node_and_sql_jobs_a_function(conn):
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        conn.execute("SELECT * FROM voyager.claim_due_job('')")
    with pytest.raises(psycopg.errors.CheckViolation):
        conn.execute("""INSERT INTO voyager.jobs (name, kind, every_setting, description)
                        VALUES ('nofn', 'sql', 'settle_seconds', 'x')""")
    with pytest.raises(psycopg.errors.CheckViolation):     # schema.function, nothing else
        conn.execute("""INSERT INTO voyager.jobs (name, kind, function, every_setting, description)
                        VALUES ('inject', 'sql', 'voyager.x(); drop table y', 'settle_seconds', 'x')""")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="python job"):
        conn.execute("SELECT voyager.run_sql_job('tail_plan')")
