"""`voyager bench store --corpus DIR [--repeat N]`: what storing a corpus's
batches costs the database, as one JSON line.

The window runs once (its batches are kept in a cache file under
$VOYAGER_HOME/bench, keyed by the corpus), then each pass replays the same
batches through group leases and voyager.store_batch into a fresh database
on the local cluster. postgres_cpu_seconds counts every PostgreSQL process
(the backend, autovacuum, the WAL and checkpoint writers, and the children
that ended, through the postmaster's reaped-children times), so work moved
out of the backend still counts. The least CPU of the passes is quoted (the
machine is shared and noisy).

--into N: the passes store into the shared generated catalog of N releases
(bench.catalog) instead, under group names of their own (`bench.store.`
before the corpus's: no generated group's), each pass's every row removed
after it: the store's cost in a big catalog, the catalog left as found.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import sys
import time
from pathlib import Path

import psycopg
from psycopg.types.json import Jsonb

from voyager.config import Config
from voyager.db import fresh_database
from bench.catalog import as_found, build
from bench.cpu import backend_cpu, postgres_cpu
from workers.replay import replay_into_db
from workers.store import Store

class RecordingStore(Store):
    """A Store that also keeps every call, for replaying the same batches."""

    def __init__(self, conn):
        super().__init__(conn)
        self.calls: list[tuple] = []

    def store(self, token, range_id, first_article, next_article, headers, batch):
        group, start = self.conn.execute(
            "SELECT g.name, r.start_article FROM voyager.ranges r JOIN voyager.groups g ON g.id = r.group_id "
            "WHERE r.id = %s", (range_id,)).fetchone()
        self.calls.append((group, start, first_article, next_article, headers, batch))
        return super().store(token, range_id, first_article, next_article, headers, batch)


def scratch_database(dsn: str, after: str | None = None) -> str:
    """A fresh voyager_store_scratch with the schema, `after` run on it first (not
    bench api's voyager_bench_scratch: its million releases take minutes to build)."""
    out = fresh_database(dsn, "voyager_store_scratch")
    if after:
        with psycopg.connect(out, autocommit=True) as c:
            c.execute(after)
    return out


def record(corpus: str, dsn: str) -> dict:
    from voyager.corpus import Corpus

    with psycopg.connect(dsn, autocommit=True) as conn:
        store = RecordingStore(conn)
        done = replay_into_db(conn, corpus, store=store)
    return {"listing": Corpus(corpus).groups(), "calls": store.calls, "headers": done["headers"]}


def replay(rec: dict, dsn: str) -> dict:
    by_group: dict[str, list] = {}
    for i, call in enumerate(rec["calls"]):
        by_group.setdefault(call[0], []).append(i)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SELECT * FROM voyager.plan_groups(%s)", (Jsonb(rec["listing"]),))
        store = Store(conn)
        rows = [store.rows(c[5]) for c in rec["calls"]]     # the client's work, outside the measure
        ranges = {(g, s): i for i, g, s in conn.execute(
            "SELECT r.id, g.name, r.start_article FROM voyager.ranges r JOIN voyager.groups g ON g.id = r.group_id")}
        if os.environ.get("VOYAGER_BENCH_PID"):      # for a profiler: the backend doing the work
            print(f"backend pid {conn.info.backend_pid}", file=sys.stderr, flush=True)
        cpu0, wall0, b0 = postgres_cpu(conn), time.perf_counter(), backend_cpu(conn)
        calls = 0
        while True:
            held = conn.execute("SELECT token, group_name FROM voyager.lease_group('history', 'bench')").fetchone()
            if held is None:
                break
            token, group = held
            todo = by_group.get(group, [])
            if not todo:
                conn.execute("SELECT voyager.release_group(%s)", (token,))
                # not leased again; not a removal (that would plan recoveries of its crossposts)
                conn.execute("UPDATE voyager.groups SET active = false WHERE name = %s", (group,))
                continue
            current = None
            for i in todo:
                g, start, first, nxt, headers, _batch = rec["calls"][i]
                rid = ranges[(g, start)]
                if first != nxt and rid != current:
                    got = conn.execute("SELECT range_id FROM voyager.next_range(%s)", (token,)).fetchone()
                    assert got and got[0] == rid, (got, rid)
                    current = rid
                releases, pending, counts, samples, retracted = rows[i]
                conn.execute("SELECT voyager.store_batch(%s, %s, %s, %s, %s, %b, %b, %b, %b, %b)",
                             (token, rid, first, nxt, headers, releases, pending, counts, samples, retracted))
                calls += 1
            while conn.execute("SELECT range_id FROM voyager.next_range(%s)", (token,)).fetchone():
                pass
            conn.execute("SELECT voyager.release_group(%s, %s, %s)", (token, b"", rec["calls"][todo[-1]][3]))
        backend = backend_cpu(conn) - b0
        conn.execute("CHECKPOINT")
        cpu, wall = postgres_cpu(conn) - cpu0, time.perf_counter() - wall0
    return {"postgres_cpu_seconds": cpu, "backend_cpu_seconds": backend, "wall_seconds": wall, "calls": calls}


PREFIX = "bench.store."

# what a pass wrote into a shared catalog: its releases (ids past the mark) and
# what hangs off them, its groups' pending releases, ranges and leases, its
# new posters and group sets
REMOVE_SQL = [
    """DELETE FROM voyager.release_chunks c USING voyager.releases r
        WHERE r.id > %(release)s AND c.release_id = r.id AND c.month = voyager.chunk_month(r.posted_at)""",
    *(f"DELETE FROM voyager.{t} WHERE release_id > %(release)s"
      for t in ("release_texts", "probe_candidates", "release_judgements", "release_passwords", "release_media_ids",
                "release_nfos", "release_own_totals", "release_grabs", "file_hashes", "spot_matches")),
    """DELETE FROM voyager.releases WHERE id > %(release)s""",
    *(f"""DELETE FROM voyager.{t} x USING voyager.pending_releases p
           WHERE x.pending_key = p.release_key AND p.group_id = ANY(%(groups)s)"""
      for t in ("probe_candidates", "file_hashes", "spot_matches")),
    *(f"DELETE FROM voyager.{t} WHERE group_id = ANY(%(groups)s)"
      for t in ("pending_releases", "pending_signatures", "snapshots", "group_leases", "group_dates", "recoveries",
                "ranges")),
    """DELETE FROM voyager.groups WHERE id = ANY(%(groups)s)""",
    """DELETE FROM voyager.posters WHERE id > %(poster)s""",
    """DELETE FROM voyager.group_sets WHERE id > %(group_set)s""",
]


def renamed(rec: dict) -> dict:
    """The recording under group names no generated catalog uses, its
    priority numbers left to plan_groups (the catalog's groups hold them)."""
    def groups(names):
        return [PREFIX + g for g in names]

    def batch(b: dict) -> dict:
        return {**b, "releases": [{**r, "groups": groups(r["groups"])} for r in b["releases"]],
                "pending": [{**x, "groups": groups(x["groups"])} if "groups" in x else x for x in b["pending"]],
                "samples": [{**x, "groups": groups(x["groups"])} for x in b["samples"]]}

    return {**rec, "listing": [{k: v for k, v in {**g, "name": PREFIX + g["name"]}.items() if k != "priority"}
                               for g in rec["listing"]],
            "calls": [(PREFIX + c[0], *c[1:5], batch(c[5])) for c in rec["calls"]]}


def into(rec: dict, dsn: str) -> dict:
    """One pass stored into a shared catalog, everything it wrote removed after."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        marks = dict(zip(("release", "poster", "group_set"), conn.execute(
            """SELECT (SELECT coalesce(max(id), 0) FROM voyager.releases),
                      (SELECT coalesce(max(id), 0) FROM voyager.posters),
                      (SELECT coalesce(max(id), 0) FROM voyager.group_sets)""").fetchone()))
        if conn.execute("SELECT 1 FROM voyager.groups WHERE starts_with(name, %s)", (PREFIX,)).fetchone():
            raise RuntimeError(f"groups {PREFIX}* are in the catalog already: not this pass's to remove")
    with as_found(dsn):
        try:
            out = replay(rec, dsn)
        finally:
            with psycopg.connect(dsn, autocommit=True) as conn:
                marks["groups"] = [g for g, in conn.execute(
                    "SELECT id FROM voyager.groups WHERE starts_with(name, %s)", (PREFIX,))]
                for q in REMOVE_SQL:
                    conn.execute(q, marks)
    return out


def cache_path(corpus: str, cfg: Config) -> Path:
    key = hashlib.sha1(str(Path(corpus).resolve()).encode()
                       + (Path(corpus) / "groups.json").read_bytes()).hexdigest()[:12]
    return cfg.home / "bench" / f"store-{key}.pickle"


def recording(corpus: str, cfg: Config) -> dict:
    """The corpus's batches, recorded once (a cache file under $VOYAGER_HOME/bench)."""
    cache = cache_path(corpus, cfg)
    if cache.exists():
        return pickle.loads(cache.read_bytes())
    rec = record(corpus, scratch_database(cfg.dsn))
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(pickle.dumps(rec, protocol=5))
    return rec


def figures(rec: dict, passes: list[dict]) -> dict:
    best = min(passes, key=lambda r: r["postgres_cpu_seconds"])
    headers = rec["headers"]
    releases = sum(len(c[5]["releases"]) for c in rec["calls"])
    return {
        "headers": headers, "batches": best["calls"], "releases_written": releases, "passes": len(passes),
        "postgres_cpu_seconds": round(best["postgres_cpu_seconds"], 3),
        "postgres_cpu_seconds_per_million_headers": round(best["postgres_cpu_seconds"] / headers * 1e6, 3),
        "postgres_cpu_us_per_release": round(best["postgres_cpu_seconds"] / releases * 1e6, 1) if releases else None,
        "backend_cpu_seconds": round(best["backend_cpu_seconds"], 3),
        "backend_cpu_seconds_per_million_headers": round(best["backend_cpu_seconds"] / headers * 1e6, 3),
        "store_wall_seconds": round(best["wall_seconds"], 3),
        "all_passes_cpu_seconds": [round(r["postgres_cpu_seconds"], 3) for r in passes],
    }


def measure_into(corpus: str, dsn: str, repeat: int) -> dict:
    """--into's figures on the catalog at `dsn`."""
    rec = renamed(recording(corpus, Config.from_env()))
    # the passes' growth together: each pass's own as_found sees only its
    # own, under GROWN, and three of them left the million's releases 5% larger
    with as_found(dsn):
        passes = [into(rec, dsn) for _ in range(max(1, repeat))]
    return figures(rec, passes)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="voyager bench store", description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", required=True)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--after-deploy", metavar="SQL", help="SQL run on each fresh database first (experiments)")
    p.add_argument("--into", type=int, metavar="N", help="store into the shared generated catalog of N releases")
    a = p.parse_args(argv)
    cfg = Config.from_env()
    if a.into:
        dsn = build(cfg.dsn, a.into, log=lambda m: print(m, file=sys.stderr))
        print(json.dumps({"into": a.into, **measure_into(a.corpus, dsn, a.repeat)}))
        return 0
    rec = recording(a.corpus, cfg)
    passes = [replay(rec, scratch_database(cfg.dsn, a.after_deploy)) for _ in range(max(1, a.repeat))]
    print(json.dumps(figures(rec, passes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
