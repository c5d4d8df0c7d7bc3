"""Where the web's statements go: what writes to the primary, what only reads
to the read replicas when it has any (WebConfig.replicas), the primary last.

`Databases` holds a pool for the primary and one for each replica that is up.
`read(fn)` runs `fn(conn)` on the least busy replica that is up; when that
replica's connection fails (refused, lost mid-statement, its server killed)
the replica is marked down, its pool closed, and `fn` runs again on the next
one, then on the primary: reads are idempotent, so no request fails because a
replica did. A result that may only mean the replica has not replayed a write
yet (a session just made, a release just stored: `behind`) is asked of the
primary again. A hot standby refuses every write (SQLSTATE 25006), so what
writes never goes through `read`: it takes `primary()`, a statement of its own.

A look at the replicas every `replica_check` seconds (`check`, in each web
process) brings a down replica back, with a new pool, once it answers, and
skips one whose catalog may be older than `replica_max_lag` seconds until it
has caught up. How old is bounded two ways, the smaller taken: the age of
the last transaction it replayed, and the time since the primary had flushed
no more WAL than the replica has replayed (the primary's position is noted at
every look): the first is tight while the primary writes, the second while it
is quiet. Requests never wait for a look.

An API key's check and its count (voyager.api_use) go where reads go: on
a web without replicas the primary counts the request in the request's own
statement; a web with replicas judges it on a replica and holds the count
(`tally`, web/tally.py) for one write of many on the primary. `use` runs a
statement holding the key's check where it belongs, `used` holds what it
allowed.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import time
from dataclasses import dataclass, field

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from voyager.replicas import FLUSHED_SQL, LAG_SQL

from .config import WebConfig
from .tally import COUNTED, Tally

log = logging.getLogger("voyager.web.routing")

WEB_APPLICATION = "voyager web"


def _label(dsn: str) -> str:
    """host:port/database of a DSN, for the log (never its password)."""
    try:
        d = conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "(a replica)"
    return f"{d.get('host', '')}:{d.get('port', '5432')}/{d.get('dbname', '')}"


@dataclass(eq=False)
class Replica:
    dsn: str
    label: str
    state: str = "down"                 # up: read from; lagging: answers, skipped; down: no pool
    why: str = "not looked at yet"
    lag: float | None = None            # seconds its catalog may be behind, at the last look
    replayed: int | None = None         # the WAL position it had replayed then (None: not known)
    pool: AsyncConnectionPool | None = None
    checker: psycopg.AsyncConnection | None = None
    busy: int = 0                       # reads on it now
    picks: int = 0                      # reads sent to it
    turn: int = 0                       # when it was last picked: of the least busy, the longest unpicked

    def figures(self) -> dict:
        return {"replica": self.label, "state": self.state, "why": self.why,
                "lag_seconds": None if self.lag is None else round(self.lag, 3), "busy": self.busy,
                "reads": self.picks}


@dataclass
class Databases:
    config: WebConfig
    replicas: list[Replica] = field(default_factory=list)
    pool: AsyncConnectionPool | None = None          # the primary's
    # (monotonic seconds, the primary's flushed WAL position) at each look
    marks: collections.deque = field(default_factory=collections.deque)
    _watcher: asyncio.Task | None = None
    tally: Tally | None = None                       # the API's counts held (a web with replicas)
    _counter: asyncio.Task | None = None
    _stopping: asyncio.Event = field(default_factory=asyncio.Event)
    _closing: set = field(default_factory=set)
    _turns: int = 0

    def __post_init__(self):
        self.replicas = [Replica(d, _label(d)) for d in self.config.replicas]
        if self.replicas:
            c = self.config
            self.tally = Tally(keep_sent=c.replica_max_lag + 2 * c.replica_check + c.replica_timeout)

    def _kwargs(self) -> dict:
        config = self.config
        # named, so an operator (and the bench) can tell the web's backends in pg_stat_activity
        kwargs = {"autocommit": True, "prepare_threshold": 5 if config.prepare else None,
                  "application_name": WEB_APPLICATION}
        if config.prepare:
            # direct connections: the settings for the session (pgbouncer
            # refuses startup options; there `settings_for` sets them per transaction)
            kwargs["options"] = config.session_options()
        return kwargs

    def _pool(self, dsn: str, **kw) -> AsyncConnectionPool:
        size = self.config.pool_size
        return AsyncConnectionPool(dsn, min_size=min(2, size), max_size=size, open=False, **kw)

    async def open(self) -> None:
        self.pool = self._pool(self.config.dsn, kwargs=self._kwargs())
        await self.pool.open(wait=True, timeout=30)
        if self.replicas:
            await self.check()
            log.info("web: reading from %s", ", ".join(f"{r.label} ({r.state})" for r in self.replicas))
            self._watcher = asyncio.get_running_loop().create_task(self._watch())
            self._counter = asyncio.get_running_loop().create_task(self._count())

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        if self._counter is not None:
            # not cancelled mid-write: its last write is of the last counts held, before the pool closes
            self._stopping.set()
            await self._counter
        for rep in self.replicas:
            rep.state, rep.why = "down", "closed"
            self._drop(rep)
            if rep.checker is not None:
                await rep.checker.close()
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)
        await self.pool.close()

    @contextlib.asynccontextmanager
    async def primary(self):
        """A connection to the primary: every write, and what must see the writes just made."""
        async with self.pool.connection() as conn:
            yield conn

    async def read(self, fn, behind=None):
        """`await fn(conn)` on a replica that is up, the least busy; on the
        next one when its connection fails, and on the primary when none
        answers or `behind(result)` says the replica may not have replayed
        what is asked for yet."""
        tried: list[Replica] = []
        while (rep := self._pick(tried)) is not None:
            tried.append(rep)
            pool = rep.pool
            rep.busy += 1
            try:
                async with pool.connection(timeout=self.config.replica_timeout) as conn:
                    out = await fn(conn)
            except psycopg.errors.QueryCanceled:
                raise                       # the statement's own timeout: the server is fine, and so is the answer
            except psycopg.errors.TransactionRollback as e:
                # a standby cancels a read that conflicts with what it replays: asked elsewhere
                log.info("web: a read on %s was cancelled (%s), asked again elsewhere", rep.label, e.sqlstate)
                continue
            except PoolTimeout:
                continue                    # its connections are all busy (or not made yet): the next one
            except (psycopg.OperationalError, psycopg.InterfaceError) as e:
                if rep.pool is pool:
                    self._down(rep, f"{type(e).__name__}: {str(e).strip()[:200]}")
                continue
            finally:
                rep.busy -= 1
            if behind is None or not behind(out):
                return out
            break
        async with self.primary() as conn:
            return await fn(conn)

    # -- the key's check and count ----------------------------------------------------

    async def use(self, key: str, kind: str, fn, behind=None):
        """`await fn(conn, check)`, a statement holding the key's check of a
        request of `kind` ('request', 'download'), `check` voyager.api_use's
        arguments: on the primary, which counts the request in it, or where
        reads go when this process holds the counts (`behind` as `read`'s: a
        key or a release the replica has not replayed yet is the primary's to
        judge), the request counted in the others' judgements while it is under way."""
        if self.tally is None:
            async with self.primary() as conn:
                return await fn(conn, {"key": key, **COUNTED})
        check = {"key": key, **self.tally.params(key, kind)}
        self.tally.ask(key, kind, 1)
        try:
            return await self.read(lambda conn: fn(conn, check), behind=behind)
        finally:
            self.tally.ask(key, kind, -1)

    def used(self, key: str, user: dict, kind: str, release_id: int | None = None) -> None:
        """The key's check `user` (voyager.api_use's row) allowed a request
        `use` ran: held to be written, when it was judged and not counted."""
        if self.tally is not None and user["code"] == 0:
            self.tally.add(key, user["user_id"], kind, release_id)

    async def _count(self) -> None:
        while not self._stopping.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.config.tally_interval)
            try:
                await self.tally.flush(self)
            except Exception:
                log.exception("web: writing the API's counts failed")

    def _pick(self, tried: list[Replica]) -> Replica | None:
        up = [r for r in self.replicas if r.state == "up" and r not in tried]
        if not up:
            return None
        rep = min(up, key=lambda r: (r.busy, r.turn))
        self._turns += 1
        rep.turn, rep.picks = self._turns, rep.picks + 1
        return rep

    def _down(self, rep: Replica, why: str) -> None:
        if rep.state != "down":
            log.warning("web: replica %s is down (%s): read elsewhere until it answers", rep.label, why)
        rep.state, rep.why, rep.replayed = "down", why, None
        self._drop(rep)

    def _drop(self, rep: Replica) -> None:
        """Its pool closed: the connections in use as they come back (their
        reads end as they would), the idle ones and its reconnecting now."""
        pool, rep.pool = rep.pool, None
        if pool is not None:
            task = asyncio.get_running_loop().create_task(pool.close(timeout=1))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    # -- the looks ------------------------------------------------------------------

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.config.replica_check)
            try:
                await self.check()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("web: looking at the replicas failed")

    async def check(self) -> None:
        """One look: the primary's flushed WAL position, then every replica's."""
        started = time.monotonic()
        try:
            async with self.pool.connection(timeout=self.config.replica_timeout) as conn:
                cur = await conn.execute(FLUSHED_SQL)
                self.marks.append((started, (await cur.fetchone())[0]))
        except psycopg.Error:
            pass                            # the primary's trouble shows in the requests' own answers
        while self.marks and self.marks[0][0] < started - self.config.replica_max_lag - self.config.replica_check:
            self.marks.popleft()
        await asyncio.gather(*(self._look(rep) for rep in self.replicas))
        replayed = [rep.replayed for rep in self.replicas]
        if self.tally is not None and replayed and None not in replayed:
            self.tally.replayed(min(replayed))

    def lag(self, seen: dict, now: float) -> float:
        """Seconds the replica's catalog may be behind the primary's (at most):
        the age of the last transaction it replayed, or the time since the
        newest look at which the primary had flushed no more than it has
        replayed, whichever is less; infinite when neither is known."""
        out = seen["replayed_seconds"] if seen["replayed_seconds"] is not None else math.inf
        if seen["replayed_lsn"] is not None:
            for at, flushed in reversed(self.marks):
                if flushed <= seen["replayed_lsn"]:
                    out = min(out, now - at)
                    break
        return max(out, 0.0)

    async def _look(self, rep: Replica) -> None:
        timeout = self.config.replica_timeout
        try:
            if rep.checker is None or rep.checker.closed:
                rep.checker = await psycopg.AsyncConnection.connect(rep.dsn, autocommit=True, connect_timeout=max(
                    1, round(timeout)))
            cur = await asyncio.wait_for(rep.checker.execute(LAG_SQL), timeout)
            seen = dict(zip([c.name for c in cur.description], await cur.fetchone()))
        except (psycopg.Error, OSError, asyncio.TimeoutError) as e:
            if rep.checker is not None:
                with contextlib.suppress(Exception):
                    await rep.checker.close()
                rep.checker = None
            self._down(rep, f"{type(e).__name__}: {str(e).strip()[:200]}" if str(e).strip() else type(e).__name__)
            return
        rep.lag = self.lag(seen, time.monotonic())
        rep.replayed = seen["replayed_lsn"]
        if not seen["standby"]:
            self._skip(rep, "not a standby: it replays nothing of the primary")
        elif rep.lag > self.config.replica_max_lag:
            self._skip(rep, f"{rep.lag:.1f} s behind (at most {self.config.replica_max_lag:g})")
        elif rep.state != "up":
            if rep.pool is None:
                # a short connect timeout: a pool to a server gone fails fast
                pool = self._pool(rep.dsn, timeout=timeout, kwargs={**self._kwargs(), "connect_timeout": max(
                    1, round(timeout))})
                try:
                    await pool.open(wait=True, timeout=2 * timeout)
                except (psycopg.Error, OSError, asyncio.TimeoutError) as e:
                    await pool.close(timeout=1)
                    rep.why = f"its pool did not open: {type(e).__name__}"
                    return
                rep.pool = pool
            if rep.why != "not looked at yet":
                log.warning("web: replica %s is up (%.1f s behind at most)", rep.label, rep.lag)
            rep.state, rep.why = "up", ""

    def _skip(self, rep: Replica, why: str) -> None:
        """Answers, but not to be read from: its pool kept for when it has caught up."""
        if rep.state == "up":
            log.warning("web: replica %s skipped: %s", rep.label, why)
        rep.state, rep.why = "lagging", why

    def figures(self) -> list[dict]:
        """Each replica as this process last saw it (the status page)."""
        return [r.figures() for r in self.replicas]
