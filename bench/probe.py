"""`voyager bench probe`: the prober end to end on the simulator's corpus.

A corpus with bodies (generated once under $VOYAGER_HOME/bench/probe-corpus)
is replayed into a scratch database (voyager_probe_scratch), served by
`voyager sim serve` in a process of its own, and probed by workers.prober in
this process until idle. Prints one JSON line: the worker's CPU per probed
article (fetch handling, yEnc decode, parsing, the store's client), the
database's CPU per thousand stored results, the articles fetched per release
probed (mean and max, against the bars 3 and 5), and the readers alone on
~700 KB articles (bench.probe_read.measure: the 2 ms bar).
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import psycopg

from bench.cpu import postgres_cpu
from voyager.config import Config
from voyager.db import fresh_database

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def corpus_dir(home: Path, seed: int, lines: int, *, profile: str | None = None, days: int = 2) -> Path:
    """A generated corpus with bodies under $VOYAGER_HOME/bench, made once (a
    profile's corpus under the profile's name)."""
    out = home / "bench" / f"{profile or 'probe'}-corpus-{seed}-{lines}"
    if not (out / "bodies" / "files.jsonl").exists():
        from sim.generate import Options, generate
        generate(Options(out=out, seed=seed, groups=2, lines=lines, days=days, range_articles=RANGE_ARTICLES,
                         chunk_articles=CHUNK_ARTICLES, profile=profile))
    return out


RANGE_ARTICLES, CHUNK_ARTICLES = 50_000, 10_000


def replay(conn: psycopg.Connection, corpus: Path) -> None:
    """The corpus into the scratch database on its own grid, as a worker would have stored it."""
    from workers.replay import replay_into_db
    for name, value in {"range_articles": RANGE_ARTICLES, "chunk_articles": CHUNK_ARTICLES}.items():
        conn.execute("UPDATE voyager.settings SET value = %s WHERE name = %s", (str(value), name))
    replay_into_db(conn, corpus)


def serve(corpus: Path) -> tuple[subprocess.Popen, int]:
    port = _free_port()
    p = subprocess.Popen([sys.executable, "-m", "voyager.cli", "sim", "serve", "--corpus", str(corpus),
                          "--port", str(port)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return p, port
        except OSError:
            time.sleep(0.2)
    p.kill()
    raise RuntimeError("the simulator did not start")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="voyager bench probe", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--lines", type=int, default=400_000, help="overview lines of the generated corpus")
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=30, help="passes of the readers-alone measure")
    a = ap.parse_args(argv)
    cfg = Config.from_env()
    corpus = corpus_dir(cfg.home, a.seed, a.lines)
    dsn = fresh_database(cfg.dsn, "voyager_probe_scratch")
    from workers.nntp import NntpConfig
    from workers.prober import Prober
    with psycopg.connect(dsn, autocommit=True) as conn:
        replay(conn, corpus)
        targets = conn.execute("SELECT count(*) FROM voyager.probe_candidates").fetchone()[0]
        server, port = serve(corpus)
        try:
            nntp = NntpConfig(host="127.0.0.1", port=port, connections=a.threads)
            p = Prober(dsn, "bench/probe", threads=a.threads, until_idle=True, nntp=nntp, poll_seconds=0.2)
            db0 = postgres_cpu(conn)
            cpu0, t0 = time.process_time(), time.monotonic()
            stats = p.run()
            cpu, wall = time.process_time() - cpu0, time.monotonic() - t0
            db = postgres_cpu(conn)
        finally:
            server.terminate()
            server.wait(10)
        per = [n for (n,) in conn.execute(
            "SELECT count(DISTINCT pc.message_id) FROM voyager.probe_candidates pc "
            "JOIN voyager.probe_cache c ON c.message_id = pc.message_id "
            "GROUP BY coalesce(pc.release_id::text, encode(pc.pending_key, 'hex'))")]
        kinds = dict(conn.execute("SELECT kind, count(*) FROM voyager.probe_cache GROUP BY kind").fetchall())
    from bench.probe_read import measure
    fetched = max(1, stats["fetched"])
    out = {"bench": "probe", "corpus": str(corpus), "targets": targets, "threads": a.threads, **stats,
           "fetched_by_kind": kinds, "seconds": round(wall, 3),
           "articles_per_second": round(stats["fetched"] / wall, 1) if wall else None,
           "worker_cpu_ms_per_article": round(1000 * cpu / fetched, 3),
           "worker_cpu_ms_by_part_per_article": {k: round(1000 * v / fetched, 3) for k, v in p.cpu.items()},
           "body_kb_mean": round(stats["body_bytes"] / fetched / 1024, 1),
           "db_cpu_ms_per_1000_results": round(1e6 * (db - db0) / max(1, stats["stored"]), 1)
           if db is not None and db0 is not None else None,
           "releases_probed": len(per),
           "articles_per_release_mean": round(sum(per) / len(per), 3) if per else None,
           "articles_per_release_max": max(per) if per else None,
           "bars": {"articles_per_release_mean": 3, "articles_per_release_max": 5,
                    "worker_cpu_ms_per_700kb_article": 2.0},
           "readers": measure(a.repeat)}
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
