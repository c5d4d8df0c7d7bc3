"""The Sanic application: `create_app(config) -> Sanic`, one Blueprint per area
(the Newznab API, the pages), the database pools (web/routing.py: the
primary's, a replica's each) opened before the server starts and closed
after it stops."""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging

from sanic import Sanic

from .config import WebConfig
from .labels import Labels
from .feeds import Categories
from .routing import Databases
from .search import Totals

log = logging.getLogger("voyager.web")
_names = itertools.count()
REFRESH_SECONDS = 30
HEAP_TOP_PAD = 16 << 20


def keep_heap_pad(pad: int = HEAP_TOP_PAD) -> bool:
    """glibc's malloc: grow the heap `pad` bytes more than asked and keep that
    much when trimming it. A download's half-megabyte NZB (and its copy with
    the headers) then reuses pages from the last one instead of new ones the
    kernel zeroes: by default the heap's top goes back to the kernel after each
    response and comes back faulted in, page by page (a third of the web's CPU
    for `get`). False where there is no glibc."""
    try:
        import ctypes

        return bool(ctypes.CDLL("libc.so.6").mallopt(-2, pad))     # M_TOP_PAD
    except (OSError, AttributeError):
        return False


async def load_catalog_facts(conn) -> tuple[Categories, set[str]]:
    """The category tree and the kinds of outside IDs the catalog knows (of
    releases a search finds: an ID only judged-hidden releases carry finds nothing)."""
    cur = await conn.execute("SELECT id, parent_id, name FROM voyager.categories")
    rows = await cur.fetchall()
    cats = Categories(names={i: n for i, _p, n in rows}, parents={i: p for i, p, _n in rows})
    cur = await conn.execute("SELECT kind FROM (VALUES ('tvdb'), ('tvmaze'), ('tvrage'), ('imdb'), ('tmdb'), ('trakt')) k(kind) "
                             "WHERE EXISTS (SELECT 1 FROM voyager.release_media_ids m WHERE m.kind = k.kind "
                             "AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j "
                             "WHERE j.release_id = m.release_id AND j.hidden))")
    kinds = {k for (k,) in await cur.fetchall()}
    return cats, kinds


def create_app(config: WebConfig | None = None) -> Sanic:
    from . import api, pages
    from .api import Responses

    config = config or WebConfig.from_env()
    app = Sanic(f"voyager_web_{next(_names)}")
    app.config.FALLBACK_ERROR_FORMAT = "text"
    app.config.REQUEST_MAX_SIZE = 64 * 1024
    app.config.KEEP_ALIVE_TIMEOUT = 30
    app.ctx.web = config
    app.ctx.totals = Totals()
    app.ctx.labels = Labels()
    app.ctx.responses = Responses()
    app.blueprint(api.bp)
    app.blueprint(pages.bp)

    @app.before_server_start
    async def open_pools(app: Sanic, _loop=None) -> None:
        keep_heap_pad()                 # in each worker process
        app.ctx.db = Databases(config)
        await app.ctx.db.open()
        await refresh(app)
        await app.ctx.db.read(app.ctx.labels.load)
        app.ctx.refresher = asyncio.get_running_loop().create_task(_refresh_loop(app))

    @app.after_server_stop
    async def close_pools(app: Sanic, _loop=None) -> None:
        task = getattr(app.ctx, "refresher", None)
        if task is not None:
            task.cancel()
        await app.ctx.db.close()

    return app


@contextlib.asynccontextmanager
async def settings_for(conn, config: WebConfig):
    """The statements inside run under `config.statement_settings()`: a direct
    connection has them for its session; through pgbouncer (no prepared
    statements, a server connection shared between clients) they are set for
    one transaction, as SET LOCAL does, and end with it."""
    if config.prepare:
        yield
        return
    settings = config.statement_settings()
    async with conn.transaction():
        await conn.execute("SELECT " + ", ".join(["set_config(%s, %s, true)"] * len(settings)),
                           [x for kv in settings.items() for x in kv])
        yield


async def refresh(app: Sanic) -> None:
    app.ctx.cats, app.ctx.id_kinds = await app.ctx.db.read(load_catalog_facts)


async def _refresh_loop(app: Sanic) -> None:
    """Catalog facts now and then; the change counter's rows folded into one
    and the shared totals of past states dropped (on the primary)."""
    while True:
        await asyncio.sleep(REFRESH_SECONDS)
        try:
            await refresh(app)
            async with app.ctx.db.primary() as conn:
                await conn.execute("SELECT voyager.compact_catalog_changes()")
                await conn.execute("DELETE FROM voyager.search_totals WHERE state < voyager.catalog_state()")
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("web: refreshing the catalog facts failed")
