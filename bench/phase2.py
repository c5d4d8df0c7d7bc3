"""`voyager bench phase2`: the merges job on a big catalog, after a burst of
probe results.

The shared generated catalog of --releases (bench.catalog) gets --probed new probe
results at once: uploads of --upload releases each (the newest releases, one
poster, one group, posted a minute apart), one holding a par2 set that
describes the others' first 16 KiB and sizes, the rest lone files whose
probes read those starts; the probe cache, file hashes, par2 sets and files
filled as store_probes fills them, the results arriving over ten minutes. A
checkpoint and a vacuum of the catalog come first; each planted release is
written once, and the texts and chunks the plant rewrote are vacuumed, the
releases' old versions too unless --unvacuumed keeps them (as a settle leaves
one until autovacuum passes). Then the tick's merges job runs, run
after run, until its place has caught up: each run's time, the database's
CPU per thousand probed releases (the whole server's, and the job's own
backend's, which other work on the server does not move), and the merges against
what was planted. Prints one JSON line. The planted rows are removed after
(the merges undone): the catalog is left as it was found.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import psycopg

from bench.catalog import as_found, build
from bench.cpu import backend_cpu, postgres_cpu
from voyager.config import Config

PLANT_SQL = """
WITH picked AS (                      -- the newest releases, in uploads of %(upload)s
    SELECT r.id, (row_number() OVER (ORDER BY r.id) - 1) / %(upload)s AS u,
           (row_number() OVER (ORDER BY r.id) - 1) %% %(upload)s AS k
      FROM (SELECT id FROM voyager.releases ORDER BY id DESC LIMIT %(probed)s) r
), heads AS (
    SELECT p.u, r.id AS holder, r.poster_id, r.group_id, r.posted_at
      FROM picked p JOIN voyager.releases r ON r.id = p.id WHERE p.k = 0
)
INSERT INTO bench_phase2 (id, u, k, holder, poster_id, group_id, posted_at, old_posted_at, old_poster_id,
                          old_group_id, old_name)
SELECT p.id, p.u, p.k, h.holder, h.poster_id, h.group_id, h.posted_at + make_interval(mins => p.k::integer),
       r.posted_at, r.poster_id, r.group_id, r.name
  FROM picked p JOIN heads h ON h.u = p.u JOIN voyager.releases r ON r.id = p.id
"""


def plant(conn: psycopg.Connection, probed: int, upload: int, shape: str = "obfuscated",
          vacuum: bool = True) -> None:
    conn.execute("DROP TABLE IF EXISTS bench_phase2")
    conn.execute("""CREATE TABLE bench_phase2 (id bigint PRIMARY KEY, u bigint, k bigint, holder bigint,
                        poster_id integer, group_id integer, posted_at timestamptz, old_posted_at timestamptz,
                        old_poster_id integer, old_group_id integer, old_name text)""")
    conn.execute("TRUNCATE bench_phase2")
    # the catalog vacuumed first: an earlier run's undoing (or anything else's old versions)
    # is no part of this run's figure
    for table in ("releases", "release_texts", "release_chunks"):
        conn.execute(f"VACUUM voyager.{table}")
    conn.execute(PLANT_SQL, {"probed": probed, "upload": upload})
    # one upload: one poster, one group, a minute apart (the chunk under its new month)
    conn.execute("""UPDATE voyager.release_chunks c SET month = voyager.chunk_month(b.posted_at)
                      FROM bench_phase2 b
                     WHERE c.release_id = b.id AND c.month = voyager.chunk_month(b.old_posted_at)
                       AND voyager.chunk_month(b.old_posted_at) <> voyager.chunk_month(b.posted_at)""")
    # (one update a release, as settling leaves one old version of each until autovacuum passes)
    obfuscated = shape == "obfuscated"
    conn.execute("""UPDATE voyager.releases r SET poster_id = b.poster_id, group_id = b.group_id,
                           posted_at = b.posted_at, last_posted_at = b.posted_at + interval '30 seconds',
                           name = CASE WHEN %(obfuscated)s
                                       THEN encode(substring(sha256(('obf' || b.id)::bytea) FROM 1 FOR 12), 'hex')
                                       ELSE r.name END,
                           readable = r.readable AND NOT %(obfuscated)s
                      FROM bench_phase2 b WHERE r.id = b.id""", {"obfuscated": obfuscated})
    if obfuscated:
        # every file of the upload under a random name the window could not read: the par2
        # set's name is the only one there is
        conn.execute("""UPDATE voyager.release_texts t SET text = r.name FROM bench_phase2 b JOIN voyager.releases r ON r.id = b.id
                         WHERE t.release_id = b.id AND t.kind = 1""")
    # the probes' facts as store_probes writes them
    conn.execute("""INSERT INTO voyager.par2_sets (set_id, creator, name, files, message_id, found_at)
                    SELECT substring(sha256(('set' || b.u)::bytea) FROM 1 FOR 16), 'par2cmdline',
                           format('Bench.Upload.%%s.2024.1080p.WEB.x264-VOY.mkv', b.u), %(files)s, format('p%%s@bench', b.id),
                           now() - make_interval(secs => 600 - 600.0 * b.u / (SELECT max(u) + 1 FROM bench_phase2))
                      FROM bench_phase2 b WHERE b.k = 0""", {"files": upload - 1})
    conn.execute("""INSERT INTO voyager.par2_files (set_id, file_id, name, size, md5_16k, md5)
                    SELECT substring(sha256(('set' || b.u)::bytea) FROM 1 FOR 16),
                           substring(sha256(('fid' || b.id)::bytea) FROM 1 FOR 16),
                           format('Bench.Upload.%%s.part%%s.rar', b.u, b.k), 50000000 + b.k,
                           substring(sha256(('16k' || b.id)::bytea) FROM 1 FOR 16),
                           substring(sha256(('md5' || b.id)::bytea) FROM 1 FOR 16)
                      FROM bench_phase2 b WHERE b.k > 0""", {})
    conn.execute("""INSERT INTO voyager.probe_candidates (release_id, kind, message_id, file_index, probed_at)
                    SELECT b.id, CASE WHEN b.k = 0 THEN 'par2' ELSE 'lone' END, format('p%%s@bench', b.id), 0,
                           now() - make_interval(secs => 600 - 600.0 * b.u / (SELECT max(u) + 1 FROM bench_phase2))
                      FROM bench_phase2 b
                        ON CONFLICT DO NOTHING""", {})
    conn.execute("""INSERT INTO voyager.probe_cache (message_id, kind, status, bytes, facts, probed_at)
                    SELECT format('p%%s@bench', b.id), CASE WHEN b.k = 0 THEN 'par2' ELSE 'lone' END, 0, 716800,
                           CASE WHEN b.k = 0
                                THEN jsonb_build_object('par2', jsonb_build_object(
                                         'set_id', encode(substring(sha256(('set' || b.u)::bytea) FROM 1 FOR 16), 'hex')))
                                ELSE jsonb_build_object('start', jsonb_build_object(
                                         'md5_16k', encode(substring(sha256(('16k' || b.id)::bytea) FROM 1 FOR 16), 'hex'),
                                         'size', 50000000 + b.k)) END,
                           now() - make_interval(secs => 600 - 600.0 * b.u / (SELECT max(u) + 1 FROM bench_phase2))
                      FROM bench_phase2 b""", {})
    conn.execute("""INSERT INTO voyager.file_hashes (message_id, md5_16k, size, release_id, file_index)
                    SELECT format('p%%s@bench', b.id), substring(sha256(('16k' || b.id)::bytea) FROM 1 FOR 16),
                           50000000 + b.k, b.id, 0
                      FROM bench_phase2 b WHERE b.k > 0""", {})
    # the plant's own rewrites vacuumed, so the runs measure the merges and not them: a text or
    # chunk is written once when its release is stored, and a settled release keeps one old
    # version until autovacuum passes. Vacuumed (the default), the releases lose theirs too;
    # unvacuumed, each planted release keeps the one its update left, as a fresh settle does
    for table in ("release_texts", "release_chunks") + (("releases",) if vacuum else ()):
        conn.execute(f"VACUUM voyager.{table}")
    conn.execute("ANALYZE")


def autovacuums(conn: psycopg.Connection) -> dict[str, int]:
    """Autovacuum's passes so far, per table of the catalog."""
    conn.execute("SELECT pg_stat_clear_snapshot()")
    return dict(conn.execute("SELECT relname, autovacuum_count FROM pg_stat_user_tables "
                             "WHERE schemaname = 'voyager'").fetchall())


def unplant(conn: psycopg.Connection) -> None:
    """The merges undone and the planted rows gone: the catalog as it was."""
    conn.execute("ALTER TABLE bench_phase2 ADD COLUMN IF NOT EXISTS old_name text")    # planted by an older bench
    conn.execute("SELECT voyager.unmerge_releases(array_agg(DISTINCT survivor_id)) FROM voyager.release_merges")
    conn.execute("DELETE FROM voyager.file_hashes WHERE message_id LIKE 'p%@bench'")
    conn.execute("DELETE FROM voyager.probe_cache WHERE message_id LIKE 'p%@bench'")
    conn.execute("DELETE FROM voyager.probe_candidates WHERE message_id LIKE 'p%@bench'")
    conn.execute("DELETE FROM voyager.par2_files f USING voyager.par2_sets s "
                 "WHERE f.set_id = s.set_id AND s.message_id LIKE 'p%@bench'")
    conn.execute("DELETE FROM voyager.par2_sets WHERE message_id LIKE 'p%@bench'")
    conn.execute("""UPDATE voyager.releases r SET poster_id = b.old_poster_id, group_id = b.old_group_id,
                           posted_at = b.old_posted_at, last_posted_at = b.old_posted_at + interval '600 seconds',
                           name = b.old_name, readable = true
                      FROM bench_phase2 b WHERE r.id = b.id AND b.old_name IS NOT NULL""")
    conn.execute("""UPDATE voyager.release_texts t SET text = b.old_name FROM bench_phase2 b
                     WHERE t.release_id = b.id AND t.kind = 1 AND t.text <> b.old_name""")
    conn.execute("""UPDATE voyager.release_chunks c SET month = voyager.chunk_month(b.old_posted_at)
                      FROM bench_phase2 b
                     WHERE c.release_id = b.id AND c.month = voyager.chunk_month(b.posted_at)
                       AND voyager.chunk_month(b.old_posted_at) <> voyager.chunk_month(b.posted_at)""")
    conn.execute("DELETE FROM voyager.recategorize_queue")
    conn.execute("DROP TABLE bench_phase2")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="voyager bench phase2", description=__doc__.split("\n\n")[0])
    ap.add_argument("--releases", type=int, default=1_000_000, help="releases of the catalog")
    ap.add_argument("--probed", type=int, default=100_000, help="releases with a new probe result")
    ap.add_argument("--upload", type=int, default=10, help="releases an upload was posted as")
    ap.add_argument("--shape", choices=("obfuscated", "unrelated"), default="obfuscated",
                    help="obfuscated: every release of an upload random-named, the par2 set's name the only one "
                         "(what phase 2 is for); unrelated: each keeps a readable catalog name of its own, "
                         "ten unrelated titles merged into one (no upload looks like that: the worst case for "
                         "the survivor's texts)")
    ap.add_argument("--unvacuumed", action="store_true",
                    help="each planted release keeps the old version its update left, as a settle leaves one "
                         "until autovacuum passes (by default the plant's old versions are vacuumed)")
    a = ap.parse_args(argv)
    t0 = time.monotonic()
    dsn = build(Config.from_env().dsn, a.releases, log=lambda m: print(m, file=sys.stderr))
    built = time.monotonic() - t0
    print(json.dumps({"bench": "phase2", "releases": a.releases, "catalog_seconds": round(built, 1),
                      **measure(dsn, a)}), flush=True)
    return 0


def measure(dsn: str, a) -> dict:
    """The merges' figures on a shared catalog, the catalog left as found."""
    vacuum = not getattr(a, "unvacuumed", False)     # (the scale bench's arguments have no such flag)
    with as_found(dsn), psycopg.connect(dsn, autocommit=True) as conn:
        unplant(conn) if conn.execute("SELECT to_regclass('bench_phase2')").fetchone()[0] else None
        # a checkpoint first, so the plant and the runs share one checkpoint's cycle (unless the
        # WAL outgrows max_wal_size): whether a checkpoint falls between them decides how many
        # pages the runs write whole into the WAL, and it moved a run's CPU by a fifth
        conn.execute("CHECKPOINT")
        plant(conn, a.probed, a.upload, a.shape, vacuum=vacuum)
        conn.execute("UPDATE voyager.settings SET value = '0' WHERE name = 'merge_lag_seconds'")
        conn.execute("UPDATE voyager.jobs SET place = now() - interval '11 minutes' WHERE name = 'merges'")
        runs = []
        vacuums0 = autovacuums(conn)
        cpu0, own0 = postgres_cpu(conn), backend_cpu(conn)
        while True:
            c0, w0 = postgres_cpu(conn), time.monotonic()
            out = conn.execute("SELECT voyager.run_sql_job('merges')").fetchone()[0]
            c1, w1 = postgres_cpu(conn), time.monotonic()
            runs.append({"seconds": round(w1 - w0, 3), "db_cpu_s": round(c1 - c0, 3) if c0 is not None else None,
                         **{k: out[k] for k in ("slices", "proposed", "merged")}})
            if out["behind"] in ("00:00:00", "0") or len(runs) >= 50:
                break
        cpu = postgres_cpu(conn) - cpu0 if cpu0 is not None else None
        own = backend_cpu(conn) - own0 if own0 is not None else None
        # (the whole server's CPU counts an autovacuum that ran meanwhile: say which tables)
        vacuums = autovacuums(conn)
        autovacuumed = sorted(t for t, n in vacuums.items() if n > vacuums0.get(t, 0))
        merged = conn.execute("SELECT count(*) FROM voyager.release_merges").fetchone()[0]
        survivors = conn.execute("SELECT count(DISTINCT survivor_id) FROM voyager.release_merges").fetchone()[0]
        right = conn.execute("""SELECT count(*) FROM voyager.release_merges m JOIN bench_phase2 b ON b.id = m.merged_id
                                  JOIN bench_phase2 s ON s.id = m.survivor_id WHERE s.u = b.u""").fetchone()[0]
        counts_off = conn.execute("SELECT count(*) FROM voyager.check_search_counts()").fetchone()[0]
        t1 = time.monotonic()
        unplant(conn)
        undone = time.monotonic() - t1
    return {
        "probed": a.probed, "upload": a.upload, "shape": a.shape,
        "vacuumed": vacuum, "runs": runs,
        "max_run_seconds": max(r["seconds"] for r in runs),
        "db_cpu_s_per_1000_probed": round(1000 * cpu / a.probed, 4) if cpu is not None else None,
        # the job's own backend alone: a figure other work on the server does not move
        "backend_cpu_s_per_1000_probed": round(1000 * own / a.probed, 4) if own is not None else None,
        "merged": merged, "survivors": survivors, "merged_within_their_upload": right,
        "planted_merges": a.probed - -(-a.probed // a.upload), "search_counts_off": counts_off,
        "unmerge_seconds": round(undone, 1), "autovacuumed_during_runs": autovacuumed,
        "bars": {"db_cpu_s_per_1000_probed": 0.1, "max_run_seconds": 10}}


if __name__ == "__main__":
    sys.exit(main())
