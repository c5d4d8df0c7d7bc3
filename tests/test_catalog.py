"""The catalog around the store: settling, sizes, chunk partitions, and the
store's guarantees under redelivery and concurrency."""
from __future__ import annotations

import os
import subprocess
import tempfile
import threading

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ext.window import Window
from tests.ext.test_window import GROUP, Poster
from tests.helpers import lease, next_range, set_setting
from tests.test_store import an_upload, lines_of, setup_range
from workers.store import Store


def provisional_upload(conn):
    """A release left provisional (and complete) by a lease end."""
    p = Poster()
    t = p.upload([("Quiet.Upload.part1.rar", 4), ("Quiet.Upload.part2.rar", 4)], shape="name_first",
                 release="Quiet.Upload")
    token, rng = setup_range(conn, 100_000)
    store = Store(conn)
    w = Window(GROUP, {GROUP: 1})
    w.feed(lines_of(p), p.n - 1)
    store.store(token, rng["range_id"], 1, p.n, p.n - 1, w.take_batch())
    for b in w.lease_end_batches():
        store.store(token, rng["range_id"], p.n, p.n, 0, b)
    return t


def test_a_complete_quiet_provisional_release_is_settled(conn):
    provisional_upload(conn)
    row = "SELECT settled_at IS NOT NULL, complete, edge FROM voyager.releases WHERE name = 'Quiet.Upload'"
    assert conn.execute(row).fetchone() == (False, True, True)
    # its newest article is older than the quiet time (the Poster posts in the past): settled, once
    assert conn.execute("SELECT voyager.settle_complete()").fetchone()[0] == 1
    assert conn.execute(row).fetchone() == (True, True, False)
    assert conn.execute("SELECT voyager.settle_complete()").fetchone()[0] == 0


def test_an_incomplete_or_recent_provisional_release_waits(conn):
    provisional_upload(conn)
    conn.execute("UPDATE voyager.releases SET last_posted_at = now() - interval '5 hours'")
    assert conn.execute("SELECT voyager.settle_complete()").fetchone()[0] == 0      # not quiet for 6 hours yet
    conn.execute("UPDATE voyager.releases SET last_posted_at = now() - interval '7 hours', complete = false")
    assert conn.execute("SELECT voyager.settle_complete()").fetchone()[0] == 0      # a counted file may come
    set_setting(conn, "settle_quiet_minutes", 60)
    conn.execute("UPDATE voyager.releases SET last_posted_at = now() - interval '2 hours', complete = true")
    assert conn.execute("SELECT voyager.settle_complete()").fetchone()[0] == 1


def test_catalog_sizes_add_up(conn):
    p = an_upload()
    token, rng = setup_range(conn, len(p.lines))
    w = Window(GROUP, {GROUP: 1})
    w.feed(lines_of(p), len(p.lines))
    Store(conn).store(token, rng["range_id"], 1, len(p.lines) + 1, len(p.lines), w.take_batch())
    s = conn.execute("SELECT * FROM voyager.catalog_sizes()").fetchone()
    releases, segments, headers, hot, chunk_bytes, per_release, per_header, per_segment, _, tables = s
    assert (releases, segments) == conn.execute("SELECT count(*), sum(segments) FROM voyager.releases").fetchone()
    assert headers == len(p.lines) and releases > 1
    assert hot == sum(v for k, v in tables.items() if k != "release_chunks")
    assert float(per_release) == pytest.approx(hot / releases, abs=0.1)
    assert chunk_bytes == tables["release_chunks"] > 0
    assert float(per_segment) == pytest.approx(chunk_bytes / segments, abs=0.01)


def test_chunks_move_into_month_partitions_on_their_tablespace(conn, pg_server, tmp_path):
    p = an_upload()
    token, rng = setup_range(conn, len(p.lines))
    w = Window(GROUP, {GROUP: 1})
    w.feed(lines_of(p), len(p.lines))
    Store(conn).store(token, rng["range_id"], 1, len(p.lines) + 1, len(p.lines), w.take_batch())
    stored = conn.execute("SELECT count(*) FROM voyager.release_chunks").fetchone()[0]
    assert conn.execute("SELECT count(*) FROM voyager.release_chunks_default").fetchone()[0] == stored
    local = pg_server[1] is not None
    if local:       # a tablespace needs a folder the server owns: only on the tests' own cluster
        folder = tempfile.mkdtemp(prefix="voyager-chunks-")
        if os.geteuid() == 0:
            subprocess.run(["chown", "postgres:postgres", folder], check=True)
        name = f"voyager_chunks_{os.getpid()}"
        conn.execute(f"DROP TABLESPACE IF EXISTS {name}")
        conn.execute(f"CREATE TABLESPACE {name} LOCATION '{folder}'")
        set_setting(conn, "chunks_tablespace", name)
    try:
        made = conn.execute("SELECT voyager.maintain_chunk_partitions(0)").fetchone()[0]
        assert made >= 1
        placed = conn.execute("SELECT month, tableoid::regclass::text FROM voyager.release_chunks").fetchall()
        assert len(placed) == stored
        assert {part.removeprefix("voyager.") for _m, part in placed} == {
            f"release_chunks_y{m:%Y}m{m:%m}" for m, _p in placed}
        if local:
            for part in {part for _m, part in placed}:
                space = conn.execute("SELECT t.spcname FROM pg_class c JOIN pg_tablespace t "
                                     "ON t.oid = c.reltablespace WHERE c.oid = %s::regclass", (part,)).fetchone()
                assert space == (name,)
        # NZBs still come out of the moved chunks; a second run makes nothing
        assert "<segment" in conn.execute("SELECT voyager.nzb(id) FROM voyager.releases LIMIT 1").fetchone()[0]
        assert conn.execute("SELECT voyager.maintain_chunk_partitions(0)").fetchone()[0] == 0
    finally:
        if local:      # the tablespace given back: its tables moved home, then it goes
            for (rel,) in conn.execute("SELECT c.oid::regclass::text FROM pg_class c JOIN pg_tablespace t "
                                       "ON t.oid = c.reltablespace WHERE t.spcname = %s AND c.relkind = 'r'",
                                       (name,)).fetchall():
                conn.execute(f"ALTER TABLE {rel} SET TABLESPACE pg_default")
            conn.execute("CHECKPOINT")
            conn.execute(f"DROP TABLESPACE IF EXISTS {name}")


# --- the store under redelivery: any order of duplicated and late batches, one catalog

def _catalog(conn) -> set:
    return set(tuple(row[:-1]) + (tuple(row[-1]),) for row in conn.execute(
        """SELECT r.release_key, r.name, r.segments, r.files, r.complete, r.settled_at IS NOT NULL, c.chunk,
                  (SELECT array_agg(t.kind || ':' || t.text ORDER BY t.kind) FROM voyager.release_texts t
                    WHERE t.release_id = r.id)
             FROM voyager.releases r JOIN voyager.release_chunks c ON c.release_id = r.id""").fetchall())


def _batches():
    """A range's batches as a worker takes them: several uploads, one batch a piece of the lines."""
    p = Poster()
    for i in range(6):
        t = p.upload([(f"Redelivered.Set.{i}.part1.rar", 3), (f"Redelivered.Set.{i}.part2.rar", 3)],
                     shape="name_first", release=f"Redelivered.Set.{i}")
        p.pad(900, t + 1800)
    n = p.n - 1
    w = Window(GROUP, {GROUP: 1})
    cuts = [1, n // 4, n // 2, 3 * n // 4, n + 1]
    out = []
    lines = p.lines
    for a, b in zip(cuts, cuts[1:]):
        w.feed(b"\r\n".join(lines[a - 1:b - 1]) + b"\r\n", b - 1)
        out.append((a, b, b - a, w.take_batch()))
    out.append((n + 1, n + 1, 0, w.flush()))
    return n, out


_N, _BATCHES = None, None


def _fixture_batches():
    global _N, _BATCHES
    if _BATCHES is None:
        _N, _BATCHES = _batches()
    return _N, _BATCHES


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order=st.lists(st.integers(min_value=0, max_value=4), min_size=5, max_size=25))
def test_any_order_of_redelivered_and_late_batches_leaves_the_same_catalog(db_dsn, order):
    n, batches = _fixture_batches()
    with psycopg.connect(db_dsn, autocommit=True) as conn:
        conn.execute("TRUNCATE voyager.releases, voyager.release_chunks, voyager.release_texts, "
                     "voyager.probe_candidates, voyager.groups, voyager.range_batches "
                     "CASCADE")
        token, rng = setup_range(conn, n)
        store = Store(conn)
        # deliveries in any order, duplicates and late ones among them; then each in order, as a
        # worker that kept trying would: what is refused changes nothing
        for i in list(order) + list(range(len(batches))) + list(order):
            first, nxt, headers, batch = batches[i]
            try:
                store.store(token, rng["range_id"], first, nxt, headers, batch)
            except psycopg.Error as e:
                assert e.sqlstate in ("VY002", "VY003"), e
        got = _catalog(conn)
        # the key-less ingest tables hold nothing orphaned
        assert {p: n for p, n in conn.execute("SELECT * FROM voyager.check_catalog()") if n} == {}
        # and the search counts equal a recount, retractions and finished provisional releases included
        assert conn.execute("SELECT * FROM voyager.check_search_counts()").fetchall() == []
    with psycopg.connect(db_dsn, autocommit=True) as conn:
        conn.execute("TRUNCATE voyager.releases, voyager.release_chunks, voyager.release_texts, "
                     "voyager.probe_candidates, voyager.groups, voyager.range_batches "
                     "CASCADE")
        token, rng = setup_range(conn, n)
        store = Store(conn)
        for first, nxt, headers, batch in batches:
            store.store(token, rng["range_id"], first, nxt, headers, batch)
        want = _catalog(conn)
    assert got == want
    assert sum(1 for row in want if row[1].startswith("Redelivered.Set.")) == 6


def test_two_connections_storing_into_one_range_cannot_both_succeed(conn, connect):
    n, batches = _fixture_batches()
    token, rng = setup_range(conn, n)
    first, nxt, headers, batch = batches[0]
    results: list = []
    barrier = threading.Barrier(2)

    def one():
        c = connect()
        store = Store(c)
        barrier.wait()
        try:
            results.append(store.store(token, rng["range_id"], first, nxt, headers, batch))
        except psycopg.Error as e:
            results.append(e.sqlstate)

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ok = [r for r in results if isinstance(r, dict)]
    assert len(ok) == 1 and sorted(r for r in results if not isinstance(r, dict)) in (["VY003"], ["VY002"])
    assert conn.execute("SELECT next_article FROM voyager.ranges WHERE id = %s",
                        (rng["range_id"],)).fetchone()[0] == nxt
    assert conn.execute("SELECT count(*) FROM voyager.range_batches WHERE range_id = %s",
                        (rng["range_id"],)).fetchone()[0] == 1


def _claim(conn, node, limit=100):
    return conn.execute("SELECT release_id, kind FROM voyager.claim_probe_candidates(%s, %s)",
                        (node, limit)).fetchall()


def test_probe_candidates_are_claimable_once_their_release_is_finished(conn, connect):
    p = Poster()
    t = p.upload([("Probe.Me.part1.rar", 4), ("Probe.Me.part2.rar", 4), ("Probe.Me.par2", 1)],
                 shape="name_first", release="Probe.Me")
    q = Poster(start_article=p.n)
    q.pad(8000, t + 3600)
    token, rng = setup_range(conn, q.n - 1)
    store = Store(conn)
    w = Window(GROUP, {GROUP: 1})
    w.feed(lines_of(p), p.n - 1)
    store.store(token, rng["range_id"], 1, p.n, p.n - 1, w.take_batch())
    for b in w.lease_end_batches():               # provisional: its files may still change
        store.store(token, rng["range_id"], p.n, p.n, 0, b)
    rid = conn.execute("SELECT id FROM voyager.releases WHERE name = 'Probe.Me'").fetchone()[0]
    assert conn.execute("SELECT count(*) FROM voyager.probe_candidates WHERE release_id = %s", (rid,)).fetchone()[0]
    assert [c for c in _claim(conn, "p1") if c[0] == rid] == []
    w2 = Window.restore(w.snapshot())                # the continuation finishes it
    w2.feed(lines_of(q), q.n - 1)
    store.store(token, rng["range_id"], p.n, q.n, q.n - p.n, w2.take_batch())
    mine = [c for c in _claim(conn, "p1") if c[0] == rid]
    assert mine and {k for _r, k in mine} <= {"archive", "par2", "lone", "7z-tail", "nfo", "media"}
    # claimed: nobody else gets them while the lease runs; done: gone from the queue
    other = connect()
    assert [c for c in _claim(other, "p2") if c[0] == rid] == []
    for r, k in mine:
        assert conn.execute("SELECT voyager.probe_candidate_done('p1', %s, %s)", (r, k)).fetchone()[0]
        assert conn.execute("SELECT voyager.probe_candidate_done('p2', %s, %s)", (r, k)).fetchone()[0] is False
    conn.execute("UPDATE voyager.probe_candidates SET expires_at = now() - interval '1 second'")
    assert [c for c in _claim(other, "p2") if c[0] == rid] == []    # probed ones never come back


def test_two_probers_split_the_queue(conn, connect):
    p = an_upload()
    token, rng = setup_range(conn, len(p.lines))
    w = Window(GROUP, {GROUP: 1})
    w.feed(lines_of(p), len(p.lines))
    Store(conn).store(token, rng["range_id"], 1, len(p.lines) + 1, len(p.lines), w.take_batch())
    total = conn.execute("SELECT count(*) FROM voyager.probe_candidates pc JOIN voyager.releases r "
                         "ON r.id = pc.release_id WHERE r.settled_at IS NOT NULL").fetchone()[0]
    assert total >= 2
    a = connect()
    b = connect()
    a.execute("BEGIN")
    first = a.execute("SELECT release_id, kind FROM voyager.claim_probe_candidates('a', 1)").fetchall()
    second = _claim(b, "b", total)                 # not blocked by a's open claim, and never the same row
    a.execute("COMMIT")
    assert len(first) == 1 and first[0] not in second and len(second) == total - 1


def test_the_nzb_carries_a_known_password(conn):
    import nzb as nzb_pkg

    p = an_upload()
    token, rng = setup_range(conn, len(p.lines))
    w = Window(GROUP, {GROUP: 1})
    w.feed(lines_of(p), len(p.lines))
    Store(conn).store(token, rng["range_id"], 1, len(p.lines) + 1, len(p.lines), w.take_batch())
    rid = conn.execute("SELECT id FROM voyager.releases WHERE name = 'Stored.Show.S01E01'").fetchone()[0]
    assert nzb_pkg.Nzb.from_str(conn.execute("SELECT voyager.nzb(%s)", (rid,)).fetchone()[0]).meta.passwords == ()
    # phase 2 found one: the NZB's meta says it, escaped
    conn.execute("INSERT INTO voyager.release_passwords (release_id, status, password) VALUES (%s, 1, %s)",
                 (rid, "s3cret <&> \"x\""))
    parsed = nzb_pkg.Nzb.from_str(conn.execute("SELECT voyager.nzb(%s)", (rid,)).fetchone()[0])
    assert parsed.meta.passwords == ('s3cret <&> "x"',)
