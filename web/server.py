"""`voyager web [--host H] [--port P] [--workers N] [--replica DSN ...]`: the API and the pages."""
from __future__ import annotations

import logging
import os
from functools import partial

from .config import WebConfig


def _factory(dsn: str | None, replicas: list[str] | None = None, replica_max_lag: float | None = None):
    from .app import create_app

    overrides = {"dsn": dsn} if dsn else {}
    if replicas:
        overrides["replicas"] = replicas
    if replica_max_lag is not None:
        overrides["replica_max_lag"] = replica_max_lag
    return create_app(WebConfig.from_env(**overrides))


def default_workers() -> int:
    """A worker process for every third core: a request costs the database
    about twice the web's CPU, and more workers than the web needs split the
    clients unevenly between their queues (2 cores, 16 clients: search p95
    41/41 ms with one worker, 37-55 with two)."""
    return max(1, (os.cpu_count() or 1) // 3)


def pool_size(workers: int) -> int:
    """Database connections a worker process: three a core, shared, 3 at least."""
    return max(3, 3 * (os.cpu_count() or 1) // max(workers, 1))


def serve(host: str, port: int, workers: int = 0, dsn: str | None = None, access_log: bool = False,
          replicas: list[str] | None = None, replica_max_lag: float | None = None) -> int:
    from sanic import Sanic
    from sanic.worker.loader import AppLoader

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    workers = workers or default_workers()
    # a few database connections a core (the workers share them): more only
    # timeshare the cores among more statements, and the tail latency grows
    # (measured, 2 cores, 2 workers, 16 clients: search p95 33 ms with 3 a
    # worker, 41 with 4, 53 with 8)
    os.environ.setdefault("VOYAGER_WEB_POOL", str(pool_size(workers)))
    loader = AppLoader(factory=partial(_factory, dsn, replicas, replica_max_lag))
    app = loader.load()
    if workers == 1:
        app.prepare(host=host, port=port, access_log=access_log, motd=False, single_process=True)
        Sanic.serve_single(primary=app)
    else:
        app.prepare(host=host, port=port, workers=workers, access_log=access_log, motd=False)
        Sanic.serve(primary=app, app_loader=loader)
    return 0
