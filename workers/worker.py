"""`voyager worker`: group leases, the prefetcher and the window, through pgbouncer.

    voyager worker [--threads N] [--tail-threads M] [--until-idle] [--node NAME] [--flush-at-end] [--dsn DSN]

One process a lane slot: the Cython window holds the GIL for every line (its
per-line Python objects), so threads would not run two windows at once;
`--threads N --tail-threads M` starts N history and M tail processes (one
window each, one held group at a time) and waits for them. Inside a process
the fetch runs on threads of its own (sockets and zlib let go of the GIL):
the chunks of the cursor range and of the group's next planned ranges are
fetched in parallel into the spool ($VOYAGER_HOME/spool, VOYAGER_SPOOL_MB),
independent of the window's pace, and deleted once their range's batches
are stored. `voyager replay` runs this lane's loop over a corpus folder
(workers/replay.CorpusLane).

A tail process keeps a caught-up group (its lease end written provisionally,
the window kept) and asks again every VOYAGER_TAIL_POLL_SECONDS, giving the
group back only when another group of the lane waits (voyager.lease_waiting).

Tests only: VOYAGER_TEST_PAUSE_BEFORE_LEASE_END=<path> (and
VOYAGER_TEST_PAUSE_AT_BATCH=<n> with VOYAGER_TEST_PAUSE_AFTER_BATCH=<path>)
make the process write the group's name to <path> and wait there while the
file exists and no stop came (tests/workers/test_worker.py kills or stops it).
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import json
import logging
import os
import random
import signal
import subprocess
import sys
import threading
import time
import zlib
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path

import psycopg

from ext import scan
from ext.window import DEFAULT_RULES, Window
from voyager.corpus import Corpus, CorpusWriter
from voyager.config import Config
from workers import claim_connections, start_logging
from workers.nntp import (TEXT, ZLIB, ZLIB_STUFFED, NntpConfig, NntpPool, Overview, OverviewCutShort,
                          chunk_requests, fetch_overview, fetch_overview_raw, unstuff)
from workers.store import Store

log = logging.getLogger("voyager.worker")

LEASE_LOST = "VY001"
CHUNK_TRIES = 6
TEXTS_AHEAD = 2          # chunks' texts made (read, inflated) ahead of the window: 2 x ~25 MB


def connect(dsn: str) -> psycopg.Connection:
    """Autocommit, no server-side prepared statements: pgbouncer in transaction
    pooling hands each statement to any server connection."""
    return psycopg.connect(dsn, autocommit=True, prepare_threshold=None)


def settings(conn) -> dict[str, str]:
    return dict(conn.execute("SELECT name, value FROM voyager.settings").fetchall())


# -- the spool -----------------------------------------------------------------------------------

# A spool file's kind by its suffix: the overview text as the window takes it,
# or the zlib stream a compressed reply carried, as it came (5x smaller),
# inflated once when the window's turn comes (read_spooled)
SUFFIXES = {TEXT: ".ov", ZLIB: ".zz", ZLIB_STUFFED: ".szz"}
KINDS = {v: k for k, v in SUFFIXES.items()}


class Spool:
    """Fetched chunks on disk, one file a request: <root>/<group>/<first>-<last>
    .ov (the overview text as the window takes it), .zz (a zlib stream of it)
    or .szz (a zlib stream of its dot-stuffed lines), written under a temporary
    name and renamed (a file there is whole). A takeover's redo finds the dead
    holder's."""

    def __init__(self, root: Path, cap_bytes: int):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.cap = cap_bytes
        self._lock = threading.Lock()
        self.used = sum(p.stat().st_size for p in self.root.rglob("*") if p.suffix in KINDS)

    def path(self, group: str, first: int, last: int, kind: str = TEXT) -> Path:
        return self.root / group / f"{first}-{last}{SUFFIXES[kind]}"

    def find(self, group: str, first: int, last: int) -> Path | None:
        """The chunk's spool file, of whichever kind, when there is one."""
        for kind in SUFFIXES:
            p = self.path(group, first, last, kind)
            if p.exists():
                return p
        return None

    def put(self, group: str, first: int, last: int, data: bytes, kind: str = TEXT) -> Path:
        p = self.path(group, first, last, kind)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(f"{p.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, p)
        with self._lock:
            self.used += len(data)
        return p

    def drop(self, group: str, first: int, last: int) -> None:
        for kind in SUFFIXES:
            p = self.path(group, first, last, kind)
            try:
                n = p.stat().st_size
                p.unlink()
            except FileNotFoundError:
                continue
            with self._lock:
                self.used -= n

    @property
    def full(self) -> bool:
        return self.used >= self.cap


def inflate_text(data: bytes, kind: str) -> bytes:
    """The overview text of a chunk of this kind: a zlib stream inflated once
    (libdeflate), a dot-stuffed one unstuffed. OverviewCutShort when it does
    not inflate or inflates to a partial last line: a reply cut short."""
    if kind == TEXT:
        return data
    try:
        text = scan.inflate(data)
    except zlib.error as e:
        raise OverviewCutShort(f"spooled reply does not inflate: {e}") from e
    if text and not text.endswith(b"\n"):
        raise OverviewCutShort("spooled reply inflates to a partial last line")
    # a line that starts with "." looked for without the GIL (the window's thread wants it)
    return unstuff(text) if kind == ZLIB_STUFFED and scan.stuffed(text) else text


def read_spooled(path: Path) -> bytes:
    return inflate_text(path.read_bytes(), KINDS[path.suffix])


class Fetcher:
    """Chunks fetched ahead on threads of their own into the spool; a future
    per request. Compressed replies are spooled as they came where the
    server sends the lines as one zlib stream (nntp.RAW_MODES); a chunk that
    did not inflate is fetched again with the client inflating (`inflated`).
    A chunk's text (the spool file read, inflated) is made on a thread of its
    own ahead of the window (text()); its CPU is text_cpu."""

    def __init__(self, pool: NntpPool | None, spool: Spool, threads: int):
        self.pool = pool
        self.spool = spool
        self.exec = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="fetch")
        self.texts = ThreadPoolExecutor(max_workers=1, thread_name_prefix="inflate")
        self.futures: dict[tuple[str, int, int], Future] = {}
        self.inflated: set[tuple[str, int, int]] = set()    # fetched again: inflated by the client
        self.lock = threading.Lock()
        # overview replies by the mode they came in, bytes off the wire and inflated
        self.nntp = {"replies": {}, "wire_bytes": 0, "overview_bytes": 0}
        self.text_cpu = 0.0

    def ensure(self, group: str, first: int, last: int) -> Future:
        key = (group, first, last)
        with self.lock:
            fut = self.futures.get(key)
            if fut is None:
                fut = self.exec.submit(self._fetch, group, first, last)
                self.futures[key] = fut
            return fut

    def forget(self, group: str, first: int, last: int, drop: bool = True) -> None:
        with self.lock:
            self.futures.pop((group, first, last), None)
        if drop:
            self.spool.drop(group, first, last)

    def _fetch(self, group: str, first: int, last: int) -> Path:
        p = self.spool.find(group, first, last)
        if p is not None:
            return p
        if self.pool is None:
            raise RuntimeError(f"{group} {first}-{last}: not in the corpus and no news server configured")
        with self.pool.connection() as conn:
            wire = conn.wire_bytes
            if (group, first, last) in self.inflated:    # its compressed reply was cut short once
                got = Overview(TEXT, fetch_overview(conn, group, first, last, cuts=1))
            else:
                got = fetch_overview_raw(conn, group, first, last)
            wire, mode = conn.wire_bytes - wire, conn.last_mode
        with self.lock:
            replies = self.nntp["replies"]
            replies[mode] = replies.get(mode, 0) + 1
            self.nntp["wire_bytes"] += wire
            self.nntp["overview_bytes"] += len(got.data)
        return self.spool.put(group, first, last, got.data, got.kind)

    def text(self, make, *args) -> Future:
        """make(*args) on the text thread, its CPU counted in text_cpu."""
        def run():
            t = time.thread_time()
            try:
                return make(*args)
            finally:
                self.text_cpu += time.thread_time() - t
        return self.texts.submit(run)

    def spooled_text(self, group: str, first: int, last: int, stopping) -> bytes | None:
        """The chunk's text once fetched (None when stopping() turns true while waiting)."""
        fut = self.ensure(group, first, last)
        while True:
            try:
                path = fut.result(timeout=1.0)
                break
            except FutureTimeout:
                if stopping():
                    return None
        return read_spooled(path)

    def close(self) -> None:
        self.exec.shutdown(wait=False, cancel_futures=True)
        self.texts.shutdown(wait=False, cancel_futures=True)


# -- keeping the lease and the connection budget ---------------------------------------------------

class Keeper(threading.Thread):
    """Heartbeats the held lease every lease_ttl/3 and renews the NNTP claim,
    resizing the pool to what the database grants."""

    def __init__(self, dsn: str, node: str, ttl: float, claim_ttl: float, pool: NntpPool | None,
                 want: int, limit: int, spool: "Spool | None" = None):
        super().__init__(name="keeper", daemon=True)
        self.dsn, self.node, self.pool, self.want, self.limit = dsn, node, pool, want, limit
        self.spool = spool
        self.reported = 0.0
        self.every = max(0.2, min(ttl, claim_ttl) / 3)
        self.token = None
        self.lost = False
        self.granted = 0
        self.stop_event = threading.Event()
        self.claimed = threading.Event()

    def claim(self, conn) -> None:
        if self.pool is None:
            self.claimed.set()
            return
        self.granted = claim_connections(conn, self.pool, self.node, "headers", self.want, self.limit, self.granted)
        self.claimed.set()

    def run(self) -> None:
        conn = None
        while not self.stop_event.is_set():
            try:
                if conn is None or conn.closed:
                    conn = connect(self.dsn)
                self.claim(conn)
                self.report_spool(conn)
                token = self.token
                if token is not None:
                    try:
                        conn.execute("SELECT voyager.heartbeat(%s)", (token,))
                    except psycopg.Error as e:
                        if e.sqlstate == LEASE_LOST and token == self.token:
                            self.lost = True
            except Exception as e:                 # the keeper must not die: log, reconnect, go on
                log.warning("keeper: %s", e)
                if conn is not None and not conn.closed:
                    conn.close()
                conn = None
            self.stop_event.wait(self.every)
        if conn is not None and not conn.closed:
            try:
                if self.pool is not None:
                    conn.execute("SELECT voyager.nntp_release(%s, 'headers')", (self.node,))
            finally:
                conn.close()

    def report_spool(self, conn) -> None:
        """The spool's size for voyager.status_spool, under the machine's node name
        (its lane processes share the folder), at most every 30 s."""
        if self.spool is None or time.monotonic() - self.reported < 30:
            return
        from voyager.status import report_spool

        report_spool(conn, self.node.split("/")[0], self.spool.root, self.spool.cap)
        self.reported = time.monotonic()

    def stop(self) -> None:
        self.stop_event.set()
        self.join(30)


class GroupLost(Exception):
    """The lease was taken over (VY001): the window goes, the new holder redoes."""


@contextlib.contextmanager
def lease_errors():
    """A lost lease (VY001) from the database as GroupLost; other errors as they are."""
    try:
        yield
    except psycopg.Error as e:
        if e.sqlstate == LEASE_LOST:
            raise GroupLost(str(e).splitlines()[0]) from e
        raise


# -- one lane ----------------------------------------------------------------------------------------

class LaneWorker:
    flush_releases = 1000    # releases a flush batch holds: the store stores one while the window makes the next
    fail_ranges = True       # a refused batch or an unfetchable chunk fails the range (fail_group); else it is raised

    def __init__(self, lane: str, node: str, until_idle: bool, flush_at_end: bool, cfg: Config | None = None,
                 dsn: str | None = None):
        self.lane, self.node, self.until_idle, self.flush_at_end = lane, node, until_idle, flush_at_end
        self.cfg = cfg or Config.from_env()
        self.dsn = dsn or self.cfg.worker_dsn
        self.stopping = False
        corpus = os.environ.get("VOYAGER_CORPUS")
        self.corpus_dir = Path(corpus) if corpus else None
        # a tail holder with nothing left asks again this often (VOYAGER_TAIL_POLL_SECONDS)
        self.tail_poll = float(os.environ.get("VOYAGER_TAIL_POLL_SECONDS") or 60)
        self._last_snapshot = time.monotonic()
        self._storer: ThreadPoolExecutor | None = None    # the store thread: a batch in flight beside the window
        self._in_flight: Future | None = None
        self.cursor: int | None = None            # the held lease's cursor range
        self.stats = {"headers": 0, "batches": 0, "groups": 0, "ranges": 0, "snapshots": 0,
                      "chunks_from_corpus": 0, "chunks_fetched_again": 0, "takeovers": 0,
                      "lease_ends_held": 0, "ranges_failed": 0}
        self.cpu = {"window": 0.0, "store": 0.0}   # this (the main) thread's CPU seconds
        self.nntp: dict = {}                      # the fetcher's: replies by mode, bytes

    def request_stop(self, *_a) -> None:
        self.stopping = True

    # -- setup
    def run(self) -> dict:
        self.conn = connect(self.dsn)
        self.store = Store(self.conn)
        s = self.read_settings()
        ttl = float(s["lease_ttl_seconds"])
        claim_ttl = float(s.get("nntp_claim_ttl_seconds", 60))
        nntp_cfg = None
        if os.environ.get("VOYAGER_NNTP_HOST") or os.environ.get("VOYAGER_NNTP_PORT"):
            nntp_cfg = NntpConfig.from_env()
        # VOYAGER_NNTP_CONNECTIONS is the account's limit, shared by every process
        # through voyager.nntp_claim; VOYAGER_NNTP_WANT what this process asks for
        # (`voyager worker` gives each of its processes an even part)
        limit = nntp_cfg.connections if nntp_cfg else 0
        want = min(limit, int(os.environ.get("VOYAGER_NNTP_WANT") or limit))
        self.pool = NntpPool(nntp_cfg, size=0) if nntp_cfg else None   # the budget sizes it
        spool_mb = int(os.environ.get("VOYAGER_SPOOL_MB") or 2048)
        self.spool = Spool(self.cfg.home / "spool", spool_mb << 20)
        self.fetcher = Fetcher(self.pool, self.spool, want or 1)
        self.keeper = Keeper(self.dsn, self.node, ttl, claim_ttl, self.pool, want, limit, self.spool)
        self.keeper.start()
        self.keeper.claimed.wait(30)
        try:
            self.loop()
        finally:
            self.keeper.stop()
            self.nntp = self.fetcher.nntp
            self.fetcher.close()
            if self.pool is not None:
                self.pool.close()
            self.conn.close()
        return self.stats

    def read_settings(self) -> dict[str, str]:
        s = settings(self.conn)
        self.chunk_articles = int(s["chunk_articles"])
        self.snapshot_every = float(s["snapshot_minutes"]) * 60
        return s

    def loop(self) -> None:
        while not self.stopping:
            held = self.conn.execute(
                "SELECT token, group_id, group_name, taken_over FROM voyager.lease_group(%s, %s)",
                (self.lane, self.node)).fetchone()
            if held is None:
                if self.until_idle and self.idle():
                    return
                self.wait(0.5 if self.until_idle else self.tail_poll if self.lane == "tail" else 30, held=False)
                continue
            token, gid, name, taken_over = held
            self.stats["groups"] += 1
            self.stats["takeovers"] += int(bool(taken_over))
            self.keeper.lost = False
            self.keeper.token = token
            self.cursor = None
            try:
                self.work_group(token, gid, name)
            except GroupLost as e:
                log.warning("%s: %s", name, e)
            except Exception as e:                 # refused or unfetchable: that lane waits, the rest goes on
                self.fail_group(token, name, e)
            finally:
                self.keeper.token = None

    def priorities(self, owners: dict[str, int]) -> dict[str, int]:
        """The owner list the window runs with: the lease's (the active groups' numbers)."""
        return owners

    def lease_window(self, token, name: str) -> tuple[Window, bool]:
        """The window a lease runs: its snapshot (voyager.snapshot: a lane's
        current one, a recovery's kept one) restored, else a fresh one, with the
        lease's rules loaded; and whether it was restored."""
        snap = self.call("SELECT article, data FROM voyager.snapshot(%s)", (token,)).fetchone()
        window = Window.restore(bytes(snap[1])) if snap else Window(name)
        self.load_rules(token, window)
        return window, snap is not None

    def load_rules(self, token, window: Window) -> int:
        """The lease's rule set and owner list (voyager.lease_rules) onto the window,
        a restored one too: a rule set added since applies from this lease, and a
        removed group owns no crossposts. Returns the rule set's version."""
        version, rules, owners = self.call("SELECT rule_version, rules, owners FROM voyager.lease_rules(%s)",
                                           (token,)).fetchone()
        window.rules = dict(DEFAULT_RULES, **rules)
        pr = {k.encode(): int(v) for k, v in self.priorities(owners).items()}
        window.priorities = pr
        window.priority = pr.get(window.group, window.priority)
        return version

    def wait(self, seconds: float, held: bool = True) -> None:
        """Sleeps, waking for a stop (or, holding a group, a lost lease)."""
        deadline = time.monotonic() + seconds
        while not self.stopping and not (held and self.keeper.lost):
            left = deadline - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(0.25, left))

    def idle(self) -> bool:
        """Nothing left for this lane and no lease of it held (voyager.lane_idle)."""
        return self.conn.execute("SELECT voyager.lane_idle(%s)", (self.lane,)).fetchone()[0]

    def fail_group(self, token, name: str, error: Exception) -> None:
        """A batch the database refused (for any reason but a lost lease) or a
        chunk not fetched after its tries: the cursor range is marked failed with
        the error (voyager.fail_range) and the lane given back with its snapshot
        as it stands; the database leases that lane no more until `voyager ranges
        retry`. The window in hand goes. Without a database to tell, the error
        stands (the process ends, as it must without one)."""
        self._in_flight = None
        if not self.fail_ranges or (isinstance(error, psycopg.Error) and error.sqlstate is None):
            raise error                             # the connection itself: nobody to tell
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        text = f"{type(error).__name__}: {first}"
        if isinstance(error, psycopg.Error):
            text += f" (SQLSTATE {error.sqlstate})"
        try:
            range_id = self.cursor
            if range_id is None:                   # before its first range (a snapshot that does not restore)
                row = self.call("SELECT range_id FROM voyager.next_range(%s)", (token,)).fetchone()
                range_id = row[0] if row else None
            if range_id is None:
                self.call("SELECT voyager.release_group(%s)", (token,))
            else:
                self.call("SELECT voyager.fail_range(%s, %s, %s)", (token, range_id, text))
                self.stats["ranges_failed"] += 1
            log.error("%s: range %s failed: %s", name, range_id, text)
        except GroupLost as e:
            log.warning("%s: %s (after: %s)", name, e, text)
        except psycopg.Error as e:
            log.error("%s: %s; and marking it failed: %s", name, text, e)
            raise error from e

    # -- one held group
    def call(self, sql: str, params=()):
        with lease_errors():
            return self.conn.execute(sql, params)

    def store_batch(self, token, range_id: int, first: int, nxt: int, headers: int, batch: dict) -> None:
        with lease_errors():
            self.resume = self.store.store(token, range_id, first, nxt, headers, batch)["next_article"]

    def work_group(self, token, gid: int, name: str) -> None:
        """Works the held group's ranges in article order through one window.
        With nothing left the history lane's lease ends: what is open is written
        provisionally (or finished, at the seam a started tail has passed, or with
        --flush-at-end), the window snapshotted, the group given back. The tail
        lane (without --until-idle) keeps the group instead while no other group
        of the lane waits: caught up, it writes what is open provisionally (the
        tail's poll is a lease end: an upload in progress shows in the catalog),
        snapshots every snapshot_minutes, and asks again every tail_poll seconds;
        the planner's new ranges fall into its order, and the next batches finish
        what it wrote provisionally."""
        window, _restored = self.lease_window(token, name)
        rng = None                  # the lease's cursor range, once next_range gave one
        self.cursor = None          # its id, for fail_group
        self.resume = None          # its resume point: as next_range gave it, then as store_batch returns it
        written = snapped = True    # since the last stored batch: what is open written out / the window snapshotted
        end_of_data = False
        while True:
            if self.stopping:
                break
            if self.keeper.lost:
                raise GroupLost("the lease was taken over")
            nxt = self.call("SELECT range_id, start_article, end_article, next_article, capture "
                            "FROM voyager.next_range(%s)", (token,)).fetchone()
            if nxt is None:
                if self.lane == "tail" and not self.until_idle:
                    if not written:
                        self.test_hook("VOYAGER_TEST_PAUSE_BEFORE_LEASE_END", name)
                        self.write_lease_end(token, window, rng, final=False)
                        self.stats["lease_ends_held"] += 1
                        written = True
                    if not snapped and time.monotonic() - self._last_snapshot >= self.snapshot_every:
                        # only after the lease end: a snapshot there redoes nothing unwritten
                        self.call("SELECT voyager.store_snapshot(%s, %s, %s)",
                                  (token, self.resume, window.snapshot()))
                        self.stats["snapshots"] += 1
                        self._last_snapshot = time.monotonic()
                        snapped = True
                    if self.call("SELECT voyager.lease_waiting(%s)", (token,)).fetchone()[0]:
                        break                          # another group waits: this one goes back
                    self.wait(self.tail_poll)
                    continue
                end_of_data = True
                break
            rng = nxt
            range_id, start, end, resume, capture = rng
            self.cursor = range_id
            self.resume = resume
            self.prefetch_ahead(token, name, rng)
            after = self.run_range(token, window, name, rng)
            if after > resume:
                written = snapped = False
            if after <= end:
                break                                  # stopped mid-range
            self.stats["ranges"] += 1
        if snapped:
            # nothing since the window's snapshot (or the one restored): the group goes
            # back as it stands (a range handed out but not begun is planned again)
            self.call("SELECT voyager.release_group(%s)", (token,))
            return
        if written:
            at = self.resume
        else:
            self.test_hook("VOYAGER_TEST_PAUSE_BEFORE_LEASE_END", name)
            final = False
            if end_of_data:
                # --flush-at-end: a fixed corpus, the end of its data; else the seam: a
                # caught-up history whose tail runs a window of its own ends there
                final = self.flush_at_end or \
                    self.call("SELECT voyager.lane_end(%s)", (token,)).fetchone()[0] == "final"
            at = self.write_lease_end(token, window, rng, final=final)
        self.call("SELECT voyager.release_group(%s, %s, %s)", (token, window.snapshot(), at))
        self.stats["snapshots"] += 1

    def write_lease_end(self, token, window: Window, rng, final: bool) -> int:
        """The lease end's writes at the cursor range's resume point: what is open
        provisionally (finished false, edge true: the window keeps it, a continuation
        finishes it), or, when nothing will continue the window, finished as it
        stands (flush). Returns the resume point."""
        range_id = rng[0]
        at = self.resume
        # a batch is stored (the server's work, in another process) while the window
        # makes the next, through the store thread: in order, one in flight
        batches = window.flush_batches(self.flush_releases) if final else window.lease_end_batches()
        try:
            while True:
                t = time.thread_time()
                b = next(batches, None)
                self.cpu["window"] += time.thread_time() - t
                if b is None:
                    break
                self.drain_store()
                self.store_async(token, range_id, at, at, 0, b)
        finally:
            self.drain_store()
        return at

    def store_async(self, token, range_id: int, first: int, nxt: int, headers: int, batch: dict) -> None:
        """store_batch on the store thread (its CPU counted as store_async)."""
        def run() -> None:
            t = time.thread_time()
            try:
                self.store_batch(token, range_id, first, nxt, headers, batch)
            finally:
                self.cpu["store_async"] = self.cpu.get("store_async", 0.0) + time.thread_time() - t

        if self._storer is None:
            self._storer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        self._in_flight = self._storer.submit(run)

    def drain_store(self) -> None:
        """Waits for the batch in flight; its error is raised here."""
        fut, self._in_flight = self._in_flight, None
        if fut is not None:
            fut.result()

    def test_hook(self, var: str, name: str) -> None:
        """Tests only: with VAR=<path> set, writes the group's name to <path> and
        waits while the file exists and no stop came (a test kills the process
        there, stops it, or deletes the file to let it go on)."""
        path = os.environ.get(var)
        if not path:
            return
        p = Path(path)
        tmp = p.with_name(p.name + ".tmp")
        tmp.write_text(name)
        os.replace(tmp, p)
        while p.exists() and not self.stopping:
            time.sleep(0.05)

    def prefetch_ahead(self, token, name: str, rng) -> None:
        """The cursor range's chunks, then those of the next two ranges next_range
        would hand out (voyager.ranges_ahead)."""
        range_id, start, end, resume, capture = rng
        if self.in_corpus(name, start, end):
            return
        for a, b in chunk_requests(resume, end, self.chunk_articles):
            self.fetcher.ensure(name, a, b)
        if self.spool.full:
            return
        ahead = self.call("SELECT start_article, end_article, next_article FROM voyager.ranges_ahead(%s, 2)",
                          (token,)).fetchall()
        for s, e, r in ahead:
            if not self.in_corpus(name, s, e):
                for a, b in chunk_requests(r, e, self.chunk_articles):
                    self.fetcher.ensure(name, a, b)

    def in_corpus(self, name: str, start: int, end: int) -> bool:
        return self.corpus_dir is not None and (self.corpus_dir / name / f"{start}-{end}" / "range.json").exists()

    def corpus_chunks(self, name: str, resume: int, end: int):
        """The corpus's chunks of resume..end, in article order."""
        return Corpus(self.corpus_dir).chunks(name, resume, end)

    def chunks(self, name: str, start: int, end: int, resume: int):
        """(first, last, text) of resume..end in article order: from the corpus when
        it holds the range, else from the spool as the fetcher fills it. A chunk's
        text (read, inflated once) is made on the fetcher's text thread while the
        window reads the chunks before it (TEXTS_AHEAD of them). A chunk whose
        fetch failed (cut short past the retries, dropped, refused) or whose
        spooled reply does not inflate (cut short) is fetched again, the latter
        with the client inflating, up to CHUNK_TRIES times with backoff; the
        window is kept (nothing of it was fed)."""
        fetcher = self.fetcher
        wall = self.wall_seconds()

        def stopping() -> bool:
            return self.stopping or self.keeper.lost

        from_corpus = self.in_corpus(name, start, end)
        if from_corpus:
            jobs = [(c.first, c.last, lambda c=c: scan.inflate(c.read()))
                    for c in self.corpus_chunks(name, resume, end)]
        else:
            jobs = [(a, b, lambda a=a, b=b: fetcher.spooled_text(name, a, b, stopping))
                    for a, b in chunk_requests(resume, end, self.chunk_articles)]
        # the texts of the next TEXTS_AHEAD chunks are being made while the window reads
        ahead = [fetcher.text(make) for _a, _b, make in jobs[:TEXTS_AHEAD]]
        try:
            for i, (a, b, make) in enumerate(jobs):
                fut = ahead.pop(0)
                tries = 0
                while True:
                    try:
                        data = None
                        waited = time.monotonic()
                        while data is None:
                            try:
                                data = fut.result(timeout=1.0)
                            except FutureTimeout:
                                pass
                            if data is None and (stopping() or fut.done()):
                                return        # the batch in hand is stored; the lease end follows
                        wall["text_wait"] += time.monotonic() - waited
                        break
                    except Exception as e:          # cut short, dropped, refused: that chunk again
                        if from_corpus:
                            raise
                        tries += 1
                        self.stats["chunks_fetched_again"] += 1
                        if isinstance(e, OverviewCutShort):
                            fetcher.inflated.add((name, a, b))
                        fetcher.forget(name, a, b)
                        if tries >= CHUNK_TRIES:
                            raise
                        log.warning("%s %d-%d: %s; fetching it again", name, a, b, e)
                        time.sleep(min(10.0, 0.2 * 2 ** tries) * random.uniform(0.5, 1.0))
                        fut = fetcher.text(make)
                if i + TEXTS_AHEAD < len(jobs):
                    ahead.append(fetcher.text(jobs[i + TEXTS_AHEAD][2]))
                if from_corpus:
                    self.stats["chunks_from_corpus"] += 1
                self.cpu["inflate"] = fetcher.text_cpu
                yield a, b, data
        finally:
            for fut in ahead:
                fut.cancel()

    def wall_seconds(self) -> dict:
        """Wall seconds of the window's thread: in run_range, waiting for a
        chunk's text, in store calls (bench e2e reports them)."""
        if not hasattr(self, "wall"):
            self.wall = {"ranges": 0.0, "text_wait": 0.0, "store": 0.0}
        return self.wall

    def run_range(self, token, window: Window, name: str, rng) -> int:
        began = time.monotonic()
        try:
            return self._run_range(token, window, name, rng)
        finally:
            self.wall_seconds()["ranges"] += time.monotonic() - began

    def _run_range(self, token, window: Window, name: str, rng) -> int:
        wall = self.wall_seconds()
        captured: list = []
        try:
            resume = self._range_chunks(token, window, name, rng, wall, captured)
        finally:
            self.drain_store()          # nothing in flight once the range's loop is left, whatever ended it
        return self._range_end(token, window, name, rng, resume, captured)

    def _range_chunks(self, token, window: Window, name: str, rng, wall: dict, captured: list) -> int:
        range_id, start, end, resume, capture = rng
        last_snapshot = self._last_snapshot
        for a, b, data in self.chunks(name, start, end, resume):
            t = time.thread_time()
            seen = window.lines
            gc.disable()            # as the window's bench runs it: its records hold no cycles
            try:
                window.feed(data, b, a)      # a line outside a..b is the server's fault, skipped
                batch = window.take_batch()
            finally:
                gc.enable()
            t = time.thread_time() - t
            self.cpu["window"] += t
            self.cpu["window_ranges"] = self.cpu.get("window_ranges", 0.0) + t   # without the lease ends
            lines = window.lines - seen     # the lines it read (counting LFs: ~13 ms a 25 MB chunk)
            # the batch is stored on the store thread while the window reads the next chunk:
            # one in flight, in order; what must follow a stored batch waits for it (drain)
            w = time.monotonic()
            self.drain_store()
            wall["store"] += time.monotonic() - w
            upto = min(b, end)      # a corpus's chunk may run past a range planned on another grid
            self.store_async(token, range_id, resume, upto + 1, lines, batch)
            self.stats["headers"] += lines
            self.stats["batches"] += 1
            if self.stats["batches"] == int(os.environ.get("VOYAGER_TEST_PAUSE_AT_BATCH") or 0):
                self.drain_store()
                self.test_hook("VOYAGER_TEST_PAUSE_AFTER_BATCH", name)
            resume = upto + 1
            if capture and self.corpus_dir is not None and not self.in_corpus(name, start, end):
                captured.append((a, b, data))
            if self.snapshot_every >= 0 and time.monotonic() - last_snapshot >= self.snapshot_every \
                    and resume <= end:
                self.drain_store()           # a snapshot stands at a stored resume point
                self.call("SELECT voyager.store_snapshot(%s, %s, %s)", (token, resume, window.snapshot()))
                self.stats["snapshots"] += 1
                last_snapshot = time.monotonic()
            if self.stopping or self.keeper.lost:
                break
        w = time.monotonic()
        self.drain_store()
        wall["store"] += time.monotonic() - w
        self._last_snapshot = last_snapshot
        return resume

    def _range_end(self, token, window: Window, name: str, rng, resume: int, captured: list) -> int:
        range_id, start, end, _resume, capture = rng
        if self.keeper.lost:
            raise GroupLost("the lease was taken over")
        if resume <= end and not self.stopping:
            # nothing was posted in the rest of the range
            self.store_batch(token, range_id, resume, end + 1, 0, window.take_batch())
            resume = end + 1
        if resume > end:
            if captured and captured[0][0] == start:
                CorpusWriter(self.corpus_dir).write_range(
                    name, start, end, [(a, b, [x for x in d.split(b"\r\n") if x]) for a, b, d in captured])
            for a, b in chunk_requests(start, end, self.chunk_articles):
                self.fetcher.forget(name, a, b)     # stored: the spool's copy goes
        return resume


# -- the command ----------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="voyager worker", description="Index: lease groups, fetch, window, store.")
    p.add_argument("--threads", type=int, default=1, help="history lane processes (one window each)")
    p.add_argument("--tail-threads", type=int, default=0,
                   help="tail lane processes (each keeps a caught-up group and asks again every "
                        "VOYAGER_TAIL_POLL_SECONDS, 60, unless another group waits)")
    p.add_argument("--until-idle", action="store_true",
                   help="exit once no planned range is left and no lease of the lane is held elsewhere "
                        "(a tail group is given back when caught up)")
    p.add_argument("--node", default=None, help="this machine's name (default: the host name)")
    p.add_argument("--dsn", help="the database, through pgbouncer (default VOYAGER_WORKER_DSN, else the pooled "
                   "DSN): all another host needs, with the news server's settings")
    p.add_argument("--flush-at-end", action="store_true",
                   help="a group with no range left (with --until-idle for the tail lane) is the end of "
                        "its data: finish what is open as settled (as `voyager replay --into-db` does; a "
                        "fixed corpus) instead of writing it provisionally")
    p.add_argument("--lane", choices=["history", "tail"], help=argparse.SUPPRESS)
    p.add_argument("-v", "--verbose", action="store_true")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    start_logging(args.verbose)
    node = args.node or os.uname().nodename
    if args.lane:
        w = LaneWorker(args.lane, node, args.until_idle, args.flush_at_end, dsn=args.dsn)
        signal.signal(signal.SIGTERM, w.request_stop)
        signal.signal(signal.SIGINT, w.request_stop)
        stats = w.run()
        print(json.dumps({"node": node, "lane": args.lane, **stats,
                          "cpu": {k: round(v, 3) for k, v in w.cpu.items()}, "nntp": w.nntp}), flush=True)
        return 0
    slots = [("history", i) for i in range(args.threads)] + [("tail", i) for i in range(args.tail_threads)]
    if not slots:
        return 0
    base = [sys.executable, "-m", "workers.worker"] + (["--until-idle"] if args.until_idle else []) \
        + (["--flush-at-end"] if args.flush_at_end else []) + (["-v"] if args.verbose else [])
    env = dict(os.environ)
    if args.dsn:                # to the lane processes by the environment: not in their command lines
        env["VOYAGER_WORKER_DSN"] = args.dsn
    if not env.get("VOYAGER_NNTP_WANT"):
        limit = NntpConfig.from_env().connections
        env["VOYAGER_NNTP_WANT"] = str(max(1, -(-limit // len(slots))))
    children = [subprocess.Popen(base + ["--lane", lane, "--node", f"{node}/{lane[0]}{i}"], env=env)
                for lane, i in slots]

    def forward(sig, _frame):
        for c in children:
            if c.poll() is None:
                c.send_signal(sig)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    rc = 0
    for c in children:
        while True:
            try:
                code = c.wait()
                rc = rc or code        # the first failure (a signal's negative code included)
                break
            except InterruptedError:   # pragma: no cover
                continue
    return 1 if rc else 0


if __name__ == "__main__":
    sys.exit(main())
