"""`voyager bench e2e --corpus DIR`: headers per second end to end, from the
simulator (`voyager sim serve`, a process of its own) through one worker
process slot (workers/worker.LaneWorker, in this process) and pgbouncer into
the catalog of a fresh database on the local cluster, as one JSON line.

CPU is split by thread (time.thread_time where each runs): the window (the
window thread's feed and take_batch, the lease end's flush included; of it,
window_lease_end), inflate (the text thread: spooled replies read and
inflated once, one chunk ahead of the window), the store (the window
thread's store_batch calls), worker_other (the rest of the window thread:
lease calls, waiting loops), the fetch (every other thread of the worker:
sockets, the spool), Postgres (every backend of the cluster) and the
simulator (indexed before it listens: `--index-chunks`).
window_only_headers_per_cpu_second is the same corpus's chunks through a
window alone over its ranges (bench/window.window_pass, inflate included,
the least CPU of --repeat runs); window_only_same_work_headers_per_cpu_second
adds the flush at the corpus's end, the work the run itself does
(--flush-at-end). The bar, bar_60_percent_met, is e2e headers per wall
second >= 60% of the same-work rate: both sides then do the same window
work, and what the ratio measures is what fetching, spooling and storing
cost on top. e2e_share_of_window_rate (ranges only) is printed beside it.

The machine is shared: load_average is the 1-minute load before and after
the run. cpu_bound_headers_per_second is what the run's CPU would allow on
two otherwise idle cores: headers / max(the window thread's CPU, all CPU / 2)
(a bound, not a measurement); window_thread_busy is the window thread's CPU
over the wall time (near 1: the window is the bottleneck; low: it waited).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

import psycopg
from psycopg.types.json import Jsonb

from bench.cpu import proc_cpu, server_cpu
from voyager.cluster import free_port
from voyager.config import Config
from voyager.corpus import Corpus
from voyager.db import fresh_database


def _postgres_cpu(cfg: Config) -> float | None:
    """The local cluster's CPU (bench.cpu.server_cpu of its postmaster)."""
    try:
        master = int((cfg.pgdata / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return server_cpu(master)


def _grid(corpus: Corpus) -> tuple[int, int]:
    """range_articles and chunk_articles of the corpus's own grid."""
    spans = [(r.end - r.start + 1, max((c.last - c.first + 1 for c in r.chunks), default=0))
             for g in corpus.group_names() for r in corpus.ranges(g)]
    return max(s for s, _ in spans), max(c for _, c in spans)


def window_only(corpus: Corpus, repeat: int) -> tuple[int, float, float]:
    """(headers, CPU over the ranges, CPU with the flush at the end): the
    window alone on the same chunks, the least CPU of `repeat` passes each."""
    from bench.window import window_pass

    priorities = corpus.priorities()
    headers, cpu, cpu_all = 0, 0.0, 0.0
    for g in corpus.group_names():
        chunks = list(corpus.chunks(g))
        runs = [window_pass(chunks, g, priorities, end="flush") for _ in range(max(1, repeat))]
        headers += runs[0]["headers"]
        cpu += min(r["range_cpu"] for r in runs)
        cpu_all += min(r["cpu"] for r in runs)
    return headers, cpu, cpu_all


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="voyager bench e2e")
    p.add_argument("--corpus", required=True)
    p.add_argument("--connections", type=int, default=4, help="NNTP connections of the worker")
    p.add_argument("--repeat", type=int, default=2, help="window-only passes (the least CPU counts)")
    p.add_argument("--database", default="voyager_bench_e2e")
    args = p.parse_args(argv)
    cfg = Config.from_env()
    corpus = Corpus(args.corpus)
    range_articles, chunk_articles = _grid(corpus)

    # a fresh database, the schema, the corpus's grid, its groups planned
    dsn = fresh_database(cfg.dsn, args.database)
    with psycopg.connect(dsn, autocommit=True) as c:
        for name, value in (("range_articles", range_articles), ("chunk_articles", chunk_articles)):
            c.execute("UPDATE voyager.settings SET value = %s WHERE name = %s", (str(value), name))
        c.execute("SELECT * FROM voyager.plan_groups(%s)", (Jsonb(corpus.groups()),))

    bouncer = None
    pooled = dsn
    if cfg.local:
        from voyager.cluster import Bouncer

        bouncer = Bouncer(workdir=cfg.home / "pgbouncer-bench", port=free_port(), pg_host=cfg.host,
                          pg_port=cfg.port, database=args.database, user=cfg.user)
        bouncer.start()
        pooled = f"postgresql://{cfg.user}@127.0.0.1:{bouncer.port}/{args.database}"
    port = free_port()
    # --index-chunks: the chunks' dot-stuffing learnt before it listens (a
    # provider's index), so whole-chunk compressed replies go out as stored
    sim = subprocess.Popen([sys.executable, "-m", "sim.server", "--corpus", str(corpus.root), "--port", str(port),
                            "--index-chunks"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        if not sim.stdout.readline().startswith(b"listening on"):
            raise RuntimeError("the simulator did not start")
        os.environ.update(VOYAGER_NNTP_HOST="127.0.0.1", VOYAGER_NNTP_PORT=str(port),
                          VOYAGER_NNTP_CONNECTIONS=str(args.connections), VOYAGER_WORKER_DSN=pooled)
        os.environ.pop("VOYAGER_CORPUS", None)
        from workers.worker import LaneWorker

        w = LaneWorker("history", "bench-e2e", until_idle=True, flush_at_end=True, cfg=cfg)
        load0 = os.getloadavg()[0]
        pg0, sim0 = _postgres_cpu(cfg), proc_cpu(sim.pid) or 0.0
        ru0 = resource.getrusage(resource.RUSAGE_SELF)
        main0 = time.thread_time()
        t0 = time.monotonic()
        stats = w.run()
        wall = time.monotonic() - t0
        main_cpu = time.thread_time() - main0
        ru1 = resource.getrusage(resource.RUSAGE_SELF)
        pg1, sim1 = _postgres_cpu(cfg), proc_cpu(sim.pid) or 0.0
        load1 = os.getloadavg()[0]
    finally:
        sim.terminate()
        sim.wait(10)
        if bouncer is not None:
            bouncer.stop()
    worker_cpu = (ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime)
    inflate = w.cpu.get("inflate", 0.0)
    store_async = w.cpu.get("store_async", 0.0)      # the store thread, beside the window's
    parts = {"window": w.cpu["window"], "inflate": inflate, "store": w.cpu["store"] + store_async,
             "worker_other": max(0.0, main_cpu - w.cpu["window"] - w.cpu["store"]),
             "fetch": max(0.0, worker_cpu - main_cpu - inflate - store_async),
             "postgres": (pg1 - pg0) if pg0 is not None and pg1 is not None else None,
             "simulator": sim1 - sim0}
    total = sum(v for v in parts.values() if v)
    bound = stats["headers"] / max(main_cpu, total / 2) if total else None
    walls = w.wall_seconds()
    ranges_rate = stats["headers"] / walls["ranges"] if walls["ranges"] else None
    headers = stats["headers"]
    wo_headers, wo_cpu, wo_cpu_all = window_only(corpus, args.repeat)
    wo_rate = wo_headers / wo_cpu if wo_cpu else None
    # the same work as the run: the corpus's ranges, then the flush at its end
    wo_same = wo_headers / wo_cpu_all if wo_cpu_all else None
    rate = headers / wall if wall else None
    with psycopg.connect(dsn, autocommit=True) as c:
        from workers.replay import catalog_fidelity

        fidelity = catalog_fidelity(c, corpus.root) if (corpus.root / "truth.jsonl").exists() else None
    print(json.dumps({
        "corpus": str(corpus.root), "headers": headers, "wall_seconds": round(wall, 2),
        "e2e_headers_per_second": round(rate) if rate else None,
        "window_only_headers_per_cpu_second": round(wo_rate) if wo_rate else None,
        "e2e_share_of_window_rate": round(rate / wo_rate, 3) if rate and wo_rate else None,
        "window_only_same_work_headers_per_cpu_second": round(wo_same) if wo_same else None,
        "e2e_share_of_window_rate_same_work": round(rate / wo_same, 3) if rate and wo_same else None,
        "bar_60_percent_met": bool(rate and wo_same and rate >= 0.6 * wo_same),
        # the ranges alone (the lease ends' flush and the lease calls left out), as the
        # window-only rate leaves the lease end out
        "e2e_ranges_headers_per_second": round(ranges_rate) if ranges_rate else None,
        "e2e_ranges_share_of_window_rate": round(ranges_rate / wo_rate, 3) if ranges_rate and wo_rate else None,
        "window_thread_wall_seconds": {k: round(v, 3) for k, v in walls.items()},
        "cpu_seconds": {k: (round(v, 3) if v is not None else None) for k, v in parts.items()},
        "cpu_share": {k: (round(v / total, 3) if v is not None and total else None) for k, v in parts.items()},
        "window_lease_end": round(w.cpu["window"] - w.cpu.get("window_ranges", w.cpu["window"]), 3),
        "window_thread_busy": round(main_cpu / wall, 3) if wall else None,
        "cpu_bound_headers_per_second": round(bound) if bound else None,
        "load_average": [round(load0, 2), round(load1, 2)],
        "nntp_connections": args.connections, "pooled": bouncer is not None,
        "fidelity": fidelity, "worker": stats,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
