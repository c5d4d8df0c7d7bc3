"""Read replicas of the cluster (voyager.replicas, `voyager db replica`): a
streaming standby of the test cluster made by the code the CLI runs, what it
replays, its lag seen from both ends, and its removal; then the CLI's own
path on a cluster under a VOYAGER_HOME of its own, started and stopped with it."""
from __future__ import annotations

import dataclasses
import json
import time

import psycopg
import pytest

from tests.test_cli import home, psql, run  # noqa: F401 (the CLI's fixture)
from voyager import replicas


@pytest.fixture(scope="module")
def primary(pg_server):
    cluster = pg_server[1]
    if cluster is None:
        pytest.skip("replicas are made of the project's own cluster")
    return cluster


@pytest.fixture(scope="module")
def replica_home(primary):
    return primary.datadir.parent / "home"


@pytest.fixture(scope="module")
def replica(primary, replica_home):
    rep = replicas.add(primary, replica_home, "t1")
    yield rep
    replicas.remove(primary, replica_home, "t1", log=lambda _m: None)


def replayed(conn, replica, dbname: str) -> psycopg.Connection:
    """A connection to the replica's copy of the database, once it has
    replayed what the primary holds now (the test's database is younger than
    the replica)."""
    with psycopg.connect(replica.dsn("postgres"), autocommit=True) as rconn:
        replicas.wait_replayed(conn, rconn)
    return psycopg.connect(replica.dsn(dbname), autocommit=True)


def test_a_row_written_on_the_primary_is_read_on_the_replica(replica, db_dsn, conn):
    dbname = psycopg.conninfo.conninfo_to_dict(db_dsn)["dbname"]
    conn.execute("CREATE TABLE public.seen (name text)")
    conn.execute("INSERT INTO public.seen VALUES ('alt.binaries.replicated')")
    with replayed(conn, replica, dbname) as rconn:
        assert rconn.execute("SELECT count(*) FROM public.seen WHERE name = 'alt.binaries.replicated'"
                             ).fetchone() == (1,)
        assert rconn.execute("SELECT pg_is_in_recovery()").fetchone() == (True,)
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            rconn.execute("INSERT INTO public.seen VALUES ('alt.binaries.nope')")


def test_adding_again_changes_nothing_and_the_list_says_where_it_is(primary, replica_home, replica):
    again = replicas.add(primary, replica_home, "t1", log=lambda _m: None)
    assert again.cluster.port == replica.cluster.port and again.cluster.running()
    (row,) = replicas.listing(primary, replica_home, "voyager")
    assert row["name"] == "t1" and row["port"] == replica.cluster.port and row["running"] and row["streaming"]
    assert row["dsn"] == f"postgresql://{primary.user}@{primary.host}:{replica.cluster.port}/voyager"
    assert row["lag_bytes"] is not None and row["lag_seconds"] is not None
    with psycopg.connect(primary.dsn(), autocommit=True) as conn:
        (slot,) = replicas.primary_view(conn)
    assert slot["name"] == "t1" and slot["connected"] and slot["state"] == "streaming"


def test_a_paused_replay_shows_as_lag_on_the_replica(replica, conn, db_dsn):
    dbname = psycopg.conninfo.conninfo_to_dict(db_dsn)["dbname"]
    conn.execute("CREATE TABLE public.seen (name text)")
    with replayed(conn, replica, dbname) as rconn:
        assert replicas.lag(rconn)["lag_seconds"] < 1.0      # (the WAL a quiet primary writes: replayed at once)
        rconn.execute("SELECT pg_wal_replay_pause()")
        try:
            conn.execute("INSERT INTO public.seen VALUES ('alt.binaries.late')")
            time.sleep(1.2)
            conn.execute("INSERT INTO public.seen VALUES ('alt.binaries.later')")
            deadline = time.monotonic() + 10
            while (seen := replicas.lag(rconn))["unreplayed_bytes"] <= 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert seen["paused"] and seen["unreplayed_bytes"] > 0 and seen["lag_seconds"] >= 1.0
            assert rconn.execute("SELECT count(*) FROM public.seen WHERE name LIKE 'alt.binaries.late%'"
                                 ).fetchone() == (0,)
        finally:
            rconn.execute("SELECT pg_wal_replay_resume()")
        replicas.wait_replayed(conn, rconn)
        assert rconn.execute("SELECT count(*) FROM public.seen WHERE name LIKE 'alt.binaries.late%'"
                             ).fetchone() == (2,)


def test_remove_leaves_no_slot_and_no_folder(primary, replica_home):
    # (a pool of its own size: a replica beside its primary on one machine)
    rep = replicas.add(primary, replica_home, "gone", log=lambda _m: None, shared_buffers_mb=48)
    folder = rep.cluster.datadir.parent
    assert folder.exists()
    with psycopg.connect(rep.dsn("postgres"), autocommit=True) as rconn, \
            psycopg.connect(primary.dsn(), autocommit=True) as conn:
        assert rconn.execute("SHOW shared_buffers").fetchone() == ("48MB",)
        assert conn.execute("SHOW shared_buffers").fetchone() != ("48MB",)
    assert replicas.remove(primary, replica_home, "gone", log=lambda _m: None)
    with psycopg.connect(primary.dsn(), autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'gone'").fetchone() == (0,)
    assert not folder.exists() and not rep.cluster.running()
    assert not replicas.remove(primary, replica_home, "gone", log=lambda _m: None)


def test_a_replica_tells_where_its_primary_tells(primary, replica_home, replica):
    """What a replica's start and stop say (huge pages, its port) goes to
    its primary's log: a bench whose stdout is its JSON hands the primary
    a log of stderr, and a replica's restart must not print into the JSON."""
    said: list[str] = []
    quiet = dataclasses.replace(primary, log=said.append)
    assert all(r.cluster.log == said.append for r in replicas.replicas(quiet, replica_home))
    assert replicas.replica(quiet, replica_home, "t9").cluster.log == said.append


def test_a_bad_name_is_refused(primary, replica_home):
    with pytest.raises(ValueError):
        replicas.add(primary, replica_home, "../x")


def test_the_cli_replica_starts_and_stops_with_the_cluster(home):  # noqa: F811
    run(home, "db", "up")
    added = json.loads(run(home, "db", "replica", "add").stdout.strip().splitlines()[-1])
    assert added["name"] == "r1"
    assert json.loads(run(home, "db", "replica", "add").stdout.strip().splitlines()[-1]) == added   # idempotent
    dsn = run(home, "db", "dsn").stdout.strip()
    psql(home, dsn, "CREATE TABLE public.seen (x int); INSERT INTO public.seen VALUES (7)")
    deadline = time.monotonic() + 20
    while True:
        try:
            if psql(home, added["dsn"], "SELECT x FROM public.seen") == "7":
                break
        except AssertionError:
            pass
        assert time.monotonic() < deadline, "the replica never replayed the row"
        time.sleep(0.1)
    (listed,) = [json.loads(line) for line in run(home, "db", "replica", "list").stdout.splitlines()]
    assert listed["name"] == "r1" and listed["running"] and listed["port"] == added["port"]
    status = json.loads(run(home, "status", "--json").stdout)
    assert [r["name"] for r in status["replicas"]] == ["r1"] and status["replicas"][0]["connected"]
    assert "Replicas" in run(home, "status").stdout

    assert "stopped replica r1" in run(home, "db", "down").stdout
    (listed,) = [json.loads(line) for line in run(home, "db", "replica", "list").stdout.splitlines()]
    assert not listed["running"]
    assert "started replica r1" in run(home, "db", "up").stdout

    run(home, "db", "replica", "remove", "r1")
    assert run(home, "db", "replica", "list").stdout == ""
    assert psql(home, dsn, "SELECT count(*) FROM pg_replication_slots") == "0"
    assert run(home, "db", "replica", "remove", "r1", check=False).returncode == 1
