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

--replicas N: then the same requests again against a server reading from N
streaming replicas of the cluster (`voyager db replica`: the existing ones
first, `benchK` made for the rest and removed after unless
--keep-replicas), their figures beside one server's and the p95 ratio per
kind. --kill-replica: a replica's postmaster SIGKILLed a third of the way
into that run and started again 2 s later; every failed request counts.
With --rounds R, both servers are served at once and each kind runs R times
on each in turn (a kill in every replicas' round), the p95 ratio the median
of the rounds'.

--compare M: the same first on a catalog of M releases, both in one JSON with
the ratios per kind; with --rounds R, both catalogs are served at once and
each kind runs R times on each in turn, the ratios the median of the rounds'.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import psycopg

from voyager.cluster import free_port
from bench.cpu import alive, application_cpu, host_speed, parent, proc_cpu, server_cpu
from web.routing import WEB_APPLICATION

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
            ppid = parent(int(entry))
            if ppid is not None:
                kids.setdefault(ppid, []).append(int(entry))
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += proc_cpu(pid) or 0.0
        todo.extend(kids.get(pid, ()))
    return total


class Meters:
    """CPU of the web server's processes and of the PostgreSQL servers (the
    primary's, and the replicas' it reads from), per kind; and, on a catalog
    read from the primary alone (`conn`), of the web's own backends there:
    what a request costs the database though other work shares the server."""

    def __init__(self, server_pid: int, postmasters, conn: psycopg.Connection | None = None):
        self.server_pid, self.postmasters, self.conn = server_pid, postmasters, conn      # () -> the servers' postmaster pids
        self.pids = postmasters()

    def read(self) -> tuple[float, float | None, dict | None]:
        pids = self.postmasters()
        web = application_cpu(self.conn, WEB_APPLICATION) if self.conn is not None else None
        if pids != self.pids or not all(map(alive, pids)):
            self.pids = pids
            return _tree_cpu(self.server_pid), None, web          # a server killed or restarted in between: no figure
        cpu = [server_cpu(pid) for pid in pids]
        return _tree_cpu(self.server_pid), None if None in cpu or not cpu else sum(cpu), web


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
                                    if after[1] is not None and before[1] is not None else None),
                "client_cpu_ms": round(cpu * 1000 / max(len(latencies), 1), 2)} if meters else {}),
            # the web's backends alone (a backend gone in between loses its part)
            **({"web_backends_cpu_ms": round(sum(c - before[2].get(pid, 0.0) for pid, c in after[2].items())
                                             * 1000 / max(len(latencies), 1), 2)}
               if meters and after[2] is not None and before[2] is not None else {})}


HOT = ("releases", "release_texts", "release_texts_trgm_idx", "release_texts_words_idx", "releases_pkey",
       "release_texts_release_idx", "releases_newest_idx", "releases_release_key_excl", "posters", "posters_pkey",
       "search_counts", "search_counts_pkey")


def _prewarm(dsn: str, standby: bool = False) -> dict:
    """The catalog's hot relations into shared buffers, as on a running
    indexer (a replica's too: reading them writes nothing)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        if not standby:
            conn.execute("TRUNCATE voyager.search_totals")      # every run counts its totals afresh
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
        pages = sum(conn.execute("SELECT pg_prewarm(%s)", (f"voyager.{r}",)).fetchone()[0] for r in HOT)
        return {"shared_buffers": conn.execute("SHOW shared_buffers").fetchone()[0],
                "prewarmed_mb": round(pages * 8192 / 2**20)}


def _warm_gets(dsn: str, inputs: dict) -> int:
    """The chunks the run's `get`s read, read once on this server: a replica
    made for the run starts with none of them in its memory, where the
    primary has them from the catalog's build; the MB read."""
    guids = [bytes.fromhex(q.split("id=", 1)[1]) for q in inputs["get"]]
    with psycopg.connect(dsn, autocommit=True) as conn:
        n = conn.execute("SELECT coalesce(sum(length(s.chunk)), 0) FROM voyager.releases r "
                         "CROSS JOIN LATERAL voyager.nzb_source(r.id) s WHERE r.release_key = ANY(%s)",
                         (guids,)).fetchone()[0]
    return round(n / 2**20)


def _checkpoint(dsn: str) -> None:
    """The writes so far (a build, a warm-up) out to disk before the runs: a
    checkpointer writing them beside a run took seconds of the same cores
    (a standby's CHECKPOINT is its restartpoint)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CHECKPOINT")


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
        return parent(conn.info.backend_pid)


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


def _serve(dsn: str, args, replica_dsns: list[str] = ()) -> tuple[subprocess.Popen, int]:
    """`voyager web` on the catalog (reading from the replicas given), and its port."""
    port = free_port()
    env = dict(os.environ, VOYAGER_WEB_DSN=dsn, VOYAGER_WEB_COUNT_CACHE="0" if args.no_count_cache else "1",
               VOYAGER_WEB_REPLICAS=",".join(replica_dsns))
    server = subprocess.Popen([sys.executable, "-m", "voyager.cli", "web", "--host", "127.0.0.1", "--port", str(port),
                               "--workers", str(args.workers)], env=env, cwd=Path(__file__).resolve().parent.parent,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    return server, port


def _stop(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)


def _run(port: int, meters: Meters, inputs: dict, args, keys: list[str], log, out: dict, during=None) -> None:
    """The warm-up, the one-client figures (--service), then every kind with
    all the clients, into `out`; `during(started)`, when given, runs beside them."""
    async def drive():
        await run_kind(port, "warmup", [f"/api?{q}" for q in inputs["warmup"]], args.clients, keys)
        side = asyncio.get_running_loop().create_task(during(time.monotonic())) if during else None
        if args.service:
            out["one_client"] = {}
            for kind in args.kinds.split(","):
                paths = [f"/api?{q}" for q in inputs[kind][-args.service:]]
                out["one_client"][kind] = await run_kind(port, kind, paths, 1, keys, meters)
                log(f"{kind}, one client: {json.dumps(out['one_client'][kind])}")
        for kind in args.kinds.split(","):
            # (not the one client's: those are asked last)
            paths = [f"/api?{q}" for q in inputs[kind][:min(args.requests, len(inputs[kind]) - args.service)]]
            out["load_average_before"] = out.get("load_average_before") or _load_average()
            out["kinds"][kind] = await run_kind(port, kind, paths, args.clients, keys, meters)
            out["kinds"][kind]["target_p95_ms"] = TARGETS_MS.get(kind)
            log(f"{kind}: {json.dumps(out['kinds'][kind])}")
        if side is not None:
            await side

    asyncio.run(drive())
    out["load_average_after"] = _load_average()


def _cluster(log):
    """The project's cluster, what it and its replicas tell on starting and
    stopping going to `log` (stdout is the JSON)."""
    from voyager import db
    from voyager.config import Config

    return dataclasses.replace(db.cluster(Config.from_env()), log=log)


def _replicas(dsn: str, n: int, log, shared_buffers_mb: int | None = None) -> tuple[list, list]:
    """N replicas of the local cluster, caught up: the existing ones first,
    `benchK` made for the rest (with `shared_buffers_mb`); (all of them, the
    ones made here)."""
    from voyager import replicas
    from voyager.config import Config

    cfg = Config.from_env()
    if not cfg.local:
        raise SystemExit("--replicas: replicas are made of the project's own cluster (VOYAGER_DSN is set)")
    primary = _cluster(log)
    have = replicas.replicas(primary, cfg.home)[:n]
    made = []
    k = 1
    while len(have) + len(made) < n:
        name = f"bench{k}"
        k += 1
        if name not in {r.name for r in have}:
            made.append(replicas.add(primary, cfg.home, name, log=log, shared_buffers_mb=shared_buffers_mb))
    reps = have + made
    database = psycopg.conninfo.conninfo_to_dict(dsn)["dbname"]
    with psycopg.connect(dsn, autocommit=True) as conn:
        for rep in reps:
            rep.cluster.start()
            deadline = time.monotonic() + 600
            while True:
                try:
                    with psycopg.connect(rep.dsn(database), autocommit=True, connect_timeout=5) as rconn:
                        replicas.wait_replayed(conn, rconn, timeout=max(deadline - time.monotonic(), 1))
                    break
                except psycopg.OperationalError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(1)
    return reps, made


async def _kill_and_restart(rep, after: float, started: float, log, report: dict) -> None:
    """SIGKILL the replica's postmaster `after` seconds in, start it again 2 s later."""
    await asyncio.sleep(max(after - (time.monotonic() - started), 0))
    pid = rep.cluster.postmaster_pid()
    os.kill(pid, signal.SIGKILL)
    report.update(replica=rep.name, killed_at_s=round(time.monotonic() - started, 2))
    log(f"killed replica {rep.name} (postmaster {pid})")
    await asyncio.sleep(2)
    deadline = time.monotonic() + 60
    while True:
        try:
            await asyncio.to_thread(rep.cluster.start)
            break
        except Exception:                   # its old backends still hold the shared memory: a moment
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)
    report["started_again_at_s"] = round(time.monotonic() - started, 2)
    log(f"started replica {rep.name} again")


def _serving(rep, database: str, timeout: float = 30) -> bool:
    """The web's pool back on the replica: client connections to the catalog there."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with psycopg.connect(rep.dsn(database), autocommit=True, connect_timeout=2) as conn:
                if conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                "AND backend_type = 'client backend' AND pid <> pg_backend_pid()").fetchone()[0] >= 2:
                    return True
        except psycopg.OperationalError:
            pass
        time.sleep(0.5)
    return False


def main(argv: list[str] | None = None) -> int:
    from voyager.config import Config

    p = argparse.ArgumentParser(prog="voyager bench api", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--releases", type=int, default=1_000_000)
    arguments(p)
    p.add_argument("--rebuild", action="store_true", help="build the catalog again (after a schema change)")
    p.add_argument("--replicas", type=int, default=0, metavar="N",
                   help="then the same against a server reading from N replicas of the cluster")
    p.add_argument("--kill-replica", action="store_true",
                   help="with --replicas: SIGKILL a replica mid-run, start it again; the failed requests counted")
    p.add_argument("--keep-replicas", action="store_true", help="keep the replicas this run made")
    p.add_argument("--compare", type=int, default=0, metavar="N",
                   help="first the same on a catalog of N releases (its own, built once), then --releases; "
                        "both in one JSON with the ratios of their CPU per request and p95s")
    args = p.parse_args(argv)
    if args.kill_replica and not args.replicas:
        p.error("--kill-replica needs --replicas N")

    log = lambda m: print(m, file=sys.stderr)  # noqa: E731
    if args.rounds > 1 and (bool(args.compare) == bool(args.replicas) or args.service):
        p.error("--rounds R goes with either --compare M or --replicas N, and without --service")
    if args.compare == args.releases:
        p.error("--compare M needs another size than --releases")
    # the host's speed before and after: absolute figures of two sittings compare only beside it
    before = host_speed(Config.from_env().dsn)
    if args.compare and args.rounds > 1:
        out = compare_rounds(args, log)
    elif args.replicas and args.rounds > 1:
        out = replica_rounds(args, log)
    elif args.compare:
        # one sitting: the smaller catalog first, then the larger, the same requests' shapes
        sizes = {n: measure(argparse.Namespace(**{**vars(args), "releases": n}), log)
                 for n in (args.compare, args.releases)}
        out = {"sizes": {str(n): v for n, v in sizes.items()},
               "ratios": ratios(sizes[args.compare], sizes[args.releases])}
    else:
        out = measure(args, log)
    out["host_speed"] = {"before": before, "after": host_speed(Config.from_env().dsn)}
    print(json.dumps(out))
    return 0


def arguments(p: argparse.ArgumentParser) -> None:
    """The options of a measure (bench scale takes them too)."""
    p.add_argument("--seed", type=int, default=1,
                   help="the requests' draw, and the catalog's when it is built (one there of the size is kept)")
    p.add_argument("--clients", type=int, default=16)
    p.add_argument("--requests", type=int, default=2000, help="per kind")
    p.add_argument("--workers", type=int, default=0, help="server worker processes (0: voyager web's default)")
    p.add_argument("--kinds", default="search_word,search_popular,category_page,get")
    p.add_argument("--no-count-cache", action="store_true", help="the server counts every total afresh")
    p.add_argument("--service", type=int, default=0, metavar="N",
                   help="also N requests per kind from one client first (the service time, no queueing)")
    p.add_argument("--rounds", type=int, default=1, metavar="R",
                   help="with --compare (or --replicas): both catalogs (servers) served at once and each kind "
                        "run R times on each in turn; the rounds' medians, per kind the median of the rounds' ratios")
    p.add_argument("--statements", type=int, default=0, metavar="N",
                   help="also each request's statements alone, N different words or releases searched or "
                        "fetched five times over on one connection: their backend's CPU, warm")


def ratios(small: dict, large: dict) -> dict:
    """Per kind, the second run's CPU a request and p95 over the first's (the larger catalog's
    over the smaller's, the replicas' over one server's)."""
    out = {}
    for kind in large["kinds"]:
        a, b = small["kinds"].get(kind, {}), large["kinds"][kind]
        out[kind] = {f: round(b[f] / a[f], 2) for f in ("web_cpu_ms", "postgres_cpu_ms", "web_backends_cpu_ms", "p95_ms")
                     if a.get(f) and b.get(f)}
        if a.get("postgres_cpu_ms") and b.get("postgres_cpu_ms"):
            out[kind]["cpu_ms"] = round((b["web_cpu_ms"] + b["postgres_cpu_ms"])
                                        / (a["web_cpu_ms"] + a["postgres_cpu_ms"]), 2)
    return out


class _Side:
    """One catalog made ready and served: built (once), its users' keys, its
    hot relations in shared buffers, the run's requests drawn, a `voyager web`
    on it (stopped by `stack`), and the meters of its CPU."""

    def __init__(self, args, log, stack: contextlib.ExitStack):
        from voyager.config import Config
        from web.server import default_workers, pool_size

        cfg = Config.from_env()
        self.dsn = catalog.build(cfg.dsn, releases=args.releases, seed=args.seed, log=log, rebuild=args.rebuild)
        self.keys = _bench_keys(self.dsn, args.clients)
        warm = _prewarm(self.dsn)
        self.inputs = _inputs(self.dsn, args.requests, args.seed)
        warm["get_chunks_mb"] = _warm_gets(self.dsn, self.inputs)
        _checkpoint(self.dsn)
        workers = args.workers or default_workers()
        self.out: dict = {"releases": args.releases, "clients": args.clients, "server_workers": workers,
                          "pool_per_worker": int(os.environ.get("VOYAGER_WEB_POOL") or pool_size(workers)),
                          "cpus": os.cpu_count(), "count_cache": not args.no_count_cache, **warm, "kinds": {}}
        self.primary_pm = _postmaster(self.dsn)
        server, self.port = _serve(self.dsn, args)
        stack.callback(_stop, server)
        asyncio.run(_wait_up(self.port))
        monitor = stack.enter_context(psycopg.connect(self.dsn, autocommit=True))
        self.meters = Meters(server.pid, lambda: [self.primary_pm], monitor)

    def finish(self, args, log) -> None:
        """After its runs: each kind's statements alone (--statements), and the catalog's figures."""
        if args.statements:
            self.out["statements"] = statement_cpu(self.dsn, self.keys[0], args.statements, args.seed)
            log(f"{args.releases:,} releases, statements: {json.dumps(self.out['statements'])}")
        self.out["catalog"] = catalog_figures(self.dsn)


def measure(args, log) -> dict:
    """One catalog's figures (and its replicas' with --replicas)."""
    with contextlib.ExitStack() as stack:
        side = _Side(args, log, stack)
        _run(side.port, side.meters, side.inputs, args, side.keys, log, side.out)
    out = side.out
    if args.replicas:
        out["replicas"] = _replica_run(side, args, log, out)
    side.finish(args, log)
    return out


def compare_rounds(args, log) -> dict:
    """--compare M --rounds R: both catalogs made ready and served at once,
    then kind by kind R rounds, each M's requests then N's (new ones each
    round). The host's speed drifts by a fifth within an hour on a shared
    machine; a round's two halves run minutes apart, so their ratio does not
    see the drift that separates two sittings. Per catalog and kind, the
    median of the rounds' figures (the rounds beside them); per kind, the
    median of the rounds' ratios."""
    sizes = (args.compare, args.releases)
    kinds = args.kinds.split(",")
    each = {n: argparse.Namespace(**{**vars(args), "releases": n, "requests": args.requests * args.rounds})
            for n in sizes}
    with contextlib.ExitStack() as stack:
        sides = {n: _Side(each[n], log, stack) for n in sizes}

        async def drive():
            for side in sides.values():
                await run_kind(side.port, "warmup", [f"/api?{q}" for q in side.inputs["warmup"]], args.clients,
                               side.keys)
            for kind in kinds:
                for r in range(args.rounds):
                    for n, side in sides.items():
                        qs = side.inputs[kind][r * args.requests:(r + 1) * args.requests]
                        got = await run_kind(side.port, kind, [f"/api?{q}" for q in qs], args.clients, side.keys,
                                             side.meters)
                        side.out["kinds"].setdefault(kind, {"rounds": []})["rounds"].append(got)
                        log(f"{n:,} releases, {kind}, round {r + 1}: {json.dumps(got)}")

        asyncio.run(drive())
    for side in sides.values():
        for kind, fig in side.out["kinds"].items():
            fig.update(medians(fig["rounds"]), target_p95_ms=TARGETS_MS.get(kind))
    small, large = (sides[n].out for n in sizes)
    by_round = {kind: paired_ratios(kind, small["kinds"][kind]["rounds"], large["kinds"][kind]["rounds"])
                for kind in kinds}
    for n, side in sides.items():
        side.finish(each[n], log)
    return {"sizes": {str(n): sides[n].out for n in sizes}, "rounds": args.rounds,
            "ratios": {kind: medians(rs) for kind, rs in by_round.items()}, "ratios_by_round": by_round}


def paired_ratios(kind: str, small: list[dict], large: list[dict]) -> list[dict]:
    """Each round's ratios, the larger catalog's figures over the smaller's of the same round."""
    return [ratios({"kinds": {kind: a}}, {"kinds": {kind: b}})[kind] for a, b in zip(small, large)]


def medians(figures: list[dict]) -> dict:
    """The median of each number the figures share; the requests and the
    failed ones summed (one failure in any round counts)."""
    keys = [k for k, v in figures[0].items() if isinstance(v, (int, float)) and not isinstance(v, bool)
            and all(isinstance(f.get(k), (int, float)) for f in figures)]
    return {k: sum(f[k] for f in figures) if k in ("requests", "errors")
            else round(statistics.median(f[k] for f in figures), 2) for k in keys}


def statement_cpu(dsn: str, key: str, n: int, seed: int, passes: int = 5) -> dict:
    """Where a request's database CPU goes, without the web and the queue:
    the statements each kind runs (web/search.py's and web/api.py's own), n
    words or 100-file releases at a time, on one connection set up as the
    web's; the backend's CPU milliseconds a statement, the median pass. The
    first pass reads what the catalog's first searches of the words read;
    the later ones find it in the CPU's caches: the bench's kinds, a new word
    each request, sit between the two."""
    from bench.cpu import backend_cpu
    from web import api as web_api
    from web.config import WebConfig
    from web.search import Query, search_sql
    from web.tally import COUNTED

    rng = random.Random(seed + 1)
    words = rng.sample([w.lower() for w in catalog.title_vocabulary()], n)
    with psycopg.connect(dsn, autocommit=True, prepare_threshold=5,
                         options=WebConfig.from_env().session_options()) as conn:
        guids = [r[0] for r in conn.execute(
            "SELECT release_key FROM voyager.releases WHERE files = 100 ORDER BY random() LIMIT %s", (n,))]
        kinds = {
            "api_use": (lambda i: conn.execute(web_api.USE_REQUEST, {"key": key, **COUNTED}).fetchone()),
            "search_word": (lambda i: conn.execute(*search_sql(Query(words=(words[i],)), 100, 0, feed=True),
                                                   binary=True).fetchall()),
            "category_page": (lambda i: conn.execute(*search_sql(Query(), 100, 0, feed=True),
                                                     binary=True).fetchall()),
            "get": (lambda i: conn.execute(web_api.USE["guid"], {"key": key, **COUNTED, "arg": guids[i % len(guids)]},
                                           binary=True).fetchall()),
        }
        if not guids:                       # (a catalog too small for a 100-file release)
            del kinds["get"]
        out = {}
        for kind, run in kinds.items():
            ms = []
            for _ in range(passes):
                before = backend_cpu(conn)
                for i in range(n):
                    run(i)
                ms.append((backend_cpu(conn) - before) * 1000 / n)
            out[kind] = {"first_pass_ms": round(ms[0], 3), "median_ms": round(sorted(ms)[passes // 2], 3)}
    return out


def catalog_figures(dsn: str) -> dict:
    """The catalog's size: what the hot bytes per release are made of."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        hot, chunks, n = conn.execute(
            """SELECT sum(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname NOT LIKE 'release_chunks%%'),
                      sum(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname LIKE 'release_chunks%%'),
                      (SELECT count(*) FROM voyager.releases)
                 FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
                WHERE s.nspname = 'voyager' AND c.relkind IN ('r', 'p', 'm')""").fetchone()
        # each hot table and index alone: the heaps grow with the releases, an inverted
        # index's posting lists pack tighter as they grow
        parts = conn.execute(
            """SELECT c.relname, pg_relation_size(c.oid) FROM pg_class c
                 JOIN pg_namespace s ON s.oid = c.relnamespace
                WHERE s.nspname = 'voyager' AND c.relkind IN ('r', 'i') AND c.relname NOT LIKE 'release_chunks%%'
                  AND pg_relation_size(c.oid) > %s ORDER BY 2 DESC""", (int(hot or 0) // 100,)).fetchall()
    return {"releases": n, "hot_bytes": int(hot or 0), "chunk_bytes": int(chunks or 0),
            "hot_bytes_per_release": round(float(hot or 0) / max(n, 1), 1),
            "bytes_per_release_by_relation": {name: round(size / max(n, 1), 1) for name, size in parts}}


class _Replicas:
    """--replicas N of a side's catalog, caught up and warm, and a `voyager
    web` reading from them (stopped, and the replicas this run made removed,
    by `stack`), with the meters of its CPU and the primary's and theirs."""

    def __init__(self, side: "_Side", args, log, stack: contextlib.ExitStack):
        from voyager import huge_pages, replicas as replica_mod
        from voyager.config import Config

        self.side, self.log = side, log
        # a pool each for what the run reads (the hot relations, the gets' chunks), half again
        # over it: on this one machine the replicas' pools and the primary's fit in huge pages
        # together, as each server's would on a host of its own (in ordinary pages a backend
        # misses the TLB at every buffer it reads)
        need = (side.out["prewarmed_mb"] + side.out["get_chunks_mb"]) * 3 // 2
        pool_mb = max(1024, -(-need // 256) * 256)
        self.reps, made = _replicas(side.dsn, args.replicas, log, shared_buffers_mb=pool_mb)
        if not args.keep_replicas:
            for rep in made:
                stack.callback(replica_mod.remove, _cluster(log), Config.from_env().home, rep.name, log=log)
        self.database = psycopg.conninfo.conninfo_to_dict(side.dsn)["dbname"]
        self.out: dict = {"count": len(self.reps), "names": [r.name for r in self.reps],
                          "made": [r.name for r in made], "kinds": {},
                          "shared_buffers_mb_made": pool_mb,
                          "huge_pages_mb": [huge_pages.in_use_mb(r.cluster.postmaster_pid()) for r in self.reps]}
        _prewarm(side.dsn)                                     # the shared totals emptied again
        for rep in self.reps:
            self.out.setdefault("prewarmed_mb", []).append(self.warm(rep))
        for dsn in [side.dsn] + [r.dsn(self.database) for r in self.reps]:
            _checkpoint(dsn)
        self.server, self.port = _serve(side.dsn, args, [r.dsn(self.database) for r in self.reps])
        self.logged: str | None = None
        stack.callback(self.stop)
        asyncio.run(_wait_up(self.port))
        self.meters = Meters(self.server.pid, lambda: [side.primary_pm] + [r.cluster.postmaster_pid() for r in self.reps])

    def warm(self, rep) -> float:
        mb = _prewarm(rep.dsn(self.database), standby=True)["prewarmed_mb"]
        _warm_gets(rep.dsn(self.database), self.side.inputs)
        return mb

    def kill(self, after: float, report: dict):
        """A coroutine of `started`: the first replica SIGKILLed `after` seconds in, started again 2 s later."""
        return lambda started: _kill_and_restart(self.reps[0], after, started, self.log, report)

    def back(self, report: dict) -> None:
        """After a kill: the web reading from the replica again."""
        report["read_from_again"] = _serving(self.reps[0], self.database)

    def stop(self) -> str:
        """The server stopped (once), and what it logged."""
        if self.logged is None:
            _stop(self.server)
            self.logged = self.server.stderr.read().decode(errors="replace")
        return self.logged

    def said(self) -> list[str]:
        """What the web said of the killed replica: down, then up again."""
        mark = f"replica {self.reps[0].cluster.host}:{self.reps[0].cluster.port}/"
        return [line.split("web: ", 1)[-1][:160] for line in self.stop().splitlines() if mark in line][:12]


def _replica_run(side: "_Side", args, log, one: dict) -> dict:
    """The same requests against a server reading from --replicas replicas."""
    with contextlib.ExitStack() as stack:
        reps = _Replicas(side, args, log, stack)
        kill: dict = {}
        # a third of the way into the run, as long as one server's took
        wall = sum(k["requests"] / max(k["requests_per_second"], 1) for k in one["kinds"].values())
        _run(reps.port, reps.meters, side.inputs, args, side.keys, log, reps.out,
             reps.kill(wall / 3, kill) if args.kill_replica else None)
        if args.kill_replica:
            reps.back(kill)
            kill["web_log"] = reps.said()
            reps.out["kill"] = kill
    out = reps.out
    out["failed_requests"] = sum(k["errors"] for k in out["kinds"].values())
    out["p95_ratio"] = {k: r["p95_ms"] for k, r in ratios(one, out).items() if "p95_ms" in r}
    return out


def replica_rounds(args, log) -> dict:
    """--replicas N --rounds R: a server reading the primary alone and one
    reading the replicas, served at once; kind by kind R rounds, each the one
    server's requests then the replicas' (other requests of the same draw),
    with --kill-replica a replica SIGKILLed a third of the way into every
    replicas' round and started again 2 s later (read from and warm again
    before the next round: each round the same trial). The host's drift
    between two sittings is larger than what is measured; a round's two
    halves run seconds apart. Per server and kind the rounds' medians, every
    failed request counted; per kind the p95 ratio the median of the rounds'."""
    kinds = args.kinds.split(",")
    wide = argparse.Namespace(**{**vars(args), "requests": args.requests * args.rounds * 2})
    kills: list[dict] = []
    with contextlib.ExitStack() as stack:
        side = _Side(wide, log, stack)
        reps = _Replicas(side, wide, log, stack)
        servers = (("one", side.port, side.meters, side.out), ("replicas", reps.port, reps.meters, reps.out))

        async def drive():
            for _name, port, _m, _o in servers:
                await run_kind(port, "warmup", [f"/api?{q}" for q in side.inputs["warmup"]], args.clients, side.keys)
            for kind in kinds:
                for r in range(args.rounds):
                    for who, (name, port, meters, out) in enumerate(servers):
                        at = (2 * r + who) * args.requests
                        paths = [f"/api?{q}" for q in side.inputs[kind][at:at + args.requests]]
                        task = None
                        if name == "replicas" and args.kill_replica:
                            kills.append({"kind": kind, "round": r + 1})
                            before = side.out["kinds"][kind]["rounds"][-1]
                            after = args.requests / max(before["requests_per_second"], 1) / 3
                            task = asyncio.get_running_loop().create_task(reps.kill(after, kills[-1])(time.monotonic()))
                        got = await run_kind(port, kind, paths, args.clients, side.keys, meters)
                        if task is not None:
                            await task
                            await asyncio.to_thread(reps.back, kills[-1])
                            await asyncio.to_thread(reps.warm, reps.reps[0])
                        out["kinds"].setdefault(kind, {"rounds": []})["rounds"].append(got)
                        log(f"{name}, {kind}, round {r + 1}: {json.dumps(got)}")

        asyncio.run(drive())
        said = reps.said() if args.kill_replica else None
    for out in (side.out, reps.out):
        for kind, fig in out["kinds"].items():
            fig.update(medians(fig["rounds"]), target_p95_ms=TARGETS_MS.get(kind))
    by_round = {kind: paired_ratios(kind, side.out["kinds"][kind]["rounds"], reps.out["kinds"][kind]["rounds"])
                for kind in kinds}
    reps.out.update(failed_requests=sum(k["errors"] for k in reps.out["kinds"].values()), rounds=args.rounds,
                    p95_ratio={k: medians(v).get("p95_ms") for k, v in by_round.items()},
                    ratios_by_round=by_round)
    if args.kill_replica:
        reps.out["kill"] = {"kills": kills, "web_log": said}
    side.out["replicas"] = reps.out
    side.finish(args, log)
    return side.out

if __name__ == "__main__":
    sys.exit(main())
