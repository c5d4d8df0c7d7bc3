"""`voyager probe`: phase 2's thin worker. The database hands out the work
(voyager.claim_probe_candidates: the queue's order, a token a claim, a lease)
and decides what the facts mean (voyager.store_probes); this fetches the
claimed articles' bodies over NNTP on connections the account's budget grants
the `probes` role (voyager.nntp_claim), hands each to the readers
(workers.probe.read_article) and sends a batch of results in one call.

A target the probe cache already knows comes back `cached` and is answered
without a fetch. An article gone (430, 423) is `dead`; a body past the cap or
one the readers cannot read is `failed` with its reason; a fetch that failed
(the connection, a timeout, a busy server) is `retry`: the database puts it
back after a pause and gives it up after a few attempts. Nothing a body holds
can crash the loop: every fetch and read is caught and becomes a result.
"""
from __future__ import annotations

import argparse
import json
import logging
import queue
import resource
import signal
import sys
import threading
import time
from typing import Callable

import psycopg

from workers import claim_connections, claimant, claimant_arguments
from workers.nntp import NntpBodyTooLarge, NntpConfig, NntpConnection, NntpError, NntpPool, NntpReplyError, RETRYABLE
from workers.probe import MAX_BODY      # what one body may take: past it, no article a reader wants

log = logging.getLogger("voyager.prober")

ROLE = "probes"
BATCH = 200                 # results a store_probes call carries at most
FLUSH_SECONDS = 2.0         # and at the latest this long after the first one waiting
Reader = Callable[..., dict]


def connect(dsn: str) -> psycopg.Connection:
    """Autocommit, no server-side prepared statements (pgbouncer)."""
    return psycopg.connect(dsn, autocommit=True, prepare_threshold=None)


def _clean(value):
    """The facts as jsonb takes them: no NUL in a string (a byte an NFO of
    random bytes or a hostile name may hold)."""
    if isinstance(value, str):
        return value.replace("\x00", "") if "\x00" in value else value
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def default_reader() -> Reader:
    from workers.probe import read_article
    return read_article


class Budget(threading.Thread):
    """Renews this process's share of the account's connections for the
    probes role every nntp_claim_ttl_seconds/3 and sizes the pool to it."""

    def __init__(self, dsn: str, node: str, pool: NntpPool, want: int, limit: int, ttl: float):
        super().__init__(name="probe-budget", daemon=True)
        self.dsn, self.node, self.pool, self.want, self.limit = dsn, node, pool, want, limit
        self.every = max(0.2, ttl / 3)
        self.granted = 0
        self.stop_event = threading.Event()
        self.claimed = threading.Event()

    def run(self) -> None:
        conn = None
        while not self.stop_event.is_set():
            try:
                if conn is None or conn.closed:
                    conn = connect(self.dsn)
                self.granted = claim_connections(conn, self.pool, self.node, ROLE, self.want, self.limit,
                                                 self.granted)
                self.claimed.set()
            except psycopg.Error as e:
                log.warning("connection budget: %s", e)
                conn = None
            self.stop_event.wait(self.every)
        if conn is not None and not conn.closed:
            try:
                conn.execute("SELECT voyager.nntp_release(%s, %s)", (self.node, ROLE))
            except psycopg.Error:
                pass
            conn.close()

    def stop(self) -> None:
        self.stop_event.set()
        self.join(timeout=10)


class Prober:
    """Claims, fetches on `threads` threads, reads, stores in batches."""

    def __init__(self, dsn: str, node: str, *, threads: int = 4, until_idle: bool = False,
                 nntp: NntpConfig | None = None, reader: Reader | None = None, lease: str = "10 minutes",
                 cap: int = MAX_BODY, poll_seconds: float = 30.0, progress: bool = False):
        self.dsn, self.node, self.threads, self.until_idle = dsn, node, max(1, threads), until_idle
        self.nntp = nntp or NntpConfig.from_env()
        self.reader = reader or default_reader()
        self.lease, self.cap, self.poll_seconds, self.progress = lease, cap, poll_seconds, progress
        self.work: queue.Queue = queue.Queue()
        self.results: queue.Queue = queue.Queue()
        self.stopping = False
        self.stats = {"claimed": 0, "fetched": 0, "cached": 0, "read": 0, "dead": 0, "failed": 0, "retry": 0,
                      "stale": 0, "stored": 0, "batches": 0, "body_bytes": 0}
        self.cpu = {"fetch_read": 0.0, "store": 0.0}
        self._cpu_lock = threading.Lock()

    def request_stop(self, *_a) -> None:
        self.stopping = True

    # -- one target
    def probe(self, pool: NntpPool, c: dict) -> dict:
        out = {"claim": str(c["claim"]), "release_id": c["release_id"],
               "pending_key": c["pending_key"].hex() if c["pending_key"] else None, "kind": c["kind"],
               "message_id": c["message_id"], "error": None, "bytes": None, "facts": None}
        if c["cached"]:
            return {**out, "status": "cached"}
        try:
            with pool.connection(timeout=120) as conn:
                body = conn.body(c["message_id"], self.cap)
        except NntpBodyTooLarge as e:
            return {**out, "status": "failed", "error": f"too-large: {e}"}
        except (*RETRYABLE, TimeoutError, OSError) as e:
            return {**out, "status": "retry", "error": f"{type(e).__name__}: {e}"[:200]}
        except NntpReplyError as e:
            return {**out, "status": "retry", "error": f"{e.code}: {e}"[:200]}
        except NntpError as e:
            return {**out, "status": "retry", "error": f"{type(e).__name__}: {e}"[:200]}
        if body is None:
            return {**out, "status": "dead", "error": "no such article"}
        out["bytes"] = len(body)
        try:
            facts = self.reader(c["kind"], "", body, cap=self.cap)
        except Exception as e:                   # the readers never raise; a bug is one target's failure
            log.exception("reader on %s", c["message_id"])
            return {**out, "status": "failed", "error": f"reader: {type(e).__name__}: {e}"[:200]}
        facts = _clean(facts)
        return {**out, "status": "failed" if facts.get("error") else "ok", "facts": facts,
                "error": facts.get("error")}

    def _fetcher(self, pool: NntpPool) -> None:
        t0 = time.thread_time()
        while True:
            c = self.work.get()
            if c is None:
                break
            try:
                r = self.probe(pool, c)
            except Exception as e:               # never lose a claim to a bug: it comes back later
                log.exception("probe of %s", c.get("message_id"))
                r = {"claim": str(c["claim"]), "release_id": c["release_id"],
                     "pending_key": c["pending_key"].hex() if c["pending_key"] else None, "kind": c["kind"],
                     "message_id": c["message_id"], "status": "retry", "error": f"prober: {e}"[:200]}
            self.results.put(r)
        with self._cpu_lock:
            self.cpu["fetch_read"] += time.thread_time() - t0

    # -- the loop
    def claim(self, conn, limit: int) -> list[dict]:
        cur = conn.execute("SELECT * FROM voyager.claim_probe_candidates(%s, %s, %s::interval)",
                           (self.node, limit, self.lease))
        names = [d.name for d in cur.description]
        return [dict(zip(names, row)) for row in cur.fetchall()]

    def store(self, conn, results: list[dict]) -> None:
        t0 = time.thread_time()
        out = conn.execute("SELECT voyager.store_probes(%s, %s::jsonb)",
                           (self.node, json.dumps(results, ensure_ascii=False))).fetchone()[0]
        self.cpu["store"] += time.thread_time() - t0
        self.stats["batches"] += 1
        for k in ("stored", "stale", "retry", "read", "dead", "failed"):
            self.stats[k] += out.get(k, 0)

    def run(self) -> dict:
        conn = connect(self.dsn)
        s = dict(conn.execute("SELECT name, value FROM voyager.settings").fetchall())
        pool = NntpPool(self.nntp, size=0)
        budget = Budget(self.dsn, self.node, pool, min(self.threads, self.nntp.connections),
                        self.nntp.connections, float(s.get("nntp_claim_ttl_seconds", 60)))
        budget.start()
        budget.claimed.wait(30)
        fetchers = [threading.Thread(target=self._fetcher, args=(pool,), name=f"probe-{i}", daemon=True)
                    for i in range(self.threads)]
        for t in fetchers:
            t.start()
        bar = _Progress(self) if self.progress else None
        in_flight = 0
        waiting: list[dict] = []
        first_wait = None
        try:
            while True:
                # keep the fetchers fed: claim when less than a round is in hand
                if not self.stopping and in_flight < 2 * self.threads:
                    got = self.claim(conn, 4 * self.threads)
                    self.stats["claimed"] += len(got)
                    for c in got:
                        self.work.put(c)
                    in_flight += len(got)
                    if not got and in_flight == 0 and not waiting:
                        if self.until_idle:
                            break
                        self._sleep(self.poll_seconds)
                        continue
                if self.stopping and in_flight == 0 and not waiting:
                    break
                try:
                    r = self.results.get(timeout=0.5)
                    in_flight -= 1
                    waiting.append(r)
                    first_wait = first_wait or time.monotonic()
                    if r["status"] == "cached":
                        self.stats["cached"] += 1
                    elif r.get("bytes") is not None:
                        self.stats["fetched"] += 1
                        self.stats["body_bytes"] += r["bytes"]
                except queue.Empty:
                    pass
                if waiting and (len(waiting) >= BATCH or in_flight == 0
                                or time.monotonic() - first_wait >= FLUSH_SECONDS):
                    self.store(conn, waiting)
                    waiting, first_wait = [], None
                if bar:
                    bar.update()
        finally:
            if waiting:
                try:
                    self.store(conn, waiting)
                except psycopg.Error as e:    # their claims come back after the lease
                    log.warning("last batch not stored: %s", e)
            for _ in fetchers:
                self.work.put(None)
            for t in fetchers:
                t.join(timeout=30)
            if bar:
                bar.close()
            budget.stop()
            pool.close()
            conn.close()
        return self.stats

    def _sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not self.stopping and time.monotonic() < end:
            time.sleep(min(0.5, end - time.monotonic()))


class _Progress:
    """One rich status line while it works: fetched, cached, dead, failed, the rate."""

    def __init__(self, prober: Prober):
        from rich.console import Console
        from rich.live import Live
        self.p = prober
        self.t0 = time.monotonic()
        self.live = Live(console=Console(stderr=True), refresh_per_second=2, transient=False)
        self.live.start()
        self.last = 0.0

    def update(self) -> None:
        now = time.monotonic()
        if now - self.last < 0.5:
            return
        self.last = now
        s = self.p.stats
        rate = s["fetched"] / max(0.001, now - self.t0)
        self.live.update(f"probe: {s['claimed']} claimed, {s['fetched']} fetched ({rate:.1f}/s), "
                         f"{s['cached']} cached, {s['dead']} dead, {s['failed']} failed, {s['retry']} again, "
                         f"{s['stored']} stored")

    def close(self) -> None:
        self.update()
        self.live.stop()


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="voyager probe", description=__doc__.split("\n\n")[0])
    p.add_argument("--threads", type=int, default=4, help="fetch threads (NNTP connections at most)")
    p.add_argument("--until-idle", action="store_true", help="exit once nothing is left to claim")
    claimant_arguments(p)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    dsn, node = claimant(args, "probe")
    p = Prober(dsn, node, threads=args.threads, until_idle=args.until_idle, progress=sys.stderr.isatty())
    signal.signal(signal.SIGTERM, p.request_stop)
    signal.signal(signal.SIGINT, p.request_stop)
    t0 = time.monotonic()
    stats = p.run()
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"node": node, **stats, "seconds": round(time.monotonic() - t0, 3),
                      "cpu": {k: round(v, 3) for k, v in p.cpu.items()},
                      "max_rss_mb": round(ru.ru_maxrss / 1024, 1)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
