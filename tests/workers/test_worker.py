"""`voyager worker` end to end: the simulator, pgbouncer, PostgreSQL and worker
processes over a generated multi-group corpus. Each run's catalog is compared
with workers/catalog.replay_into_db of the same corpus in another database:
the same (release_key, segments, files, chunk) rows, the same pending keys,
no key twice, and the fidelity against the truth."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import psycopg
import pytest
from psycopg.types.json import Jsonb

from sim.corpus import Corpus
from sim.generate import Options, generate
from sim.server import ServerOptions, run_in_thread
from tests.conftest import create_database, drop_database
from workers.catalog import catalog_fidelity, replay_into_db

RANGE, CHUNK = 20_000, 5_000
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("worker") / "corpus"
    generate(Options(out=out, seed=11, groups=3, lines=90_000, days=3, range_articles=RANGE,
                     chunk_articles=CHUNK, bodies=False))
    return out


def prepare(conn, corpus: Path, **settings) -> None:
    for name, value in dict(range_articles=RANGE, chunk_articles=CHUNK, **settings).items():
        conn.execute("UPDATE voyager.settings SET value = %s WHERE name = %s", (str(value), name))
    conn.execute("SELECT * FROM voyager.plan_groups(%s)", (Jsonb(Corpus(corpus).groups()),))


def catalog(conn) -> tuple[set, set, int]:
    rows = conn.execute("SELECT r.release_key, r.segments, r.files, c.chunk FROM voyager.releases r "
                        "LEFT JOIN voyager.release_chunks c ON c.release_id = r.id").fetchall()
    pending = {bytes(k) for (k,) in conn.execute("SELECT release_key FROM voyager.pending_releases")}
    dups = conn.execute("SELECT count(*) - count(DISTINCT release_key) FROM voyager.releases").fetchone()[0]
    return {(bytes(k), s, f, bytes(ch) if ch is not None else None) for k, s, f, ch in rows}, pending, dups


@pytest.fixture(scope="module")
def reference(admin_dsn, template_db, corpus):
    """replay_into_db of the corpus in a database of its own."""
    name = f"voyager_ref_{os.getpid()}"
    dsn = create_database(admin_dsn, name, template=template_db[0])
    try:
        with psycopg.connect(dsn, autocommit=True) as c:
            prepare(c, corpus)
            replay_into_db(c, corpus)
            yield catalog(c)
    finally:
        drop_database(admin_dsn, name)


@pytest.fixture
def pooled_dsn(pg_server, db_dsn):
    """pgbouncer (transaction pooling) in front of the test's database, when the
    tests run their own cluster; else the database directly."""
    admin, cluster = pg_server
    if cluster is None:
        yield db_dsn
        return
    from psycopg.conninfo import conninfo_to_dict
    from tests.pgserver import free_port
    from voyager.cluster import Bouncer

    dbname = conninfo_to_dict(db_dsn)["dbname"]
    bouncer = Bouncer(workdir=cluster.datadir.parent / f"bouncer-{dbname}", port=free_port(),
                      pg_host=cluster.host, pg_port=cluster.port, database=dbname, user=cluster.user)
    bouncer.start()
    try:
        yield f"postgresql://{cluster.user}@127.0.0.1:{bouncer.port}/{dbname}"
    finally:
        bouncer.stop()


def worker(home: Path, dsn: str, port: int, *args: str, connections: int = 4, want: int | None = None,
           node: str = "w") -> subprocess.Popen:
    env = dict(os.environ, VOYAGER_HOME=str(home), VOYAGER_POOLED_DSN=dsn, VOYAGER_NNTP_HOST="127.0.0.1",
               VOYAGER_NNTP_PORT=str(port), VOYAGER_NNTP_CONNECTIONS=str(connections))
    env.pop("VOYAGER_DSN", None)
    env.pop("VOYAGER_CORPUS", None)
    if want is not None:
        env["VOYAGER_NNTP_WANT"] = str(want)
    return subprocess.Popen([sys.executable, "-m", "voyager.cli", "worker", "--flush-at-end", "--node", node,
                             *args], env=env, cwd=ROOT, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(p: subprocess.Popen, timeout: float = 240) -> str:
    out, err = p.communicate(timeout=timeout)
    assert p.returncode == 0, err[-3000:]
    return out


def same_as_reference(conn, corpus, reference) -> None:
    got = catalog(conn)
    ref_rows, ref_pending, _ = reference
    assert got[2] == 0, "a release key twice"
    assert len(got[0]) == len(ref_rows) and got[0] == ref_rows
    assert got[1] == ref_pending
    fid = catalog_fidelity(conn, corpus)
    assert fid["release"] >= 0.995 and fid["album"] >= 0.995 and fid["drop"] >= 0.995, fid
    assert conn.execute("SELECT count(*) FROM voyager.ranges WHERE status NOT IN ('done', 'ancient')"
                        ).fetchone()[0] == 0


def test_two_workers_index_the_corpus_as_the_replay_does(corpus, reference, conn, pooled_dsn, tmp_path):
    prepare(conn, corpus)
    with run_in_thread(corpus, ServerOptions()) as srv:
        out = finish(worker(tmp_path, pooled_dsn, srv.port, "--threads", "2", "--until-idle"))
    assert out.count('"lane": "history"') == 2
    same_as_reference(conn, corpus, reference)
    assert not [p for p in (tmp_path / "spool").rglob("*") if p.is_file()], "stored ranges leave no spool files"


def test_a_killed_worker_is_taken_over_and_the_catalog_is_the_same(corpus, reference, conn, pooled_dsn,
                                                                     tmp_path):
    prepare(conn, corpus, lease_ttl_seconds=3, snapshot_minutes=0, nntp_claim_ttl_seconds=3)
    with run_in_thread(corpus, ServerOptions(latency=0.05)) as srv:
        a = worker(tmp_path, pooled_dsn, srv.port, "--until-idle", node="a")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:       # mid-range, after a snapshot
            n = conn.execute("SELECT count(*) FROM voyager.snapshots").fetchone()[0]
            mid = conn.execute("SELECT count(*) FROM voyager.ranges WHERE status = 'leased' "
                               "AND next_article > start_article AND next_article <= end_article - %s",
                               (2 * CHUNK,)).fetchone()[0]
            if n and mid:
                break
            time.sleep(0.02)
        os.killpg(a.pid, signal.SIGKILL)
        a.communicate()
        assert conn.execute("SELECT count(*) FROM voyager.group_leases WHERE token IS NOT NULL").fetchone()[0] == 1
        b = worker(tmp_path, pooled_dsn, srv.port, "--until-idle", node="b")
        finish(b)
    assert conn.execute("SELECT sum(takeovers) FROM voyager.group_leases").fetchone()[0] == 1
    same_as_reference(conn, corpus, reference)


def test_faults_and_an_account_smaller_than_asked(corpus, reference, conn, pooled_dsn, tmp_path):
    """Replies cut short and connections dropped; the account allows 3
    connections, two processes ask for 3 each: the server never sees more."""
    prepare(conn, corpus, nntp_claim_ttl_seconds=3)
    opts = ServerOptions(cut_short_rate=0.3, drop_rate=0.1, max_connections=3, seed=5)
    with run_in_thread(corpus, opts) as srv:
        finish(worker(tmp_path, pooled_dsn, srv.port, "--threads", "2", "--until-idle", connections=3, want=3))
        stats = srv.server.stats
    assert 0 < stats["peak_open"] <= 3, stats
    same_as_reference(conn, corpus, reference)


def test_spooled_replies_inflate_once_and_a_cut_one_is_fetched_again(corpus, tmp_path):
    """The fetch path without the database: compressed replies are spooled as
    their zlib stream (.szz, 5x smaller than the text) and inflated on the text
    thread; one that does not inflate (cut short) is fetched again, the client
    inflating, and the window gets the exact lines."""
    from types import SimpleNamespace

    from workers.nntp import NntpConfig, NntpPool, chunk_requests
    from workers.worker import Fetcher, LaneWorker, Spool

    c = Corpus(corpus)
    group = c.group_names()[0]
    r = c.ranges(group)[0]
    reqs = chunk_requests(r.start, r.end, CHUNK)
    want = {(a, b): b"".join(x + b"\r\n" for x in c.lines(group, a, b)) for a, b in reqs}
    with run_in_thread(corpus, ServerOptions()) as srv:
        pool = NntpPool(NntpConfig(host="127.0.0.1", port=srv.port, connections=2, timeout=15))
        spool = Spool(tmp_path / "spool", 1 << 30)
        fetcher = Fetcher(pool, spool, 2)
        lw = LaneWorker.__new__(LaneWorker)
        lw.fetcher, lw.spool, lw.corpus_dir, lw.chunk_articles = fetcher, spool, None, CHUNK
        lw.stopping, lw.keeper = False, SimpleNamespace(lost=False)
        lw.stats, lw.cpu = {"chunks_fetched_again": 0, "chunks_from_corpus": 0}, {"window": 0.0, "store": 0.0}
        # the second chunk's reply arrives cut short (as a .szz that does not inflate)
        cut = reqs[1]
        whole = zlib.compress(want[cut])
        spool.put(group, *cut, whole[:len(whole) // 2], "zlib-stuffed")
        try:
            got = list(lw.chunks(group, r.start, r.end, r.start))
            suffixes = sorted({p.suffix for p in spool.root.rglob("*") if p.is_file()})
        finally:
            fetcher.close()
            pool.close()
    assert [(a, b) for a, b, _ in got] == reqs and len(reqs) > 2
    for a, b, text in got:
        assert bytes(text) == want[a, b], (a, b)
    assert lw.stats["chunks_fetched_again"] == 1 and (group, *cut) in fetcher.inflated
    assert suffixes == [".ov", ".szz"]          # the cut chunk fetched again as text, the others as they came
    assert lw.cpu["inflate"] > 0 and lw.wall["text_wait"] >= 0
