"""`voyager capacity`: what a target catalog needs, projected from the live
catalog's own measured ratios.

The ratios: hot bytes per indexed header, chunk bytes per segment, segments
and releases per header (voyager.catalog_sizes(): the hot tables and every
chunk partition on disk, the headers the range batches stored). The CPU
figures: the store's database CPU and the worker's CPU per million headers,
the API's CPU per request, each from the last run of its benchmark kept under
$VOYAGER_HOME/bench (`voyager bench store|e2e|window|api` keep their last
output there), else measured here and said so: the database's CPU of a few
word searches and category pages on the live catalog (when the server runs on
this machine: a backend's CPU is read from /proc), and with --measure the
store and the window over a small generated corpus (a scratch database on the
same server, dropped after). Every projection is linear in the headers.
"""
from __future__ import annotations

import argparse
import datetime as dt
import ipaddress
import json
import math
import os
import sys
import tempfile
from pathlib import Path

import psycopg

from .cluster import MEMORY_PER_SHARED_BUFFER
from .config import Config

# the target the issue sets: 1,000 groups, ~7,000 days, ~528 billion overview lines
TARGET = {"groups": 1000, "headers": 528e9, "days": 7000}
LINES_PER_CONNECTION = 30_000    # a real provider connection's overview lines a second (README, "The worker")
SEARCHES = 40                    # word searches (and as many category pages) a measurement runs


def pool_size(db_cores: int) -> int:
    """pgbouncer's server connections: two a database core keep the cores busy
    while a statement waits on the disk or the network; more only timeshare them."""
    return max(4, 2 * db_cores)


# -- the benchmarks' last outputs ---------------------------------------------------------------

def bench_file(cfg: Config, name: str) -> Path:
    return cfg.home / "bench" / f"last-{name}.json"


def record_bench(cfg: Config, name: str, line: str) -> Path | None:
    """A benchmark's JSON line kept as its last output (`voyager bench NAME`)."""
    try:
        out = json.loads(line)
    except ValueError:
        return None
    if not isinstance(out, dict):
        return None
    path = bench_file(cfg, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"bench": name, "recorded_at": dt.datetime.now(dt.timezone.utc).isoformat(
        timespec="seconds"), "output": out}))
    os.replace(tmp, path)
    return path


def last_bench(cfg: Config, name: str) -> dict | None:
    try:
        return json.loads(bench_file(cfg, name).read_text())
    except (OSError, ValueError):
        return None


def _from_bench(rec: dict, name: str, value, note: str = "") -> dict:
    return {"value": value, "source": f"voyager bench {name}, {rec['recorded_at']}" + (f" ({note})" if note else "")}


# -- the live catalog ---------------------------------------------------------------------------

def catalog_ratios(conn: psycopg.Connection) -> dict:
    """The catalog's sizes and its ratios per indexed header (voyager.catalog_sizes())."""
    releases, segments, headers, hot, chunks = conn.execute(
        "SELECT releases, segments, headers, hot_bytes, chunk_bytes FROM voyager.catalog_sizes()").fetchone()
    groups = conn.execute("SELECT count(*) FROM voyager.groups WHERE active").fetchone()[0]
    per = (lambda n: n / headers) if headers else (lambda n: None)
    return {
        "groups": groups, "headers": int(headers), "releases": int(releases), "segments": int(segments),
        "hot_bytes": int(hot), "chunk_bytes": int(chunks),
        "hot_bytes_per_header": per(hot), "chunk_bytes_per_header": per(chunks),
        "chunk_bytes_per_segment": chunks / segments if segments else None,
        "segments_per_header": per(segments), "releases_per_header": per(releases),
    }


def _local_server(conn: psycopg.Connection) -> bool:
    """Whether the server's backends are processes of this machine (their CPU in /proc)."""
    host = conn.info.host or ""
    if host.startswith("/") or host == "localhost":
        return True
    try:
        return ipaddress.ip_address(conn.info.hostaddr or host).is_loopback
    except ValueError:
        return False


def measure_api(conn: psycopg.Connection, n: int = SEARCHES) -> dict | None:
    """The database's CPU of word searches and category pages (web/search.py's
    one statement) on the live catalog, per request in ms; None when the server
    is not on this machine or the catalog has no words to search."""
    from bench.cpu import backend_cpu
    from web.search import Query, search_sql, split_words

    if not _local_server(conn):
        return None
    words: list[str] = []
    for (name,) in conn.execute("SELECT name FROM voyager.releases ORDER BY id DESC LIMIT %s", (n * 5,)):
        words += [w for w in split_words(name)[0] if len(w) >= 4 and not w.isdigit() and w not in words]
    if not words:
        return None
    out = {}
    for kind, queries in (("search_word", [Query(words=(w,)) for w in (words * n)[:n]]),
                          ("category_page", [Query()] * n)):
        before = backend_cpu(conn)
        for q in queries:
            sql, params = search_sql(q, 100, 0)
            conn.execute(sql, params).fetchall()
        after = backend_cpu(conn)
        if before is None or after is None:
            return None
        out[kind] = {"web_ms": None, "database_ms": (after - before) * 1000 / len(queries),
                     "source": f"measured: {len(queries)} requests' database CPU on the live catalog "
                               "(the web's not measured: voyager bench api)"}
    return out


def measure_store(dsn: str, lines: int = 100_000) -> dict:
    """The store's database CPU and the window's CPU per million headers over a
    small generated corpus: the window once over its biggest group, the corpus
    replayed into voyager_capacity_scratch on the same server (dropped after)."""
    from bench.cpu import backend_cpu
    from bench.window import bench_window
    from sim.generate import Options, generate
    from workers.replay import replay_into_db

    from .db import drop_database, fresh_database

    with tempfile.TemporaryDirectory(prefix="voyager-capacity-") as tmp:
        root = Path(tmp) / "corpus"
        generate(Options(out=root, seed=5, groups=2, lines=lines, days=2, bodies=False))
        window = bench_window(str(root), repeat=1)
        scratch = fresh_database(dsn, "voyager_capacity_scratch")
        try:
            with psycopg.connect(scratch, autocommit=True) as conn:
                before = backend_cpu(conn)
                done = replay_into_db(conn, root)
                after = backend_cpu(conn)
        finally:
            drop_database(dsn, "voyager_capacity_scratch")
    note = f"measured: {done['headers']:,} generated headers"
    return {
        "store": {"value": (after - before) / done["headers"] * 1e6 if before is not None and after is not None
                  and done["headers"] else None, "source": note + ", replayed into a scratch database"},
        "worker": {"value": 1e6 / window["headers_per_cpu_second_with_lease_end"],
                   "source": note + ", the window alone (the fetch and the store's client add ~15%: "
                                    "voyager bench e2e)"},
    }


def cpu_figures(cfg: Config, conn: psycopg.Connection, dsn: str, measure: bool) -> dict:
    """Each CPU figure with where it came from (the last benchmark, else measured here)."""
    out: dict = {}
    store, e2e, window, api = (last_bench(cfg, n) for n in ("store", "e2e", "window", "api"))
    if store:
        out["store_cpu_seconds_per_million_headers"] = _from_bench(
            store, "store", store["output"]["postgres_cpu_seconds_per_million_headers"],
            f"into a catalog of {store['output']['into']} releases" if store["output"].get("into") else "")
    if e2e and e2e["output"].get("headers"):
        parts = e2e["output"]["cpu_seconds"]
        worker = sum(parts.get(k) or 0 for k in ("window", "inflate", "store", "worker_other", "fetch"))
        out["worker_cpu_seconds_per_million_headers"] = _from_bench(
            e2e, "e2e", worker / e2e["output"]["headers"] * 1e6, "window, inflate, fetch and the store's client")
        if "store_cpu_seconds_per_million_headers" not in out and parts.get("postgres"):
            out["store_cpu_seconds_per_million_headers"] = _from_bench(
                e2e, "e2e", parts["postgres"] / e2e["output"]["headers"] * 1e6, "every PostgreSQL process")
    elif window and window["output"].get("headers_per_cpu_second_with_lease_end"):
        out["worker_cpu_seconds_per_million_headers"] = _from_bench(
            window, "window", 1e6 / window["output"]["headers_per_cpu_second_with_lease_end"], "the window alone")
    missing = [k for k in ("store_cpu_seconds_per_million_headers", "worker_cpu_seconds_per_million_headers")
               if k not in out]
    if missing and measure:
        got = measure_store(dsn)
        out.setdefault("store_cpu_seconds_per_million_headers", got["store"])
        out.setdefault("worker_cpu_seconds_per_million_headers", got["worker"])
    for k in missing:
        out.setdefault(k, {"value": None, "source": "not measured: voyager bench store / voyager bench e2e, "
                                                    "or voyager capacity --measure"})
    if api:
        run = api["output"]
        if isinstance(run.get("sizes"), dict) and run["sizes"]:        # a --compare run: its larger catalog's
            run = run["sizes"][max(run["sizes"], key=int)]
        out["api_cpu_ms_per_request"] = {
            kind: {"web_ms": r.get("web_cpu_ms"), "database_ms": r.get("postgres_cpu_ms"),
                   "source": f"voyager bench api, {api['recorded_at']} ({run.get('releases')} releases)"}
            for kind, r in run.get("kinds", {}).items()}
    else:
        out["api_cpu_ms_per_request"] = measure_api(conn) or {}
    return out


# -- the projection -----------------------------------------------------------------------------

def project(ratios: dict, cpu: dict, *, groups: int, headers: float, days: float, connections: int,
            rate: float | None = None, lines_per_connection: float = LINES_PER_CONNECTION,
            api_rate: float = 50.0) -> dict:
    """What the target needs, each figure the measured ratio times the target.
    rate: the headers a second to size the backfill's cores for (default what
    `connections` fetch); the tail's rate is the target's headers over its days."""
    def times(ratio, n):
        return None if ratio is None or n is None else ratio * n

    store = cpu["store_cpu_seconds_per_million_headers"]["value"]
    worker = cpu["worker_cpu_seconds_per_million_headers"]["value"]
    backfill_rate = connections * lines_per_connection
    rate = rate or backfill_rate
    tail_rate = headers / (days * 86400)
    hot = times(ratios["hot_bytes_per_header"], headers)
    chunks = times(ratios["chunk_bytes_per_header"], headers)
    api = cpu["api_cpu_ms_per_request"].get("search_word") or {}
    api_db = times(api.get("database_ms"), api_rate / 1000)
    db_cores = times(store, rate / 1e6)
    seconds = headers / backfill_rate
    return {
        "releases": times(ratios["releases_per_header"], headers),
        "segments": times(ratios["segments_per_header"], headers),
        "disk": {"hot_bytes": hot, "chunk_bytes": chunks,
                 "hot_gb": times(hot, 2**-30), "chunk_gb": times(chunks, 2**-30),
                 "total_gb": None if hot is None or chunks is None else (hot + chunks) / 2**30},
        "backfill": {"connections": connections, "lines_per_connection": lines_per_connection,
                     "headers_per_second": backfill_rate, "seconds": seconds, "days": seconds / 86400},
        "at_rate": {"headers_per_second": rate,
                    "nntp_connections": rate / lines_per_connection,
                    "database_cores": db_cores,
                    "worker_cores": times(worker, rate / 1e6)},
        "tail": {"headers_per_second": tail_rate, "headers_per_group_per_second": tail_rate / groups,
                 "database_cores": times(store, tail_rate / 1e6), "worker_cores": times(worker, tail_rate / 1e6),
                 "nntp_connections": tail_rate / lines_per_connection},
        "api": {"requests_per_second": api_rate, "database_cores": api_db,
                "web_cores": times(api.get("web_ms"), api_rate / 1000)},
        "settings": {
            # two connections a core that does work: the store at the rate and the API beside it
            "pgbouncer_default_pool_size": pool_size(max(1, math.ceil((db_cores or 0) + (api_db or 0)))),
            "worker_processes_at_most": groups,      # one lane process holds one group at a time
            # the hot set in Postgres's own cache (a miss with the pool full costs a sweep of
            # it), the pool a quarter of the host's memory as `voyager db up` sizes it
            "shared_buffers_gb": times(hot, 2**-30),
            "database_memory_gb": times(hot, MEMORY_PER_SHARED_BUFFER * 2**-30),
        },
    }


def report(conn: psycopg.Connection, cfg: Config, dsn: str, *, groups: int = TARGET["groups"],
           headers: float = TARGET["headers"], days: float = TARGET["days"], connections: int | None = None,
           rate: float | None = None, lines_per_connection: float = LINES_PER_CONNECTION,
           api_rate: float = 50.0, measure: bool = False) -> dict:
    ratios = catalog_ratios(conn)
    cpu = cpu_figures(cfg, conn, dsn, measure)
    connections = connections or int(os.environ.get("VOYAGER_NNTP_CONNECTIONS") or 50)
    return {
        "target": {"groups": groups, "headers": headers, "days": days, "connections": connections},
        "measured": {"catalog": ratios, "cpu": cpu},
        "needs": project(ratios, cpu, groups=groups, headers=headers, days=days, connections=connections,
                         rate=rate, lines_per_connection=lines_per_connection, api_rate=api_rate),
    }


def main(argv: list[str], cfg: Config) -> int:
    p = argparse.ArgumentParser(prog="voyager capacity", description=__doc__.split("\n\n")[0])
    p.add_argument("--groups", type=int, default=TARGET["groups"])
    p.add_argument("--headers", type=float, default=TARGET["headers"], help="overview lines over the retention")
    p.add_argument("--days", type=float, default=TARGET["days"], help="the retention the headers span")
    p.add_argument("--connections", type=int, help="NNTP connections of the backfill (default "
                   "VOYAGER_NNTP_CONNECTIONS, else 50)")
    p.add_argument("--rate", type=float, help="headers a second to size the cores for (default what "
                   "--connections fetch)")
    p.add_argument("--lines-per-connection", type=float, default=LINES_PER_CONNECTION,
                   help="a provider connection's overview lines a second")
    p.add_argument("--api-rate", type=float, default=50.0, help="API requests a second")
    p.add_argument("--measure", action="store_true", help="measure the store's and the window's CPU on a small "
                   "generated corpus when no benchmark has run (a scratch database on the same server)")
    p.add_argument("--dsn", help="the catalog (default VOYAGER_DSN, else the local cluster)")
    a = p.parse_args(argv)
    dsn = a.dsn or cfg.dsn
    with psycopg.connect(dsn, autocommit=True, prepare_threshold=None) as conn:
        out = report(conn, cfg, dsn, groups=a.groups, headers=a.headers, days=a.days, connections=a.connections,
                     rate=a.rate, lines_per_connection=a.lines_per_connection, api_rate=a.api_rate,
                     measure=a.measure)
    print(json.dumps(out, default=float))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], Config.from_env()))
