"""A worker, a tick, a prober and a namer as another host runs them: a fresh
empty VOYAGER_HOME, no VOYAGER_* setting but that home and the news server's
(with AUTHINFO), the database reached only through a pgbouncer on another
loopback address (127.0.0.2) given by --dsn, the local cluster's address
pointing at nothing. The catalog is the one the replay makes of the corpus,
and nothing of a cluster appears in that home."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from sim.generate import Options, generate
from sim.server import ServerOptions, run_in_thread
from tests.conftest import create_database, drop_database
from tests.pgserver import free_port
from tests.workers.test_worker import catalog, prepare, same_as_reference
from workers.replay import replay_into_db

ROOT = Path(__file__).resolve().parents[2]
RANGE, CHUNK = 20_000, 5_000


def _bindable(host: str) -> bool:
    try:
        with socket.socket() as s:
            s.bind((host, 0))
        return True
    except OSError:
        return False


DB_HOST = "127.0.0.2" if _bindable("127.0.0.2") else "127.0.0.1"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("other-host") / "corpus"
    generate(Options(out=out, seed=12, groups=2, lines=40_000, days=2, range_articles=RANGE,
                     chunk_articles=CHUNK, bodies=False))
    return out


@pytest.fixture(scope="module")
def reference(admin_dsn, template_db, corpus):
    """The replay's catalog of the corpus, in a database of its own."""
    name = f"voyager_ref_host_{os.getpid()}"
    dsn = create_database(admin_dsn, name, template=template_db[0])
    try:
        with psycopg.connect(dsn, autocommit=True) as c:
            prepare(c, corpus)
            replay_into_db(c, corpus)
            yield catalog(c)
    finally:
        drop_database(admin_dsn, name)


@pytest.fixture
def remote_dsn(pg_server, db_dsn):
    """The database host's pgbouncer on DB_HOST in front of the test's database."""
    admin, cluster = pg_server
    if cluster is None:
        pytest.skip("needs the tests' own cluster to put a pgbouncer in front of it")
    from psycopg.conninfo import conninfo_to_dict
    from voyager.cluster import Bouncer

    dbname = conninfo_to_dict(db_dsn)["dbname"]
    bouncer = Bouncer(workdir=cluster.datadir.parent / f"bouncer-host-{dbname}", port=free_port(DB_HOST),
                      pg_host=cluster.host, pg_port=cluster.port, database=dbname, user=cluster.user, host=DB_HOST)
    bouncer.start()
    try:
        yield f"postgresql://{cluster.user}@{DB_HOST}:{bouncer.port}/{dbname}"
    finally:
        bouncer.stop()


def remote(home: Path, nntp_port: int, *args: str, timeout: float = 240) -> str:
    """`voyager ARGS` with what another host has: its own home and the news server's settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOYAGER_")}
    env.update(VOYAGER_HOME=str(home), VOYAGER_NNTP_HOST="127.0.0.1", VOYAGER_NNTP_PORT=str(nntp_port),
               VOYAGER_NNTP_USER="indexer", VOYAGER_NNTP_PASS="secret", VOYAGER_NNTP_CONNECTIONS="4",
               # the local cluster's defaults lead nowhere: only --dsn reaches the database
               VOYAGER_PGHOST="127.0.0.1", VOYAGER_PGPORT=str(free_port()), VOYAGER_PGBOUNCER_PORT=str(free_port()))
    out = subprocess.run([sys.executable, "-m", "voyager.cli", *args], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=timeout)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_a_worker_and_a_tick_of_another_host_need_only_a_dsn(corpus, reference, conn, remote_dsn, tmp_path):
    prepare(conn, corpus)
    home = tmp_path / "other-host"
    home.mkdir()
    with run_in_thread(corpus, ServerOptions(user="indexer", password="secret")) as srv:
        out = remote(home, srv.port, "worker", "--dsn", remote_dsn, "--threads", "2", "--until-idle",
                     "--flush-at-end", "--node", "other")
        assert out.count('"lane": "history"') == 2
        ticked = [json.loads(line) for line in
                  remote(home, srv.port, "tick", "--once", "--dsn", remote_dsn, "--node", "other/tick").splitlines()]
        probed = json.loads(remote(home, srv.port, "probe", "--dsn", remote_dsn, "--until-idle",
                                   "--node", "other").splitlines()[-1])
        named = json.loads(remote(home, srv.port, "namer", "--dsn", remote_dsn, "--until-idle",
                                  "--node", "other").splitlines()[-1])
    same_as_reference(conn, corpus, reference)
    # the tick ran its jobs there: the tail planner's LIST ACTIVE with the account's credentials among them
    assert ticked and not [r for r in ticked if r["error"]], ticked
    tail_plan = next(r for r in ticked if r["job"] == "tail_plan")
    assert tail_plan["result"]["groups_listed"] == 2, tail_plan
    assert conn.execute("SELECT count(*) FROM voyager.jobs WHERE last_node = 'other/tick'").fetchone()[0] \
        == len(ticked)
    assert probed["node"] == "other/probe" and named["node"] == "other/namer"
    # the probe targets the store made were claimed, fetched and stored from that host
    assert probed["claimed"] > 0 and probed["stored"] == probed["claimed"], probed
    # that home holds the spool it reported and nothing of a cluster or a pgbouncer
    assert {p.name for p in home.iterdir()} <= {"spool"}
    assert not (home / "pg").exists() and not (home / "pgbouncer").exists()
    assert conn.execute("SELECT array_agg(DISTINCT node) FROM voyager.spool_reports").fetchone()[0] == ["other"]
