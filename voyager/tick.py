"""`voyager tick`: the periodic jobs of `voyager.jobs`, run by one small loop.

The schedule lives in the database, so any number of tick processes on any
machines share it: `voyager.claim_due_job` hands a due job to one of them
(FOR UPDATE SKIP LOCKED) and moves its due time a period ahead at once, with a
token and a lease; `voyager.finish_job` records the result or the error. A
failing job is recorded and tried again next period; nothing a job does ends
the loop. SIGTERM/SIGINT: the job in hand finishes and is recorded, then the
loop exits.

Jobs of kind `sql` are functions the database runs (`voyager.run_sql_job`);
jobs of kind `python` are handlers registered here with `@job(name)`: the tail
planner, which needs the news server's LIST ACTIVE. Phase 2 adds a job with a
row in `voyager.jobs` and, for a python one, a handler in a module named in
VOYAGER_TICK_MODULES (imported at start).
"""
from __future__ import annotations

import importlib
import json
import logging
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import psycopg
from psycopg.types.json import Jsonb

log = logging.getLogger("voyager.tick")


@dataclass
class JobContext:
    conn: psycopg.Connection       # autocommit; the tick's own connection
    node: str
    name: str
    timeout: float                 # seconds: the claim's lease; statements are held to it
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)

    def statement(self, query, params=None):
        """One statement in its own transaction, held to the job's lease."""
        with self.conn.transaction():
            self.conn.execute("SELECT set_config('statement_timeout', %s, true)", (f"{int(self.timeout * 1000)}",))
            return self.conn.execute(query, params).fetchall()


Handler = Callable[[JobContext], Any]
HANDLERS: dict[str, Handler] = {}


def job(name: str) -> Callable[[Handler], Handler]:
    """Registers the handler of a python job (a row of voyager.jobs with kind 'python')."""
    def register(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn
    return register


def load_modules(environ: Mapping[str, str] | None = None) -> None:
    """VOYAGER_TICK_MODULES: comma-separated modules whose @job handlers this tick runs too."""
    env = os.environ if environ is None else environ
    for name in (env.get("VOYAGER_TICK_MODULES") or "").split(","):
        if name.strip():
            importlib.import_module(name.strip())


# -- the tail planner ---------------------------------------------------------------------------

def nntp_configured(environ: Mapping[str, str]) -> bool:
    """As the worker decides: a news server is configured when its host or port is given."""
    return bool(environ.get("VOYAGER_NNTP_HOST") or environ.get("VOYAGER_NNTP_PORT"))


@job("tail_plan")
def tail_plan(ctx: JobContext) -> dict:
    """LIST ACTIVE of the news server into voyager.plan_groups: the groups already
    planned get their new articles planned (the open tail range grows, then tail
    ranges are added); groups `tail_plan_wildmat` accepts are added when they
    appear. No server configured, or none reachable: skipped with a warning."""
    from voyager_pl.wildmat import match
    from workers.nntp import NntpBusy, NntpConfig, NntpConnectionLost, NntpTemporaryError
    from workers.planner import NoConnectionFree, list_active_claimed

    if not nntp_configured(ctx.environ):
        reason = "no news server configured (VOYAGER_NNTP_HOST)"
        log.warning("tail_plan skipped: %s", reason)
        return {"skipped": reason}
    row = ctx.conn.execute("SELECT value FROM voyager.settings WHERE name = 'tail_plan_wildmat'").fetchone()
    wildmat = (row[0] if row else "").strip() or None
    known = {r[0] for r in ctx.conn.execute("SELECT name FROM voyager.groups")}
    if not known and not wildmat:
        return {"skipped": "no group planned yet and tail_plan_wildmat is empty"}
    cfg = NntpConfig.from_env(ctx.environ)
    try:
        # its connection from the account's budget, like every worker's
        listing = list_active_claimed(ctx.conn, f"{ctx.node}/tail_plan", cfg, None, retries=1)
    except NoConnectionFree as e:
        log.warning("tail_plan skipped: %s", e)
        return {"skipped": str(e)}
    except (NntpConnectionLost, NntpBusy, NntpTemporaryError) as e:
        reason = f"news server {cfg.host}:{cfg.port} not reachable: {e}"
        log.warning("tail_plan skipped: %s", reason)
        return {"skipped": reason}
    rows = [r for r in listing if r["name"] in known or (wildmat and match(wildmat, r["name"]))]
    result = ctx.statement("SELECT * FROM voyager.plan_groups(%s)", (Jsonb(rows),)) if rows else []
    planned = [p for p in result if p[6] is None]
    refused = {p[0]: p[6] for p in result if p[6] is not None}     # absurd watermarks, refused by name
    if refused:
        log.warning("tail_plan: LIST ACTIVE rows refused: %s", refused)
    listed = {r["name"] for r in listing}
    return {
        "groups_listed": len(listing),
        "groups_planned": len(planned),
        "groups_refused": len(refused),
        "refused": refused,
        "groups_added": sum(1 for p in planned if p[2]),
        "groups_missing": len(known - listed),      # planned groups the server no longer lists
        "ranges_added": sum(p[3] for p in planned),
        "ranges_grown": sum(p[4] for p in planned),
        "articles_planned": int(sum(p[5] for p in planned)),
    }


# -- posting dates ------------------------------------------------------------------------------

SLICE_ARTICLES = 32      # one XOVER of this many articles a sample


@job("sample_dates")
def sample_dates(ctx: JobContext) -> dict:
    """When the groups' articles were posted: for the groups voyager.date_samples_due
    names (never sampled, then the longest ago), a 32-article XOVER every 500 M
    articles (16 to 1,000 a group) into voyager.record_group_dates, then the
    ranges' dates from the curve (voyager.estimate_range_dates), so maxage and
    capture windows by date work. Its one NNTP connection comes from the budget
    (voyager.nntp_claim, the headers role) and goes back at the end. No server
    configured, none reachable, or no connection free: skipped with a warning."""
    from workers.nntp import (NntpBusy, NntpConfig, NntpConnection, NntpConnectionLost, NntpNoSuchGroup,
                              NntpTemporaryError)
    from workers.nntp import sample_dates as sample

    if not nntp_configured(ctx.environ):
        reason = "no news server configured (VOYAGER_NNTP_HOST)"
        log.warning("sample_dates skipped: %s", reason)
        return {"skipped": reason}
    row = ctx.conn.execute("SELECT voyager.setting_int('sample_dates_groups')").fetchone()
    due = ctx.conn.execute("SELECT * FROM voyager.date_samples_due(%s)", (int(row[0]),)).fetchall()
    if not due:
        return {"groups": 0, "samples": 0, "ranges_dated": 0}
    cfg = NntpConfig.from_env(ctx.environ)
    node = f"{ctx.node}/dates"

    def claim() -> int:
        return ctx.conn.execute("SELECT voyager.nntp_claim(%s, 'headers', 1, %s)",
                                (node, cfg.connections)).fetchone()[0]

    if claim() < 1:
        reason = "no NNTP connection free in the budget"
        log.warning("sample_dates skipped: %s", reason)
        ctx.conn.execute("SELECT voyager.nntp_release(%s, 'headers')", (node,))
        return {"skipped": reason}
    out = {"groups": 0, "samples": 0, "ranges_dated": 0, "missing": 0}
    try:
        with NntpConnection(cfg) as conn:
            for group, low, high, n in due:
                claim()                   # renewed between groups: a long run keeps its connection
                try:
                    got = sample(conn, group, low, high, n=n, slice_articles=SLICE_ARTICLES)
                except NntpNoSuchGroup:
                    out["missing"] += 1
                    continue
                ctx.statement("SELECT voyager.record_group_dates(%s, %s)", (group, Jsonb(got)))
                out["ranges_dated"] += ctx.statement("SELECT voyager.estimate_range_dates(%s)", (group,))[0][0]
                out["groups"] += 1
                out["samples"] += len(got)
    except (NntpConnectionLost, NntpBusy, NntpTemporaryError) as e:
        reason = f"news server {cfg.host}:{cfg.port} not reachable: {e}"
        log.warning("sample_dates skipped: %s", reason)
        return {"skipped": reason, **out}
    finally:
        ctx.conn.execute("SELECT voyager.nntp_release(%s, 'headers')", (node,))
    return out


# -- spots --------------------------------------------------------------------------------------

def _nntp_job(ctx: JobContext, name: str, run: Callable[[Any], dict]) -> dict:
    """A job that reads the news server through a worker's own pass (its own
    connection claimed from the budget under the worker's role, on a node
    name of its own): no server configured, or none reachable, is a skip."""
    from workers.nntp import NntpBusy, NntpConfig, NntpConnectionLost, NntpTemporaryError

    if not nntp_configured(ctx.environ):
        reason = "no news server configured (VOYAGER_NNTP_HOST)"
        log.warning("%s skipped: %s", name, reason)
        return {"skipped": reason}
    cfg = NntpConfig.from_env(ctx.environ)
    try:
        out = run(cfg)
    except (NntpConnectionLost, NntpBusy, NntpTemporaryError) as e:
        reason = f"news server {cfg.host}:{cfg.port} not reachable: {e}"
        log.warning("%s skipped: %s", name, reason)
        return {"skipped": reason}
    if out.get("error"):
        log.warning("%s skipped: %s", name, out["error"])
        return {"skipped": out["error"], **{k: v for k, v in out.items() if k != "error"}}
    return out


@job("spots_read")
def spots_read(ctx: JobContext) -> dict:
    """The spotter's pass (workers.spotter.read_spots): free.pt's new spots
    read, verified and stored, on the spots role's connection."""
    from workers.spotter import read_spots
    return _nntp_job(ctx, "spots_read", lambda cfg: read_spots(ctx.conn, f"{ctx.node}/spots", cfg))


@job("spots_inspect")
def spots_inspect(ctx: JobContext) -> dict:
    """The spot inspector's pass (workers.inspector.inspect_spots): the newest
    uninspected spots' NZBs read from alt.binaries.ftd on its own spots
    connection, matched to their releases; then settle_spots."""
    from workers.inspector import inspect_spots
    return _nntp_job(ctx, "spots_inspect", lambda cfg: inspect_spots(ctx.conn, f"{ctx.node}/inspect", cfg))


# -- the loop -----------------------------------------------------------------------------------

class Tick:
    """Claims and runs due jobs until stopped; `run_due()` is one pass (`--once`)."""

    def __init__(self, dsn: str, node: str | None = None, interval: float = 5.0,
                 handlers: Mapping[str, Handler] | None = None, environ: Mapping[str, str] | None = None,
                 emit: Callable[[dict], None] | None = None):
        self.dsn = dsn
        self.node = node or f"{os.uname().nodename}/tick"
        self.interval = interval
        self.handlers = dict(HANDLERS if handlers is None else handlers)
        self.environ = os.environ if environ is None else environ
        self.emit = emit or (lambda r: None)
        self.stopping = threading.Event()
        self.conn: psycopg.Connection | None = None

    def request_stop(self, *_args) -> None:
        self.stopping.set()

    def _connection(self) -> psycopg.Connection:
        if self.conn is None or self.conn.closed or self.conn.broken:
            # no server-side prepared statements: the tick of another host goes through pgbouncer
            self.conn = psycopg.connect(self.dsn, autocommit=True, prepare_threshold=None,
                                        application_name=f"voyager tick {self.node}"[:63])
        return self.conn

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def run_due(self) -> list[dict]:
        """Every job due now, once each (a job whose period passed again meanwhile
        waits for the next pass); stops claiming when asked to stop."""
        conn = self._connection()
        ran: list[str] = []
        out: list[dict] = []
        while not self.stopping.is_set():
            row = conn.execute("SELECT * FROM voyager.claim_due_job(%s, %s, %s)",
                               (self.node, sorted(self.handlers), ran)).fetchone()
            if row is None:
                break
            name, kind, _function, claim, timeout = row
            ran.append(name)
            record = self.run_one(name, kind, claim, timeout.total_seconds())
            out.append(record)
            self.emit(record)
        return out

    def run_one(self, name: str, kind: str, claim, timeout: float) -> dict:
        conn = self._connection()
        t0 = time.monotonic()
        result = error = None
        try:
            if kind == "sql":
                ctx = JobContext(conn, self.node, name, timeout, self.environ)
                result = ctx.statement("SELECT voyager.run_sql_job(%s)", (name,))[0][0]
            else:
                result = self.handlers[name](JobContext(conn, self.node, name, timeout, self.environ))
            json.dumps(result)                       # what finish_job stores must be JSON
        except Exception as e:                       # recorded, tried again next period
            error = f"{type(e).__name__}: {e}".strip()
            result = None
            log.warning("job %s failed: %s", name, error)
        conn = self._connection()                    # the job may have lost it
        recorded = conn.execute("SELECT voyager.finish_job(%s, %s, %s, %s)",
                                (name, claim, None if result is None else Jsonb(result), error)).fetchone()[0]
        if not recorded:
            log.warning("job %s: its claim ran out before it finished; not recorded", name)
        return {"job": name, "seconds": round(time.monotonic() - t0, 3), "result": result, "error": error,
                "recorded": recorded}

    def _next_due_in(self) -> float:
        row = self._connection().execute(
            """SELECT extract(epoch FROM min(greatest(next_run_at, coalesce(expires_at, next_run_at))) - now())
                 FROM voyager.jobs WHERE enabled AND (kind = 'sql' OR name = ANY (%s))""",
            (sorted(self.handlers),)).fetchone()
        return float(row[0]) if row and row[0] is not None else self.interval

    def run(self, once: bool = False) -> int:
        """The loop (or one pass with once). Returns 1 when a pass of --once had a
        failed job or the database was unreachable, else 0."""
        failed = False
        while not self.stopping.is_set():
            wait = self.interval
            try:
                failed = any(r["error"] for r in self.run_due()) or failed
                if not once:
                    wait = min(self.interval, max(0.2, self._next_due_in()))
            except psycopg.Error as e:               # the database went away: try again later
                log.warning("database: %s; trying again in %g s", str(e).strip(), self.interval)
                self.close()
                failed = True
            if once:
                break
            self.stopping.wait(wait)
        self.close()
        return 1 if once and failed else 0


def main(args, dsn: str) -> int:
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    load_modules()

    def emit(record: dict) -> None:
        print(json.dumps(record, default=str), flush=True)

    tick = Tick(dsn, node=args.node, interval=args.interval, emit=emit)
    signal.signal(signal.SIGTERM, tick.request_stop)
    signal.signal(signal.SIGINT, tick.request_stop)
    return tick.run(once=args.once)
