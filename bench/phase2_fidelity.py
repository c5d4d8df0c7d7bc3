"""`voyager bench phase2-fidelity`: phase 2 scored by the corpus's truth.

A corpus of the phase2 profile with bodies (generated once under
$VOYAGER_HOME/bench/phase2-corpus-SEED-LINES) is replayed into a scratch
database (voyager_fidelity_scratch), served by `voyager sim serve`, probed by
workers.prober until idle, and then phase 2's tick jobs run until they have
nothing left (the merges from the first release on, no lag). Prints one JSON
line: sim.phase2_truth's score (named uploads ending as exactly one visible
release with their true name and all their files, releases mixing two
uploads, nameless uploads in the catalog), by shape, with the bars.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import psycopg

from bench.probe import corpus_dir, replay, serve
from voyager.config import Config
from voyager.db import fresh_database

# phase 2's jobs, in the order one pass runs them (a job not deployed is skipped)
PHASE2_JOBS = ("settle", "pending_ladder", "merges", "recategorize", "search_counts")


def run_jobs(conn: psycopg.Connection, namer=None, passes: int = 5) -> dict:
    """Phase 2's SQL jobs and the namer (a callable), pass after pass, until a
    pass merges and moves nothing; each one's result of every pass."""
    known = {n for (n,) in conn.execute("SELECT name FROM voyager.jobs")}
    conn.execute("UPDATE voyager.settings SET value = '0' WHERE name = 'merge_lag_seconds'")
    conn.execute("UPDATE voyager.settings SET value = '600' WHERE name = 'merge_run_seconds'")
    conn.execute("UPDATE voyager.settings SET value = '0' WHERE name = 'pending_retry_minutes'")
    conn.execute("UPDATE voyager.jobs SET place = NULL WHERE name = 'merges'")
    results = {}
    for _ in range(passes):
        changes = "SELECT (SELECT count(*) FROM voyager.release_merges) + (SELECT count(*) FROM voyager.releases)"
        before = conn.execute(changes).fetchone()[0]
        for job in PHASE2_JOBS:
            if job in known:
                results.setdefault(job, []).append(
                    conn.execute("SELECT voyager.run_sql_job(%s)", (job,)).fetchone()[0])
        if namer is not None:
            results.setdefault("namer", []).append(namer())
        conn.execute("UPDATE voyager.jobs SET place = NULL WHERE name = 'merges'")
        if conn.execute(changes).fetchone()[0] == before:
            break
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="voyager bench phase2-fidelity", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--lines", type=int, default=200_000, help="overview lines of the generated corpus")
    ap.add_argument("--threads", type=int, default=4)
    a = ap.parse_args(argv)
    cfg = Config.from_env()
    corpus = corpus_dir(cfg.home, a.seed, a.lines, profile="phase2", days=3)
    dsn = fresh_database(cfg.dsn, "voyager_fidelity_scratch")
    from sim.phase2_truth import score_phase2
    from voyager.corpus import Corpus
    from workers.namer import Namer
    from workers.nntp import NntpConfig
    from workers.prober import Prober
    from workers.replay import catalog_releases
    t0 = time.monotonic()
    with psycopg.connect(dsn, autocommit=True) as conn:
        replay(conn, corpus)
        server, port = serve(corpus)
        try:
            nntp = NntpConfig(host="127.0.0.1", port=port, connections=a.threads)
            probed = Prober(dsn, "bench/phase2", threads=a.threads, until_idle=True, nntp=nntp,
                            poll_seconds=0.2).run()
            jobs = run_jobs(conn, lambda: Namer(dsn, "bench/namer", until_idle=True, corpus=corpus, nntp=nntp).run())
        finally:
            server.terminate()
            server.wait(10)
        score = score_phase2(Corpus(corpus).truth(), catalog_releases(conn))
        sound = [p for p, n in conn.execute("SELECT * FROM voyager.check_catalog()") if n]
        counts = conn.execute("SELECT count(*) FROM voyager.check_search_counts()").fetchone()[0]
    print(json.dumps({"bench": "phase2-fidelity", "corpus": str(corpus), "seconds": round(time.monotonic() - t0, 1),
                      "probed": {k: probed[k] for k in ("fetched", "stored", "dead", "failed") if k in probed},
                      "jobs": jobs, "score": score, "check_catalog": sound, "search_counts_off": counts,
                      "bars": {"named_whole_share": 0.99, "mixed_releases": 0, "nameless_in_catalog": 0}},
                     default=str), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
