"""`voyager worker` end to end: the simulator, pgbouncer, PostgreSQL and worker
processes over a generated multi-group corpus. Each run's catalog is compared
with workers/replay.replay_into_db of the same corpus in another database:
the same (release_key, segments, files, chunk) rows, the same pending keys,
no key twice, and the fidelity against the truth. The tail tests grow the
groups' LIST ACTIVE in steps over the same corpus (listing_at) and re-plan, as
the tail planner does; the server serves the whole corpus throughout."""
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

from sim.generate import Options, generate
from sim.server import ServerOptions, run_in_thread
from tests.conftest import create_database, drop_database
from voyager.corpus import Corpus
from workers.replay import catalog_fidelity, replay_into_db

RANGE, CHUNK = 20_000, 5_000
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("worker") / "corpus"
    generate(Options(out=out, seed=11, groups=3, lines=90_000, days=3, range_articles=RANGE,
                     chunk_articles=CHUNK, bodies=False))
    return out


def prepare(conn, corpus: Path, listing: list[dict] | None = None, **settings) -> None:
    for name, value in dict(range_articles=RANGE, chunk_articles=CHUNK, **settings).items():
        conn.execute("UPDATE voyager.settings SET value = %s WHERE name = %s", (str(value), name))
    plan(conn, listing or Corpus(corpus).groups())


def plan(conn, listing: list[dict]) -> None:
    """What `voyager tick` does with a fresh LIST ACTIVE: the tail planner."""
    conn.execute("SELECT * FROM voyager.plan_groups(%s)", (Jsonb(listing),))


def listing_at(corpus: Path, share: float) -> list[dict]:
    """The corpus's LIST ACTIVE as it stood earlier: each group's high at the end
    of the corpus chunk holding the article `share` of the way from low to high
    (a chunk's end, so a replay can stop or start there)."""
    c = Corpus(corpus)
    out = []
    for g in c.groups():
        target = g["low"] + int(share * (g["high"] - g["low"]))
        out.append({**g, "high": min(ch.last for ch in c.chunks(g["name"]) if ch.last >= target)})
    return out


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
           node: str = "w", flush: bool = True, env: dict | None = None) -> subprocess.Popen:
    extra = env or {}
    env = dict(os.environ, VOYAGER_HOME=str(home), VOYAGER_POOLED_DSN=dsn, VOYAGER_NNTP_HOST="127.0.0.1",
               VOYAGER_NNTP_PORT=str(port), VOYAGER_NNTP_CONNECTIONS=str(connections))
    env.pop("VOYAGER_DSN", None)
    env.pop("VOYAGER_CORPUS", None)
    env.update(extra)
    if want is not None:
        env["VOYAGER_NNTP_WANT"] = str(want)
    return subprocess.Popen([sys.executable, "-m", "voyager.cli", "worker", *(["--flush-at-end"] if flush else []),
                             "--node", node, *args], env=env, cwd=ROOT, start_new_session=True,
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
    # the spool was reported for voyager.status_spool, once for the machine (its lanes share the folder)
    assert conn.execute("SELECT count(DISTINCT node) FROM voyager.spool_reports").fetchone()[0] == 1


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


def wait_for(what, timeout: float = 60, every: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = what()
        if got:
            return got
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {getattr(what, '__name__', what)}")


TAIL = ("--threads", "0", "--tail-threads", "1", "--until-idle")


def lane_snapshots(conn, lane: str) -> dict[str, int | None]:
    return dict(conn.execute("SELECT g.name, gl.snapshot_article FROM voyager.group_leases gl "
                             "JOIN voyager.groups g ON g.id = gl.group_id WHERE gl.lane = %s::voyager.lane",
                             (lane,)).fetchall())


def keys(conn, where: str) -> set[bytes]:
    return {bytes(k) for (k,) in conn.execute(f"SELECT release_key FROM voyager.releases WHERE {where}")}


def settled_rows(conn) -> set:
    return {(bytes(k), s, f, bytes(ch)) for k, s, f, ch in conn.execute(
        "SELECT r.release_key, r.segments, r.files, c.chunk FROM voyager.releases r "
        "JOIN voyager.release_chunks c ON c.release_id = r.id WHERE r.settled_at IS NOT NULL")}


def test_a_worker_killed_before_its_lease_end_is_taken_over(corpus, reference, conn, pooled_dsn, tmp_path):
    """SIGKILL right after the group's last range's last batch, before the lease
    end (flush or provisional writes, snapshot, release): nothing is planned or
    leased any more, yet the silent lease is taken over; the new holder restores
    the snapshot, redoes the last chunk and writes the lease end."""
    prepare(conn, corpus, lease_ttl_seconds=3, snapshot_minutes=0, nntp_claim_ttl_seconds=3)
    marker = tmp_path / "before-lease-end"
    with run_in_thread(corpus, ServerOptions()) as srv:
        a = worker(tmp_path, pooled_dsn, srv.port, "--until-idle", node="a",
                   env={"VOYAGER_TEST_PAUSE_BEFORE_LEASE_END": str(marker)})
        wait_for(marker.exists)
        group = marker.read_text()
        todo = conn.execute("SELECT count(*) FROM voyager.ranges r JOIN voyager.groups g ON g.id = r.group_id "
                            "WHERE g.name = %s AND r.status NOT IN ('done', 'ancient')", (group,)).fetchone()[0]
        held = conn.execute("SELECT gl.holder, gl.snapshot_article, r.end_article FROM voyager.group_leases gl "
                            "JOIN voyager.groups g ON g.id = gl.group_id JOIN voyager.ranges r ON r.id = gl.range_id "
                            "WHERE g.name = %s AND gl.lane = 'history'", (group,)).fetchone()
        assert todo == 0 and held[0] == "a/h0", "every range done, the lease end still to come"
        assert held[1] <= held[2], "the last snapshot stands inside the last range: the redo is its rest"
        os.killpg(a.pid, signal.SIGKILL)
        a.communicate()
        b = worker(tmp_path, pooled_dsn, srv.port, "--until-idle", node="b")
        out = finish(b)
    assert '"takeovers": 1' in out
    assert conn.execute("SELECT sum(takeovers) FROM voyager.group_leases").fetchone()[0] == 1
    same_as_reference(conn, corpus, reference)
    assert conn.execute("SELECT count(*) FROM voyager.releases WHERE settled_at IS NULL").fetchone()[0] == 0


def test_sigterm_writes_the_lease_end_and_another_worker_continues(corpus, reference, conn, pooled_dsn, tmp_path):
    """SIGTERM mid-range after a few batches: the batch in hand is stored, what is
    open written provisionally, the window snapshotted at the resume point and the
    group given back; the next worker restores it and finishes the provisional
    releases: the catalog is the replay's, nobody was taken over."""
    prepare(conn, corpus, nntp_claim_ttl_seconds=3)
    marker = tmp_path / "after-batch"
    with run_in_thread(corpus, ServerOptions()) as srv:
        a = worker(tmp_path, pooled_dsn, srv.port, "--until-idle", node="a",
                   env={"VOYAGER_TEST_PAUSE_AT_BATCH": "2", "VOYAGER_TEST_PAUSE_AFTER_BATCH": str(marker)})
        wait_for(marker.exists)                      # the first range's second batch is stored
        gid, range_id = conn.execute(
            "SELECT r.group_id, r.id FROM voyager.ranges r WHERE r.status = 'leased' "
            "AND (SELECT count(*) FROM voyager.range_batches b WHERE b.range_id = r.id) = 2 "
            "AND r.next_article <= r.end_article").fetchone()
        os.killpg(a.pid, signal.SIGTERM)
        finish(a, timeout=60)
        lease_row = conn.execute("SELECT token, snapshot_article FROM voyager.group_leases "
                                 "WHERE group_id = %s AND lane = 'history'", (gid,)).fetchone()
        stopped_at = conn.execute("SELECT next_article, end_article, status::text FROM voyager.ranges WHERE id = %s",
                                  (range_id,)).fetchone()
        assert lease_row[0] is None, "the group was given back"
        assert lease_row[1] == stopped_at[0] and stopped_at[2] == "planned", "snapshotted at the resume point"
        provisional = {bytes(k) for (k,) in conn.execute(
            "SELECT release_key FROM voyager.releases WHERE settled_at IS NULL AND edge AND group_id = %s", (gid,))}
        assert provisional, "what was open at the stop shows provisionally"
        b = worker(tmp_path, pooled_dsn, srv.port, "--until-idle", node="b")
        finish(b)
    assert conn.execute("SELECT coalesce(sum(takeovers), 0) FROM voyager.group_leases").fetchone()[0] == 0
    same_as_reference(conn, corpus, reference)
    settled = keys(conn, "settled_at IS NOT NULL")
    ref_keys = {row[0] for row in reference[0]}
    assert provisional & ref_keys <= settled, "the continuation finished the provisional releases"
    assert conn.execute("SELECT count(*) FROM voyager.releases WHERE settled_at IS NULL").fetchone()[0] == 0


def test_the_tail_continues_the_history_across_the_seam(corpus, reference, conn, pooled_dsn, tmp_path):
    """History planned from an earlier LIST ACTIVE and indexed until idle (what is
    open at its end written provisionally); the groups grow, the tail planner's
    ranges go to a tail worker until idle; they grow again and a last tail run
    ends with the corpus (--flush-at-end). The tail's first lease continues the
    history's window at the seam (the snapshot handed over), each lease end's
    provisional releases are finished by the next lease's continuation, and the
    catalog is one replay's of the whole grown corpus: every release once."""
    early, later = listing_at(corpus, 0.45), listing_at(corpus, 0.75)
    seams = {g["name"]: g["high"] + 1 for g in early}
    prepare(conn, corpus, listing=early)
    with run_in_thread(corpus, ServerOptions()) as srv:
        finish(worker(tmp_path, pooled_dsn, srv.port, "--until-idle", node="h", flush=False))
        assert lane_snapshots(conn, "history") == seams
        at_history_end = keys(conn, "settled_at IS NULL AND edge")
        assert at_history_end, "the releases in flight at the history's end show provisionally"

        plan(conn, later)
        firsts = dict(conn.execute("SELECT g.name, min(r.start_article) FROM voyager.ranges r JOIN voyager.groups g "
                                   "ON g.id = r.group_id WHERE r.priority < 0 GROUP BY g.name").fetchall())
        assert firsts == seams, "the tail begins where the history's planning ended"
        out = finish(worker(tmp_path, pooled_dsn, srv.port, *TAIL, node="t", flush=False))
        assert '"lane": "tail"' in out
        assert lane_snapshots(conn, "tail") == {g["name"]: g["high"] + 1 for g in later}
        # Mid-way the catalog is not the replay's: what is open at the tail's lease end is
        # provisional here and finished (as it then stands) by the replay's flush. What the
        # window finished is the replay's, row for row: the tail continued the history's
        # window, so no release was cut at the seam.
        assert catalog(conn)[2] == 0
        assert settled_rows(conn) <= reference[0]
        ref_keys = {row[0] for row in reference[0]}
        at_tail_end = keys(conn, "settled_at IS NULL AND edge")
        assert at_tail_end
        assert at_history_end & ref_keys - at_tail_end <= keys(conn, "settled_at IS NOT NULL"), \
            "the history's provisional releases were finished by the tail, or are still open"

        plan(conn, Corpus(corpus).groups())
        finish(worker(tmp_path, pooled_dsn, srv.port, *TAIL, node="t2"))
    same_as_reference(conn, corpus, reference)
    assert (at_history_end | at_tail_end) & ref_keys <= keys(conn, "settled_at IS NOT NULL")
    assert not keys(conn, "settled_at IS NULL")
    assert conn.execute("SELECT coalesce(sum(takeovers), 0) FROM voyager.group_leases").fetchone()[0] == 0


def test_a_tail_worker_keeps_its_group_and_asks_again(corpus, reference, conn, pooled_dsn, tmp_path):
    """Without --until-idle a tail worker caught up writes its lease end (what is
    open provisionally, a snapshot) and keeps the group, asking again every
    VOYAGER_TAIL_POLL_SECONDS: a new range of its group is worked under the same
    lease; when another group waits it gives its group back and takes that one.
    SIGTERM gives the held group back; the continuation ends as the replay."""
    early, later, grown = listing_at(corpus, 0.45), listing_at(corpus, 0.7), listing_at(corpus, 0.85)
    prepare(conn, corpus, listing=early, snapshot_minutes=0)      # a held group snapshotted at every poll's lease end

    def tail_state():
        return {n: (snap, token) for n, snap, token in conn.execute(
            "SELECT g.name, gl.snapshot_article, gl.token FROM voyager.group_leases gl "
            "JOIN voyager.groups g ON g.id = gl.group_id WHERE gl.lane = 'tail'")}

    def caught_up(listing):
        def check():
            state = tail_state()
            busy = conn.execute("SELECT count(*) FROM voyager.ranges WHERE priority < 0 "
                                "AND status IN ('planned', 'leased')").fetchone()[0]
            held = [n for n, (_s, tok) in state.items() if tok is not None]
            if busy == 0 and len(held) == 1 and all(state[g["name"]][0] == g["high"] + 1 for g in listing):
                return held[0], state[held[0]][1]
        return check

    with run_in_thread(corpus, ServerOptions()) as srv:
        finish(worker(tmp_path, pooled_dsn, srv.port, "--until-idle", node="h", flush=False))
        t = worker(tmp_path, pooled_dsn, srv.port, "--threads", "0", "--tail-threads", "1", node="t", flush=False,
                   env={"VOYAGER_TAIL_POLL_SECONDS": "0.5"})
        try:
            plan(conn, later)
            held, token = wait_for(caught_up(later), timeout=90)
            assert keys(conn, "settled_at IS NULL AND edge"), "what is open shows provisionally"
            time.sleep(1.5)                                   # polls: nothing new, the group stays held
            assert tail_state()[held][1] == token

            row = next(g for g in grown if g["name"] == held)
            plan(conn, [row])                                 # its group grows: the same lease takes it
            now = {**{g["name"]: g for g in later}, held: row}.values()
            assert wait_for(caught_up(list(now))) == (held, token)

            other = next(g for g in grown if g["name"] != held)
            plan(conn, [other])                               # another group waits: the held one goes back
            now = {**{g["name"]: g for g in later}, held: row, other["name"]: other}.values()
            got, _tok = wait_for(caught_up(list(now)))
            assert got == other["name"] and tail_state()[held][1] is None
        finally:
            os.killpg(t.pid, signal.SIGTERM)
        finish(t, timeout=60)
        assert all(tok is None for _s, tok in tail_state().values()), "SIGTERM gives the held group back"

        plan(conn, Corpus(corpus).groups())
        finish(worker(tmp_path, pooled_dsn, srv.port, *TAIL, node="t2"))
    same_as_reference(conn, corpus, reference)
    assert not keys(conn, "settled_at IS NULL")


def test_a_tail_that_starts_first_leaves_two_halves_at_the_seam(corpus, reference, conn, pooled_dsn, tmp_path,
                                                               admin_dsn, template_db):
    """The live order: the tail planner's ranges are leased before the history is
    done, so the tail's window starts fresh at the seam. The history, caught up
    there with the tail already past it, ends its window (lane_end 'final'): the
    uploads in flight at the seam end as two halves, each settled, under keys of
    their own. The catalog is two replays': the history's up to the seam and
    the tail's from it, nothing left provisional, no key twice."""
    early, later = listing_at(corpus, 0.45), listing_at(corpus, 0.75)
    seams = {g["name"]: g["high"] + 1 for g in early}
    prepare(conn, corpus, listing=early)
    plan(conn, later)
    with run_in_thread(corpus, ServerOptions()) as srv:
        finish(worker(tmp_path, pooled_dsn, srv.port, *TAIL, node="t", flush=False))
        assert lane_snapshots(conn, "tail") == {g["name"]: g["high"] + 1 for g in later}
        finish(worker(tmp_path, pooled_dsn, srv.port, "--until-idle", node="h", flush=False))
        assert lane_snapshots(conn, "history") == seams
        assert not conn.execute("SELECT count(*) FROM voyager.releases r JOIN voyager.groups g ON g.id = r.group_id "
                                "WHERE r.settled_at IS NULL AND r.first_article < (%s::jsonb ->> g.name)::bigint",
                                (Jsonb(seams),)).fetchone()[0], "the history's halves are settled"
        plan(conn, Corpus(corpus).groups())
        finish(worker(tmp_path, pooled_dsn, srv.port, *TAIL, node="t2"))

    def replay_part(tag: str, **bounds):
        name = f"voyager_seam_{tag}_{os.getpid()}"
        dsn = create_database(admin_dsn, name, template=template_db[0])
        try:
            with psycopg.connect(dsn, autocommit=True) as c:
                for name_, value in (("range_articles", RANGE), ("chunk_articles", CHUNK)):
                    c.execute("UPDATE voyager.settings SET value = %s WHERE name = %s", (str(value), name_))
                for g, seam in seams.items():     # each group planned and replayed by itself
                    replay_into_db(c, corpus, groups=g, **{k: f(seam) for k, f in bounds.items()})
                return catalog(c)
        finally:
            drop_database(admin_dsn, name)

    before = replay_part("before", last=lambda seam: seam - 1)
    after = replay_part("after", first=lambda seam: seam)
    got = catalog(conn)
    assert got[2] == 0 and before[2] == 0 and after[2] == 0
    assert not before[0] & after[0]
    assert got[0] == before[0] | after[0]
    assert got[1] == before[1] | after[1]
    assert got[0] != reference[0], "uploads in flight at the seam: two halves here, one release in one replay"
    assert not keys(conn, "settled_at IS NULL")


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


def test_capture_ranges_go_into_the_corpus_and_are_read_back_without_the_server(
        corpus, reference, conn, pooled_dsn, tmp_path, admin_dsn, template_db):
    prepare(conn, corpus)
    conn.execute("UPDATE voyager.ranges SET capture = true WHERE status = 'planned'")
    captured = tmp_path / "captured"
    with run_in_thread(corpus, ServerOptions()) as srv:
        finish(worker(tmp_path / "a", pooled_dsn, srv.port, "--until-idle", env={"VOYAGER_CORPUS": str(captured)}))
    same_as_reference(conn, corpus, reference)
    # every range in the corpus layout (range.json written last), the lines as the server sent them
    src = Corpus(corpus)
    for g in src.group_names():
        for r in src.ranges(g):
            rdir = captured / g / f"{r.start}-{r.end}"
            assert (rdir / "range.json").exists() and not list(rdir.glob("*.tmp"))
            got = b"".join(zlib.decompress(p.read_bytes()) for p in sorted(
                rdir.glob("*.zz"), key=lambda p: int(p.name.split("-")[0])))
            want = b"".join(x + b"\r\n" for x in src.lines(g, r.start, r.end))
            assert got == want, (g, r.start)
    # the same catalog again from the captured corpus alone: the configured server does not exist
    from tests.pgserver import free_port

    name = f"voyager_capture_{os.getpid()}"
    dsn = create_database(admin_dsn, name, template=template_db[0])
    try:
        with psycopg.connect(dsn, autocommit=True) as c:
            prepare(c, corpus)
            out = finish(worker(tmp_path / "b", dsn, free_port(), "--until-idle",
                                env={"VOYAGER_CORPUS": str(captured)}))
            assert '"chunks_from_corpus": 0' not in out
            same_as_reference(c, corpus, reference)
    finally:
        drop_database(admin_dsn, name)


def test_a_spool_without_room_still_indexes_range_by_range(corpus, reference, conn, pooled_dsn, tmp_path):
    """VOYAGER_SPOOL_MB=0: nothing is fetched beyond the cursor's range, and that is enough."""
    prepare(conn, corpus)
    with run_in_thread(corpus, ServerOptions()) as srv:
        finish(worker(tmp_path, pooled_dsn, srv.port, "--until-idle", env={"VOYAGER_SPOOL_MB": "0"}))
    same_as_reference(conn, corpus, reference)
    assert not [p for p in (tmp_path / "spool").rglob("*") if p.is_file()]


def test_a_refused_batch_and_an_unfetchable_chunk_fail_their_ranges_and_the_worker_goes_on(
        corpus, reference, conn, db_dsn, pooled_dsn, tmp_path):
    """A group whose batches the database refuses (a planted trigger: a real
    refusal) and a group the server does not have (its chunk not fetched after
    its tries): each range goes to failed with its error, the lane back with its
    snapshot, and the worker carries on with the other groups and finishes them
    (--until-idle: a failed lane is not work left). `voyager ranges retry` frees
    them; with the trigger dropped the next worker indexes the group, and the
    catalog is the replay's."""
    groups = [g["name"] for g in Corpus(corpus).groups()]
    refused = groups[0]
    prepare(conn, corpus, Corpus(corpus).groups() + [{"name": "alt.binaries.nowhere", "low": 1, "high": 10}],
            nntp_claim_ttl_seconds=3)
    # the refused group's range is the most urgent: leased first, so the others come after its failure
    conn.execute("UPDATE voyager.ranges r SET priority = 50 FROM voyager.groups g "
                 "WHERE g.id = r.group_id AND g.name = %s AND r.status = 'planned'", (refused,))
    conn.execute(f"""CREATE FUNCTION public.refuse_batches() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM voyager.ranges r JOIN voyager.groups g ON g.id = r.group_id
                        WHERE r.id = NEW.range_id AND g.name = '{refused}') THEN
                RAISE EXCEPTION 'planted refusal of %', '{refused}';
            END IF;
            RETURN NEW;
        END $$""")
    conn.execute("CREATE TRIGGER refuse_batches BEFORE INSERT ON voyager.range_batches "
                 "FOR EACH ROW EXECUTE FUNCTION public.refuse_batches()")
    with run_in_thread(corpus, ServerOptions()) as srv:
        out = finish(worker(tmp_path, pooled_dsn, srv.port, "--until-idle"))
        assert '"ranges_failed": 2' in out
        failed = {g: (lane, error) for g, lane, error in
                  conn.execute("SELECT group_name, lane::text, error FROM voyager.status_failed").fetchall()}
        assert failed.keys() == {"alt.binaries.nowhere", refused}
        assert failed["alt.binaries.nowhere"][0] == failed[refused][0] == "history"
        assert "NntpNoSuchGroup" in failed["alt.binaries.nowhere"][1]
        assert "planted refusal of" in failed[refused][1]
        # the others finished; nothing of the failed groups' lanes was handed out after their failure
        left = conn.execute("SELECT g.name, count(*) FILTER (WHERE r.status NOT IN ('done', 'ancient')) "
                            "FROM voyager.ranges r JOIN voyager.groups g ON g.id = r.group_id GROUP BY 1").fetchall()
        assert {g for g, n in left if n} == {refused, "alt.binaries.nowhere"}
        assert conn.execute("SELECT count(*) FROM voyager.ranges WHERE status = 'leased'").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM voyager.group_leases WHERE token IS NOT NULL").fetchone()[0] == 0

        conn.execute("DROP TRIGGER refuse_batches ON voyager.range_batches")
        env = dict(os.environ, VOYAGER_DSN=db_dsn)
        retry = subprocess.run([sys.executable, "-m", "voyager.cli", "ranges", "retry", "--group", refused],
                               env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert retry.returncode == 0, retry.stderr
        assert '"ranges_retried": 1' in retry.stdout
        conn.execute("SELECT voyager.set_group_active('alt.binaries.nowhere', false)")
        finish(worker(tmp_path, pooled_dsn, srv.port, "--until-idle"))
    assert conn.execute("SELECT group_name FROM voyager.status_failed").fetchall() == [("alt.binaries.nowhere",)]
    conn.execute("DELETE FROM voyager.ranges r USING voyager.groups g "
                 "WHERE g.id = r.group_id AND g.name = 'alt.binaries.nowhere'")
    same_as_reference(conn, corpus, reference)
