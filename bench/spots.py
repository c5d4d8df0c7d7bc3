"""`voyager bench spots`: the spotter's cost per thousand spots.

A corpus with N spots (`voyager sim generate --spots N`, generated once under
$VOYAGER_HOME/bench/spots-corpus-SEED-N) is served by `voyager sim serve` in a
process of its own, and free.pt is read by workers.spotter (`voyager spots
read`) in this process, into a scratch database (voyager_spots_scratch)
trusting the simulator's keys. Prints one JSON line: the worker's CPU per
thousand spots (this process's user + sys: NNTP handling, reading, verifying,
storing, each part apart), the database's CPU per thousand spots
(bench.cpu.postgres_cpu: the whole server), the readers alone on the same
headers (no NNTP, no database), and the bar: under 1 s of worker CPU per
thousand spots. --profile adds cProfile's costliest functions of the pass.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import time
from pathlib import Path

import psycopg

from bench.cpu import postgres_cpu
from bench.probe import serve
from voyager.config import Config
from voyager.db import fresh_database

BAR_WORKER_S_PER_1000 = 1.0
LINES_PER_SPOT = 120        # overview lines the corpus needs for one named, complete upload a spot


def corpus_dir(home: Path, seed: int, spots: int, profile: str | None = None) -> Path:
    """A corpus with `spots` spots under $VOYAGER_HOME/bench, made once (of
    a generator profile's groups: phase2's hold obfuscated uploads)."""
    out = home / "bench" / f"spots-corpus-{seed}-{spots}" if profile is None else \
        home / "bench" / f"spots-corpus-{profile}-{seed}-{spots}"
    if not (out / "spots" / "truth.json").exists():
        from sim.generate import Options, generate
        # a profile's uploads are bigger (sets with par2): four times the lines for as many spots
        lines = max(20_000, LINES_PER_SPOT * spots) * (1 if profile is None else 4)
        generate(Options(out=out, seed=seed, groups=1, lines=lines, days=1, spots=spots, bodies=False,
                         profile=profile))
    return out


def trust_simulator(conn: psycopg.Connection, corpus: Path) -> None:
    """The scratch database trusting the simulator's keys, its first read
    reaching back over the whole of the corpus's free.pt."""
    from sim import spotfeed
    heads = sum(1 for line in open(corpus / "spots" / "articles.jsonl") if f'"group": "{spotfeed.SPOT_GROUP}"' in line)
    keys = json.dumps({str(k): v for k, v in spotfeed.trusted_keys().items()})
    conn.execute("UPDATE voyager.settings SET value = %s WHERE name = 'spots_trusted_keys'", (keys,))
    conn.execute("UPDATE voyager.settings SET value = %s WHERE name = 'spots_first_articles'",
                 (str(max(20_000, heads)),))


def readers_alone(corpus: Path, repeat: int = 3) -> dict:
    """CPU seconds per thousand spots of parse_head, read_spot and
    verify_spot on the corpus's spot headers: the spotter's own work, without
    NNTP or the database."""
    from sim import spotfeed
    from workers.spots import parse_head, read_spot, verify_spot
    heads = [json.loads(line)["head"].encode("latin-1") for line in open(corpus / "spots" / "articles.jsonl")
             if f'"group": "{spotfeed.SPOT_GROUP}"' in line]
    keys = spotfeed.trusted_keys()
    out = {"parse_head": 0.0, "read_spot": 0.0, "verify_spot": 0.0}
    for _ in range(repeat):
        t0 = time.process_time()
        parsed = [parse_head(raw) for raw in heads]
        t1 = time.process_time()
        for h in parsed:
            read_spot(h)
        t2 = time.process_time()
        for h in parsed:
            verify_spot(h, keys)
        t3 = time.process_time()
        for part, seconds in zip(out, (t1 - t0, t2 - t1, t3 - t2)):
            out[part] += seconds
    per = 1000 / (max(1, len(heads)) * repeat)
    return {"spots": len(heads), "repeat": repeat, **{k: round(v * per, 4) for k, v in out.items()},
            "total": round(sum(out.values()) * per, 4)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="voyager bench spots", description=__doc__.split("\n\n")[0])
    ap.add_argument("--spots", type=int, default=2000, help="spots of the generated corpus")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--profile", action="store_true", help="cProfile the pass: its costliest functions")
    a = ap.parse_args(argv)
    cfg = Config.from_env()
    corpus = corpus_dir(cfg.home, a.seed, a.spots)
    dsn = fresh_database(cfg.dsn, "voyager_spots_scratch")
    from workers.nntp import NntpConfig
    from workers.spotter import read_spots
    parts: dict = {}
    profiler = cProfile.Profile() if a.profile else None
    with psycopg.connect(dsn, autocommit=True) as conn:
        trust_simulator(conn, corpus)
        server, port = serve(corpus)
        try:
            nntp = NntpConfig(host="127.0.0.1", port=port, connections=2)
            db0 = postgres_cpu(conn)
            cpu0, t0 = time.process_time(), time.monotonic()
            if profiler:
                profiler.enable()
            stats = read_spots(dsn, "bench/spots", nntp, cpu=parts)
            if profiler:
                profiler.disable()
            cpu, wall = time.process_time() - cpu0, time.monotonic() - t0
            db = postgres_cpu(conn)
        finally:
            server.terminate()
            server.wait(10)
        rows = conn.execute("SELECT count(*), count(*) FILTER (WHERE verified), count(*) FILTER (WHERE trusted), "
                            "count(*) FILTER (WHERE disposed_at IS NOT NULL) FROM voyager.spots").fetchone()
    if stats.get("error"):
        raise RuntimeError(stats["error"])
    n = max(1, stats["articles"])
    worker = cpu * 1000 / n
    out = {"bench": "spots", "corpus": str(corpus), **stats,
           "rows": dict(zip(("spots", "verified", "trusted", "disposed"), rows)),
           "seconds": round(wall, 3), "spots_per_second": round(stats["articles"] / wall, 1) if wall else None,
           "worker_cpu_s_per_1000_spots": round(worker, 4),
           "worker_cpu_s_by_part_per_1000_spots": {k: round(v * 1000 / n, 4) for k, v in parts.items()},
           "db_cpu_s_per_1000_spots": round((db - db0) * 1000 / n, 4)
           if db is not None and db0 is not None else None,
           "readers_alone_s_per_1000_spots": readers_alone(corpus),
           "bars": {"worker_cpu_s_per_1000_spots": BAR_WORKER_S_PER_1000},
           "within_bar": worker < BAR_WORKER_S_PER_1000}
    if profiler:
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(15)
        table = text.getvalue().split("ncalls", 1)[-1].splitlines()[1:]
        out["profile"] = [" ".join(line.split()) for line in table if line.strip()]
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
