"""`voyager bench judge`: the junk judge's database CPU per thousand dirty
releases, and one daily pass over every catalog release.

The shared generated catalog of --releases (bench.catalog) gets the facts
the judge reads, set-based, for its newest --sample releases (all of them
up to a million): most releases clean (an archive or a lone
file probed, its start hashed, a par2 beside, an inner name for some), a few
percent each rule's junk (dead: every first article 430; fake: a film's
archive holding only a program; repeated: one start in 25 releases; locked:
encrypted, no password; unusable: no readable name, a random inner name),
passwords known for some encrypted ones, one release in a hundred holding a
shared padding start beside its own, one in 37 merged into its neighbour,
and one in 20 never probed.

Dirty: --dirty probed releases picked at random across the sample (merged
members among them) have their probe results written again, so the
statement triggers mark them; their verdicts are taken away first, as for
facts just learnt. judge_dirty then drains the queue; the judge's backend
CPU over the drain, per thousand marks, median of --repeats. Daily: the
judge_daily job's pass from its start, run until done, --daily-repeats
times (the first writes the verdicts the dirty runs did not; the later ones
are the steady pass an indexer runs each day), over the sample (the pass
walks by id: it starts at the sample's first), scaled to a million
releases: the wall seconds and the backend CPU of each, their median.
Prints one JSON line with the bars (<= 50 ms per thousand dirty, <= 60 s a
daily pass at a million) and whether each holds (the daily pass by its wall
seconds and by its backend CPU: on a shared machine the wall is the other
processes' too). Then every planted fact, verdict and merge is removed: the
catalog is left as it was found.

The sample: facts for every release of a 10,000,000 catalog are ten times a
million's rows written and then deleted (and dead in its tables after);
the judge's costs are per release judged, so a million of them, walked in
the big catalog's indexes, say what the whole would.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import psycopg

from bench.catalog import as_found, build
from bench.cpu import backend_cpu, postgres_cpu
from voyager.config import Config

DIRTY_BAR_MS = 50.0          # judge CPU per 1,000 dirty releases
DAILY_BAR_S = 60.0           # one daily pass at 1,000,000 releases

# One class a release: most clean, a few percent each rule's junk.
CLASSES_SQL = """
CREATE TABLE public.bench_judge AS
SELECT r.id, r.files, r.has_par2, r.readable, left(r.name, 40) AS stem, r.u,
       CASE WHEN r.u < 0.05 THEN 'unprobed'
            WHEN r.u < 0.07 THEN 'dead'
            WHEN r.u < 0.08 THEN 'fake'
            WHEN r.u < 0.09 THEN 'repeated'
            WHEN r.u < 0.12 THEN 'locked'
            WHEN r.u < 0.13 THEN 'keyed'         -- encrypted, its password in the NFO: real content
            WHEN r.u < 0.15 THEN 'unusable'
            ELSE 'clean' END AS class,
       r.v
  FROM (SELECT r.id, r.files, r.has_par2, r.readable, r.name, random() AS u, random() AS v
          FROM (SELECT * FROM voyager.releases ORDER BY id DESC LIMIT %(sample)s) r) r
"""

FACTS_SQL = [
    # the repeated ones in runs of 25 sharing one start
    """ALTER TABLE public.bench_judge ADD COLUMN run bigint""",
    """UPDATE public.bench_judge b SET run = x.n / 25
         FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM public.bench_judge WHERE class = 'repeated') x
        WHERE x.id = b.id""",
    """ALTER TABLE public.bench_judge ADD PRIMARY KEY (id)""",
    # the first article of each probed release: an archive's first volume, or the lone file
    """INSERT INTO voyager.probe_cache (message_id, kind, status, bytes, facts, probed_at)
       SELECT format('j%s@bench', b.id), CASE WHEN b.files > 1 THEN 'archive' WHEN b.v < 0.5 THEN 'lone' ELSE 'media' END,
              CASE WHEN b.class = 'dead' THEN 1 ELSE 0 END, 716800,
              CASE WHEN b.class = 'dead' THEN NULL
                   WHEN b.files > 1 THEN jsonb_build_object(
                        'archive', jsonb_build_object(
                            'format', 'rar', 'encrypted_headers', b.class IN ('locked', 'keyed'), 'encrypted_files', false,
                            'entries', CASE WHEN b.class = 'fake' THEN jsonb_build_array(
                                                 jsonb_build_object('name', b.stem || '.exe', 'size', 2000000, 'encrypted', false))
                                            WHEN b.class = 'unusable' THEN jsonb_build_array(
                                                 jsonb_build_object('name', md5(b.id::text) || '.bin', 'size', 900000000, 'encrypted', false))
                                            ELSE jsonb_build_array(
                                                 jsonb_build_object('name', b.stem || '.mkv', 'size', 900000000, 'encrypted', false),
                                                 jsonb_build_object('name', b.stem || '.nfo', 'size', 2000, 'encrypted', false)) END),
                        'start', jsonb_build_object('md5_16k', encode(substring(sha256(('s' || CASE WHEN b.class = 'repeated' THEN 'run' || b.run ELSE b.id::text END)::bytea) FROM 1 FOR 16), 'hex'), 'size', 50000000))
                   ELSE jsonb_build_object(
                        'yenc', jsonb_build_object('name', b.stem || CASE WHEN b.class = 'fake' THEN '.exe' ELSE '.mkv' END),
                        'media', jsonb_build_object('container', CASE WHEN b.class = 'fake' THEN NULL ELSE 'matroska' END,
                                                    'executable', CASE WHEN b.class = 'fake' THEN 'pe' END),
                        'start', jsonb_build_object('md5_16k', encode(substring(sha256(('s' || CASE WHEN b.class = 'repeated' THEN 'run' || b.run ELSE b.id::text END)::bytea) FROM 1 FOR 16), 'hex'), 'size', 50000000))
              END,
              now() - interval '2 days'
         FROM public.bench_judge b WHERE b.class <> 'unprobed'""",
    # a par2 index beside the volumes of those that have one
    """INSERT INTO voyager.probe_cache (message_id, kind, status, bytes, facts, probed_at)
       SELECT format('j%sp@bench', b.id), 'par2', CASE WHEN b.class = 'dead' THEN 1 ELSE 0 END, 40000,
              CASE WHEN b.class <> 'dead' THEN jsonb_build_object('par2', jsonb_build_object(
                   'set_id', encode(substring(sha256(('set' || b.id)::bytea) FROM 1 FOR 16), 'hex'))) END,
              now() - interval '2 days'
         FROM public.bench_judge b WHERE b.class <> 'unprobed' AND b.has_par2 AND b.files > 1""",
    """INSERT INTO voyager.probe_candidates (release_id, kind, message_id, file_index, probed_at)
       SELECT b.id, c.kind, c.message_id, 0, c.probed_at
         FROM public.bench_judge b JOIN voyager.probe_cache c ON c.message_id IN (format('j%s@bench', b.id), format('j%sp@bench', b.id))""",
    """INSERT INTO voyager.file_hashes (message_id, md5_16k, size, release_id, file_index)
       SELECT c.message_id, decode(c.facts -> 'start' ->> 'md5_16k', 'hex'), 50000000, pc.release_id, 0
         FROM voyager.probe_candidates pc JOIN voyager.probe_cache c ON c.message_id = pc.message_id
        WHERE c.message_id LIKE 'j%@bench' AND c.facts ? 'start'""",
    # one in a hundred also holds one of twenty padding files (hundreds of holders each)
    """INSERT INTO voyager.file_hashes (message_id, md5_16k, size, release_id, file_index)
       SELECT format('j%sx@bench', b.id), substring(sha256(('pad' || (b.id % 20))::bytea) FROM 1 FOR 16), 1024, b.id, 1
         FROM public.bench_judge b WHERE b.class = 'clean' AND b.v < 0.01""",
    """INSERT INTO voyager.release_passwords (release_id, status, password, source)
       SELECT b.id, 1, CASE WHEN b.class = 'keyed' THEN 'from-the-nfo' END,
              CASE WHEN b.class = 'keyed' THEN 'nfo' ELSE 'archive' END
         FROM public.bench_judge b WHERE b.class IN ('locked', 'keyed')""",
    """UPDATE voyager.releases r SET readable = false FROM public.bench_judge b WHERE b.id = r.id AND b.class = 'unusable'""",
    # inner names: the archive's entry for a third of the clean ones, a random token for the unusable
    """INSERT INTO voyager.release_texts (release_id, kind, text)
       SELECT b.id, 2, CASE WHEN b.class = 'unusable' THEN md5(b.id::text) || '.bin' ELSE b.stem || '.mkv' END
         FROM public.bench_judge b WHERE b.class = 'unusable' OR (b.class = 'clean' AND b.v < 0.33)""",
]

# one in 37 clean ones merged into its neighbour, as the merges job records it
MERGE_SQL = """
SELECT voyager.merge_releases(array_agg(b.id - 1 ORDER BY b.id), array_agg(b.id ORDER BY b.id),
                              array_agg('name'::text), array_fill(NULL::bytea, ARRAY[count(*)::integer]))
  FROM public.bench_judge b JOIN public.bench_judge s ON s.id = b.id - 1 AND s.class = 'clean'
 WHERE b.class = 'clean' AND b.id %% 37 = 0 AND b.id BETWEEN %(first)s AND %(last)s
"""


# the tables the facts go into (vacuumed after the plant and after the removal)
TOUCHED = ("probe_cache", "probe_candidates", "file_hashes", "release_passwords", "releases", "release_texts",
           "release_judgements", "release_merges", "release_own_totals")

UNPLANT_SQL = [
    """SELECT voyager.unmerge_releases(array_agg(DISTINCT m.survivor_id))
         FROM voyager.release_merges m JOIN public.bench_judge b ON b.id = m.survivor_id""",
    """DELETE FROM voyager.release_judgements j USING public.bench_judge b WHERE j.release_id = b.id""",
    """DELETE FROM voyager.file_hashes WHERE message_id LIKE 'j%@bench'""",
    """DELETE FROM voyager.probe_candidates WHERE message_id LIKE 'j%@bench'""",
    """DELETE FROM voyager.probe_cache WHERE message_id LIKE 'j%@bench'""",
    """DELETE FROM voyager.release_passwords p USING public.bench_judge b
        WHERE p.release_id = b.id AND b.class IN ('locked', 'keyed')""",
    """UPDATE voyager.releases r SET readable = b.readable FROM public.bench_judge b
        WHERE b.id = r.id AND b.class = 'unusable'""",
    """DELETE FROM voyager.release_texts t USING public.bench_judge b
        WHERE t.release_id = b.id AND t.kind = 2 AND (b.class = 'unusable' OR (b.class = 'clean' AND b.v < 0.33))""",
    """DROP TABLE public.bench_judge""",
]


def plant(conn: psycopg.Connection, sample: int, log) -> float:
    """The judge's facts over the newest `sample` releases (public.bench_judge
    holds their classes); its seconds."""
    if conn.execute("SELECT to_regclass('public.bench_judge')").fetchone()[0]:
        unplant(conn, log)                   # a run that stopped half-way
    t0 = time.monotonic()
    conn.execute("SET maintenance_work_mem = '1GB'")
    conn.execute("SET synchronous_commit = off")
    conn.execute("SELECT setseed(0.17)")
    conn.execute(CLASSES_SQL, {"sample": sample})
    for i, q in enumerate(FACTS_SQL):
        conn.execute(q)
        log(f"bench judge: facts {i + 1}/{len(FACTS_SQL)} ({time.monotonic() - t0:.0f} s)")
    lo, hi = conn.execute("SELECT min(id), max(id) FROM public.bench_judge").fetchone()
    step = 100_000
    for first in range(lo, hi + 1, step):
        conn.execute(MERGE_SQL, {"first": first, "last": first + step - 1})
    log(f"bench judge: merges ({time.monotonic() - t0:.0f} s)")
    conn.execute("TRUNCATE voyager.judge_queue")
    conn.execute("""DELETE FROM voyager.release_judgements j USING public.bench_judge b
                     WHERE j.release_id = b.id AND j.verdict <> 'merged'""")
    _vacuum(conn)
    log(f"bench judge: facts planted in {time.monotonic() - t0:.0f} s")
    return time.monotonic() - t0


def unplant(conn: psycopg.Connection, log) -> float:
    """The merges undone, the verdicts and every planted fact gone; its seconds."""
    t0 = time.monotonic()
    for q in UNPLANT_SQL:
        conn.execute(q)
    _vacuum(conn)
    log(f"bench judge: facts removed in {time.monotonic() - t0:.0f} s")
    return time.monotonic() - t0


def _vacuum(conn: psycopg.Connection) -> None:
    for table in TOUCHED:
        conn.execute(f"VACUUM ANALYZE voyager.{table}")


def dirty_run(conn: psycopg.Connection, dirty: int, seed: int) -> dict:
    """--dirty releases' probe results written again (the triggers mark them),
    their verdicts taken away first; then judge_dirty until the queue is empty."""
    conn.execute("TRUNCATE voyager.judge_queue")
    conn.execute("""CREATE TEMP TABLE IF NOT EXISTS bench_dirty (id bigint PRIMARY KEY)""")
    conn.execute("TRUNCATE bench_dirty")
    conn.execute("SELECT setseed(%s)", (1 / (seed + 2),))
    conn.execute("""INSERT INTO bench_dirty SELECT id FROM public.bench_judge WHERE class <> 'unprobed'
                     ORDER BY random() LIMIT %s""", (dirty,))
    conn.execute("""DELETE FROM voyager.release_judgements j USING bench_dirty d JOIN voyager.releases r ON r.id = d.id
                     WHERE j.release_id = coalesce(r.merged_into, r.id) AND j.verdict <> 'merged'""")
    conn.execute("TRUNCATE voyager.judge_queue")
    m0 = backend_cpu(conn)
    conn.execute("""UPDATE voyager.probe_cache c SET probed_at = now()
                      FROM bench_dirty d WHERE c.message_id = format('j%s@bench', d.id)""")
    marks_cpu = backend_cpu(conn) - m0 if m0 is not None else None
    marked = conn.execute("SELECT count(*) FROM voyager.judge_queue").fetchone()[0]
    runs, cost = drained(conn, "SELECT voyager.judge_dirty()", lambda out: out["left"] == 0, 3)
    return {"marked": marked, "judged": sum(r["judged"] for r in runs), "hidden": sum(r["hidden"] for r in runs),
            "batches": sum(r["batches"] for r in runs), **cost,
            "marks_cpu_s": round(marks_cpu, 3) if marks_cpu is not None else None}


def drained(conn: psycopg.Connection, call: str, done, digits: int) -> tuple[list[dict], dict]:
    """A judge job's function called until `done` says its result is the last
    (at most 100 calls), after a checkpoint: its results, and the wall
    seconds, the backend's CPU and the server's CPU they took."""
    conn.execute("CHECKPOINT")
    c0, s0, w0 = backend_cpu(conn), postgres_cpu(conn), time.monotonic()
    runs = []
    while True:
        out = conn.execute(call).fetchone()[0]
        runs.append(out)
        if done(out) or len(runs) >= 100:
            break
    c1, s1, w1 = backend_cpu(conn), postgres_cpu(conn), time.monotonic()
    return runs, {"seconds": round(w1 - w0, digits),
                  "cpu_s": round(c1 - c0, digits) if c0 is not None else None,
                  "server_cpu_s": round(s1 - s0, digits) if s0 is not None else None}


def daily_run(conn: psycopg.Connection, first: int) -> dict:
    """The judge_daily job's pass from release `first` (the sample's first), run until done."""
    conn.execute("UPDATE voyager.jobs SET place = now(), place_id = %s WHERE name = 'judge_daily'", (first - 1,))
    runs, cost = drained(conn, "SELECT voyager.judge_daily()", lambda out: out["done"], 2)
    return {"judged": sum(r["judged"] for r in runs), "hidden": sum(r["hidden"] for r in runs),
            "changed": sum(r["changed"] for r in runs), "runs": len(runs), **cost}


def arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--dirty", type=int, default=20_000, help="releases marked dirty a run")
    ap.add_argument("--repeats", type=int, default=3, help="dirty runs")
    ap.add_argument("--daily-repeats", type=int, default=3, help="daily passes (0: none)")
    ap.add_argument("--sample", type=int, default=1_000_000,
                    help="the newest releases given the judge's facts (all of a smaller catalog)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="voyager bench judge", description=__doc__.split("\n\n")[0])
    ap.add_argument("--releases", type=int, default=1_000_000, help="releases of the catalog")
    arguments(ap)
    ap.add_argument("--quick", action="store_true", help="100,000 releases, 5,000 dirty, one daily pass after a first")
    a = ap.parse_args(argv)
    if a.quick:
        a.releases, a.dirty, a.daily_repeats = 100_000, 5_000, 2
    log = lambda m: print(m, file=sys.stderr)          # noqa: E731
    t0 = time.monotonic()
    dsn = build(Config.from_env().dsn, a.releases, log=log)
    built = time.monotonic() - t0
    print(json.dumps({"bench": "judge", "releases": a.releases, "catalog_s": round(built, 1),
                      **measure(dsn, a, log)}))
    return 0


def measure(dsn: str, a, log) -> dict:
    """The judge's figures on a shared catalog, the catalog left as found."""
    with as_found(dsn, log), psycopg.connect(dsn, autocommit=True) as conn:
        planted = plant(conn, a.sample, log)
        conn.execute("SET jit = off")
        classes = dict(conn.execute("SELECT class, count(*) FROM public.bench_judge GROUP BY 1 ORDER BY 1").fetchall())
        sample, first = conn.execute("SELECT count(*), min(id) FROM public.bench_judge").fetchone()
        merged = conn.execute("SELECT count(*) FROM voyager.release_merges").fetchone()[0]
        dirty = []
        for k in range(a.repeats):
            dirty.append(dirty_run(conn, a.dirty, k))
            log(f"bench judge: dirty {dirty[-1]}")
        daily = []
        for _ in range(a.daily_repeats):
            daily.append(daily_run(conn, first))
            log(f"bench judge: daily {daily[-1]}")
        verdicts = dict(conn.execute("SELECT verdict, count(*) FROM voyager.release_judgements GROUP BY 1 ORDER BY 1")
                        .fetchall())
        counts_off = conn.execute("SELECT count(*) FROM voyager.check_search_counts()").fetchone()[0]
        removed = unplant(conn, log)
    per_1000 = [1000 * 1000 * d["cpu_s"] / d["marked"] for d in dirty if d["cpu_s"] is not None and d["marked"]]
    ms = round(statistics.median(per_1000), 2) if per_1000 else None
    steady = daily[1:] or daily
    daily_s = round(statistics.median(d["seconds"] for d in steady), 2) if steady else None
    # the pass walked the sample: a million releases' pass is that many times it
    scaled = round(daily_s * 1_000_000 / sample, 2) if daily_s is not None else None
    daily_cpu = (round(statistics.median(d["cpu_s"] for d in steady), 2)
                 if steady and steady[0]["cpu_s"] is not None else None)
    return {
        "sample": sample, "classes": classes, "merged": merged, "dirty": a.dirty,
        "planted_s": round(planted, 1), "removed_s": round(removed, 1),
        "dirty_cpu_ms_per_1000": ms,
        "dirty_cpu_ms_per_1000_runs": [round(x, 2) for x in per_1000],
        "dirty_runs": dirty,
        "daily_s": daily_s, "daily_s_at_1m": scaled,
        "daily_cpu_s": daily_cpu,
        "daily_runs": daily,
        "verdicts": verdicts, "search_counts_off": counts_off,
        "bars": {"dirty_cpu_ms_per_1000": DIRTY_BAR_MS, "daily_s_at_1m": DAILY_BAR_S},
        "holds": {"dirty": ms is not None and ms <= DIRTY_BAR_MS,
                  "daily": scaled is not None and scaled <= DAILY_BAR_S,
                  # the backend's own seconds: the pass on a machine nothing else is using
                  "daily_cpu": daily_cpu is not None and daily_cpu * 1_000_000 / sample <= DAILY_BAR_S},
    }


if __name__ == "__main__":
    sys.exit(main())
