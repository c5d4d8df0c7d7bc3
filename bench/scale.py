"""`voyager bench scale --releases N --compare M`: the costs that must grow
slowly, on two shared generated catalogs (bench.catalog) in one sitting, as
one JSON document.

On each catalog, the smaller first: the API bench (bench.api's measure), the
store replaying --corpus into it under groups of its own (bench.store
--into), the judge (bench.judge) and the merges job (bench.phase2); each
leaves the catalog as it found it (bench.catalog.as_found: a table it grew
past 2% is rewritten). Then the larger's figures over the smaller's and the
issue's bars: database CPU per search and per category page <= 1.3x (the
web's own backends where measured), a word search <= 3.5 ms and a get
<= 2 ms of CPU in all at the larger size, hot
bytes per release within 5% either way, the store's CPU per million headers
<= 1.1x; the judge (<= 50 ms CPU per thousand dirty, a daily pass
<= 60 s at a million releases) and the merges (no run over 10 s, <= 0.1
CPU-s per thousand probed) within their bars at each size. Without
--compare, one catalog's figures. Each catalog's database size is sampled
through its run: the peak is quoted. With --rounds K the API part of both
catalogs runs first, in paired rounds (bench.api's compare_rounds), and the
API's ratios are the medians of the rounds' own.
"""
from __future__ import annotations

import argparse
import json
import sys
import threading
import time

import psycopg

from bench import api, catalog, judge, phase2, store
from voyager.config import Config

PARTS = ("api", "store", "judge", "merges")
SEARCH_KINDS = ("search_word", "search_popular", "category_page")
API_CPU_RATIO = 1.3          # database CPU per search and per category page, N over M
HOT_BYTES_DRIFT = 0.05       # hot bytes per release, either way
STORE_CPU_RATIO = 1.10       # the store's CPU per million headers, N over M
API_CPU_MS = {"search_word": 3.5, "get": 2.0}     # CPU ms a request, web and database, at the larger size


class PeakSize:
    """The database's size, sampled every few seconds while a catalog is measured."""

    def __init__(self, dsn: str, every: float = 5.0):
        self.dsn, self.every, self.peak = dsn, every, 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            while True:
                self.peak = max(self.peak, conn.execute("SELECT pg_database_size(current_database())").fetchone()[0])
                if self.stop.wait(self.every):
                    break

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def measure(n: int, a, log, api_figures: dict | None = None) -> dict:
    """One catalog's figures, its parts in order (the API's given when both
    catalogs' were measured in paired rounds)."""
    t0 = time.monotonic()
    dsn = catalog.build(Config.from_env().dsn, releases=n, seed=a.seed, log=log)
    out: dict = {"releases": n, "catalog_seconds": round(time.monotonic() - t0, 1)}
    with psycopg.connect(dsn, autocommit=True) as conn:
        out["database_bytes"] = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
    with PeakSize(dsn) as size:
        if "api" in a.parts:
            if api_figures is None:
                api_figures = api.measure(argparse.Namespace(**{**vars(a), "releases": n, "rebuild": False,
                                                                "replicas": 0}), log)
                log(f"bench scale: {n:,} api done")
            out["api"] = api_figures
        if "store" in a.parts:
            out["store"] = store.measure_into(a.corpus, dsn, a.store_repeat)
            log(f"bench scale: {n:,} store {json.dumps(out['store'])}")
        if "judge" in a.parts:
            out["judge"] = judge.measure(dsn, a, log)
        if "merges" in a.parts:
            out["merges"] = phase2.measure(dsn, argparse.Namespace(probed=a.probed, upload=a.upload,
                                                                   shape="obfuscated"))
            log(f"bench scale: {n:,} merges {json.dumps(out['merges'])}")
    out["peak_database_bytes"] = size.peak
    out["catalog"] = api.catalog_figures(dsn)
    out["left_as_found"] = left_as_found(dsn)
    return out


def left_as_found(dsn: str) -> dict:
    """What the benches must leave clean (the tests compare every table's rows too)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        return {"check_catalog": int(conn.execute("SELECT coalesce(sum(rows), 0) FROM voyager.check_catalog()")
                                     .fetchone()[0]),
                "search_counts_off": conn.execute("SELECT count(*) FROM voyager.check_search_counts()").fetchone()[0],
                "planted_tables": [t for t, in conn.execute(
                    """SELECT c.relname FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
                        WHERE c.relname IN ('bench_judge', 'bench_phase2') AND s.nspname IN ('public', 'voyager')""")]}


def _ratio(b, a) -> float | None:
    return round(b / a, 3) if a and b is not None else None


def verdicts(sizes: dict, small: int | None, large: int, api_ratios: dict | None = None) -> tuple[dict, dict]:
    """(the larger's figures over the smaller's, whether each bar holds);
    `api_ratios` the paired rounds' when the API was measured in them."""
    ratios: dict = {}
    holds: dict = {}
    big = sizes[large]
    if small is not None:
        lo = sizes[small]
        ratios["hot_bytes_per_release"] = _ratio(big["catalog"]["hot_bytes_per_release"],
                                                 lo["catalog"]["hot_bytes_per_release"])
        holds["hot_bytes_per_release"] = abs(ratios["hot_bytes_per_release"] - 1) <= HOT_BYTES_DRIFT
        if "api" in big and "api" in lo:
            ratios["api"] = api_ratios or api.ratios(lo["api"], big["api"])
            for kind in SEARCH_KINDS:
                # the web's own backends where measured: the whole server's moves with other work on it
                r = (ratios["api"].get(kind, {}).get("web_backends_cpu_ms")
                     or ratios["api"].get(kind, {}).get("postgres_cpu_ms"))
                if kind in big["api"]["kinds"]:
                    holds[f"api_{kind}_postgres_cpu"] = r is not None and r <= API_CPU_RATIO
        if "store" in big and "store" in lo:
            for f in ("postgres_cpu_seconds_per_million_headers", "backend_cpu_seconds_per_million_headers"):
                ratios[f"store_{f}"] = _ratio(big["store"][f], lo["store"][f])
            r = ratios["store_postgres_cpu_seconds_per_million_headers"]
            holds["store_cpu_per_million_headers"] = r is not None and r <= STORE_CPU_RATIO
        if "judge" in big and "judge" in lo:
            for f in ("dirty_cpu_ms_per_1000", "daily_s_at_1m"):
                ratios[f"judge_{f}"] = _ratio(big["judge"][f], lo["judge"][f])
        if "merges" in big and "merges" in lo:
            for f in ("db_cpu_s_per_1000_probed", "max_run_seconds"):
                ratios[f"merges_{f}"] = _ratio(big["merges"][f], lo["merges"][f])
    # a word search's and a get's CPU in all (web and database) at the larger size
    kinds = big.get("api", {}).get("kinds", {})
    for kind, bar in API_CPU_MS.items():
        k = kinds.get(kind)
        if k and k.get("web_cpu_ms") is not None:
            db = k.get("web_backends_cpu_ms", k.get("postgres_cpu_ms"))
            holds[f"api_{kind}_cpu_ms"] = db is not None and k["web_cpu_ms"] + db <= bar
    # the judge's and the merges' bars hold at every size
    for n, figures in sizes.items():
        if "judge" in figures:
            holds[f"judge_{n}"] = figures["judge"]["holds"]
        if "merges" in figures:
            m = figures["merges"]
            holds[f"merges_{n}"] = {"max_run_seconds": m["max_run_seconds"] <= m["bars"]["max_run_seconds"],
                                    "db_cpu_s_per_1000_probed": m["db_cpu_s_per_1000_probed"] is not None
                                    and m["db_cpu_s_per_1000_probed"] <= m["bars"]["db_cpu_s_per_1000_probed"]}
        holds[f"left_as_found_{n}"] = (figures["left_as_found"]["check_catalog"] == 0
                                       and figures["left_as_found"]["search_counts_off"] == 0
                                       and not figures["left_as_found"]["planted_tables"])
    return ratios, holds


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="voyager bench scale", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--releases", type=int, default=10_000_000)
    p.add_argument("--compare", type=int, default=0, metavar="M", help="first the same on the catalog of M releases")
    p.add_argument("--parts", default=",".join(PARTS), help="of " + ",".join(PARTS))
    p.add_argument("--corpus", help="the corpus the store replays (needed with the store part)")
    p.add_argument("--store-repeat", type=int, default=3, help="store passes (the least CPU quoted)")
    p.add_argument("--probed", type=int, default=100_000, help="merges: releases with a new probe result")
    p.add_argument("--upload", type=int, default=10, help="merges: releases an upload was posted as")
    api.arguments(p)
    judge.arguments(p)
    a = p.parse_args(argv)
    a.parts = [x for x in a.parts.split(",") if x]
    if set(a.parts) - set(PARTS):
        p.error(f"--parts: of {', '.join(PARTS)}")
    if "store" in a.parts and not a.corpus:
        p.error("the store part needs --corpus DIR")
    log = lambda m: print(m, file=sys.stderr)          # noqa: E731
    if a.rounds > 1 and not a.compare:
        p.error("--rounds R goes with --compare M")
    order = [a.compare, a.releases] if a.compare else [a.releases]
    # the API in paired rounds first, both catalogs served at once; the other parts one catalog at a time
    paired = (api.compare_rounds(argparse.Namespace(**{**vars(a), "rebuild": False}), log)
              if a.rounds > 1 and "api" in a.parts else None)
    sizes = {n: measure(n, a, log, paired["sizes"][str(n)] if paired else None) for n in order}
    ratios, holds = verdicts(sizes, a.compare or None, a.releases, paired["ratios"] if paired else None)
    print(json.dumps({
        "bench": "scale", "parts": a.parts, "sizes": {str(n): v for n, v in sizes.items()}, "ratios": ratios,
        # (the judge's and the merges' bars are in their figures)
        "bars": {"api_postgres_cpu_ratio": API_CPU_RATIO, "api_cpu_ms": API_CPU_MS, "hot_bytes_per_release_drift": HOT_BYTES_DRIFT,
                 "store_cpu_ratio": STORE_CPU_RATIO},
        "holds": holds, "all_hold": all(v if isinstance(v, bool) else all(v.values()) for v in holds.values())}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
