"""`voyager bench api`: the Newznab API's latency on a generated catalog.

Builds (once; reused after) a `_scratch` database of --releases releases
(bench/catalog.py), starts a real `voyager web` server process on it, and
drives it with --clients concurrent keep-alive clients (a user each), each sending its next
request as soon as the last one is answered. Per request kind, --requests
requests; latency percentiles in milliseconds, printed as one JSON document.

Kinds:
  search_word      t=search&q=WORD, WORD drawn without repeats from the title
                   vocabulary (every total counted afresh: nothing cached)
  search_popular   t=search&q=WORD, WORD the title word of a random release
                   (common words often: some totals counted before)
  category_page    an empty-q page of a category set, as clients poll them
                   (Sonarr t=tvsearch&cat=5030,5040, Radarr t=movie, Prowlarr
                   t=search, ...; extended=1)
  get              t=get of a 100-file release (5,000 segments, ~480 KB NZB)
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import psycopg

from voyager.cluster import free_port
from bench.cpu import proc_cpu, server_cpu

from bench import catalog

CATEGORY_PAGES = [
    "t=tvsearch&cat=5030,5040&extended=1",
    "t=movie&cat=2000,2030,2040,2045&extended=1",
    "t=search&extended=1",
    "t=search&cat=5000",
    "t=search&cat=2040",
    "t=music&cat=3010,3040&extended=1",
    "t=book&cat=7020&extended=1",
    "t=search&cat=4000,6000",
]
TARGETS_MS = {"search_word": 50, "search_popular": 50, "category_page": 20, "get": 30}


class Client:
    """One keep-alive HTTP/1.1 connection, as little client work as can be."""

    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None

    async def get(self, path: str) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split()[1])
        length = 0
        for line in lines[1:]:
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
        body = await self.reader.readexactly(length)
        return status, body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def _check(kind: str, status: int, body: bytes) -> bool:
    if status != 200:
        return False
    if kind == "get":
        return body.startswith(b"<?xml") and b"<nzb" in body[:400]
    return b"<rss" in body[:200] and b"<error" not in body[:200]


def _tree_cpu(root: int) -> float:
    """CPU seconds of a process and its live descendants (the web server's workers)."""
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(entry))
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += proc_cpu(pid) or 0.0
        todo.extend(kids.get(pid, ()))
    return total


class Meters:
    """CPU of the web server's processes and of the PostgreSQL server, per kind."""

    def __init__(self, server_pid: int, postmaster: int | None):
        self.server_pid, self.postmaster = server_pid, postmaster

    def read(self) -> tuple[float, float | None]:
        return _tree_cpu(self.server_pid), server_cpu(self.postmaster) if self.postmaster else None


async def run_kind(port: int, kind: str, paths: list[str], clients: int, keys: list[str],
                   meters: Meters | None = None) -> dict:
    queue = list(reversed(paths))
    latencies: list[float] = []
    errors = 0

    async def worker(key: str):
        nonlocal errors
        c = Client(port)
        try:
            while queue:
                path = f"{queue.pop()}&apikey={key}"
                t = time.perf_counter()
                try:
                    status, body = await c.get(path)
                except (OSError, asyncio.IncompleteReadError, ValueError):
                    c.close()
                    c = Client(port)
                    errors += 1
                    continue
                latencies.append(time.perf_counter() - t)
                if not _check(kind, status, body):
                    errors += 1
        finally:
            c.close()

    before = meters.read() if meters else None
    started, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(worker(keys[i % len(keys)]) for i in range(clients)))
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    after = meters.read() if meters else None
    latencies.sort()

    def pct(p: float) -> float:
        return round(latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000, 1) if latencies else None

    return {"requests": len(latencies), "errors": errors, "p50_ms": pct(0.50), "p95_ms": pct(0.95),
            "p99_ms": pct(0.99), "max_ms": round(latencies[-1] * 1000, 1) if latencies else None,
            "requests_per_second": round(len(latencies) / wall, 1),
            "client_cpu_share": round(cpu / wall, 2),
            # CPU milliseconds per request: what the throughput on two cores is made of
            **({"web_cpu_ms": round((after[0] - before[0]) * 1000 / max(len(latencies), 1), 2),
                "postgres_cpu_ms": (round((after[1] - before[1]) * 1000 / max(len(latencies), 1), 2)
                                    if after[1] is not None else None),
                "client_cpu_ms": round(cpu * 1000 / max(len(latencies), 1), 2)} if meters else {})}


HOT = ("releases", "release_texts", "release_texts_trgm_idx", "release_texts_words_idx", "releases_pkey",
       "release_texts_release_idx", "releases_newest_idx", "releases_release_key_excl", "posters", "posters_pkey",
       "search_counts", "search_counts_pkey")


def _prewarm(dsn: str) -> dict:
    """The catalog's hot relations into shared buffers, as on a running indexer."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("TRUNCATE voyager.search_totals")      # every run counts its totals afresh
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
        pages = sum(conn.execute("SELECT pg_prewarm(%s)", (f"voyager.{r}",)).fetchone()[0] for r in HOT)
        return {"shared_buffers": conn.execute("SHOW shared_buffers").fetchone()[0],
                "prewarmed_mb": round(pages * 8192 / 2**20)}


def _bench_keys(dsn: str, n: int) -> list[str]:
    """A user per client (admin: no quota), as a busy indexer's clients are;
    the keys kept as they are made (a stored key is only its hash: a user of
    an earlier run gets a new key)."""
    from voyager.cli.users import add, new_key

    keys = []
    with psycopg.connect(dsn, autocommit=True) as conn:
        for i in range(1, n + 1):
            row = conn.execute("SELECT id FROM voyager.users WHERE name = %s", (f"bench{i}",)).fetchone()
            keys.append(new_key(conn, row[0]) if row else add(conn, f"bench{i}", "admin"))
    return keys


def _inputs(dsn: str, n: int, seed: int) -> dict[str, list[str]]:
    rng = random.Random(seed)
    vocab = [w.lower() for w in catalog.title_vocabulary()]
    rng.shuffle(vocab)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SELECT setseed(%s)", (1 / (seed + 2),))
        names = [r[0] for r in conn.execute(
            "SELECT name FROM voyager.releases TABLESAMPLE SYSTEM (1) ORDER BY random() LIMIT %s", (n + 500,))]
        guids = [r[0] for r in conn.execute(
            "SELECT encode(release_key, 'hex') FROM voyager.releases WHERE files = 100 ORDER BY random() LIMIT %s",
            (n + 500,))]
    popular = []
    for name in names:
        words = [w for w in name.replace("-", ".").replace(" ", ".").split(".") if len(w) >= 4 and w.isalpha()]
        if words:
            popular.append(rng.choice(words).lower())
    return {
        # a running indexer's state: connections open, the polled category pages seen by every worker
        "warmup": [f"t=search&q={quote(w)}&limit=100" for w in vocab[-100:]] + CATEGORY_PAGES * 8,
        "search_word": [f"t=search&q={quote(w)}" for w in (vocab * (n // len(vocab) + 1))[:n + 500]],
        "search_popular": [f"t=search&q={quote(w)}" for w in (popular * (n // max(len(popular), 1) + 1))[:n + 500]],
        "category_page": [rng.choice(CATEGORY_PAGES) for _ in range(n + 500)],
        "get": [f"t=get&id={g}" for g in (guids * (n // max(len(guids), 1) + 1))[:n + 500]],
    }


def _postmaster(dsn: str) -> int | None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        try:
            return int(Path(f"/proc/{conn.info.backend_pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            return None


def _load_average() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


async def _wait_up(port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            c = Client(port)
            status, _ = await c.get("/api?t=caps")
            c.close()
            if status == 200:
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("the web server did not answer")
        await asyncio.sleep(0.3)


def main(argv: list[str] | None = None) -> int:
    from voyager.config import Config

    p = argparse.ArgumentParser(prog="voyager bench api", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--releases", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--clients", type=int, default=16)
    p.add_argument("--requests", type=int, default=2000, help="per kind")
    p.add_argument("--workers", type=int, default=0, help="server worker processes (0: voyager web's default)")
    p.add_argument("--kinds", default="search_word,search_popular,category_page,get")
    p.add_argument("--no-count-cache", action="store_true", help="the server counts every total afresh")
    p.add_argument("--rebuild", action="store_true", help="build the catalog again (after a schema change)")
    p.add_argument("--service", type=int, default=0, metavar="N",
                   help="also N requests per kind from one client first (the service time, no queueing)")
    args = p.parse_args(argv)

    cfg = Config.from_env()
    log = lambda m: print(m, file=sys.stderr)  # noqa: E731
    dsn = catalog.build(cfg.dsn, releases=args.releases, seed=args.seed, log=log, rebuild=args.rebuild)
    keys = _bench_keys(dsn, args.clients)
    warm = _prewarm(dsn)
    inputs = _inputs(dsn, args.requests, args.seed)
    port = free_port()
    env = dict(os.environ, VOYAGER_WEB_DSN=dsn,
               VOYAGER_WEB_COUNT_CACHE="0" if args.no_count_cache else "1")
    server = subprocess.Popen([sys.executable, "-m", "voyager.cli", "web", "--host", "127.0.0.1", "--port", str(port),
                               "--workers", str(args.workers)], env=env, cwd=Path(__file__).resolve().parent.parent,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    from web.server import default_workers, pool_size

    workers = args.workers or default_workers()
    out: dict = {"releases": args.releases, "clients": args.clients, "server_workers": workers,
                 "pool_per_worker": int(os.environ.get("VOYAGER_WEB_POOL") or pool_size(workers)),
                 "cpus": os.cpu_count(), "count_cache": not args.no_count_cache, **warm, "kinds": {}}
    try:
        asyncio.run(_wait_up(port))
        meters = Meters(server.pid, _postmaster(dsn))

        async def drive():
            await run_kind(port, "warmup", [f"/api?{q}" for q in inputs["warmup"]], args.clients, keys)
            if args.service:
                out["one_client"] = {}
                for kind in args.kinds.split(","):
                    paths = [f"/api?{q}" for q in inputs[kind][-args.service:]]
                    del inputs[kind][-args.service:]             # not asked again below
                    out["one_client"][kind] = await run_kind(port, kind, paths, 1, keys, meters)
                    log(f"{kind}, one client: {json.dumps(out['one_client'][kind])}")
            for kind in args.kinds.split(","):
                paths = [f"/api?{q}" for q in inputs[kind][:args.requests]]
                out["load_average_before"] = out.get("load_average_before") or _load_average()
                out["kinds"][kind] = await run_kind(port, kind, paths, args.clients, keys, meters)
                out["kinds"][kind]["target_p95_ms"] = TARGETS_MS.get(kind)
                log(f"{kind}: {json.dumps(out['kinds'][kind])}")

        asyncio.run(drive())
        out["load_average_after"] = _load_average()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
