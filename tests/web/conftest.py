"""The web's fixtures: a seeded catalog (tests/web/catalog.py) and users made
once into a template database, a clone per test (or per module for the
read-only ones), the app through Sanic's ASGI client, and a real
`voyager web` server process for the outside clients and the browser."""
from __future__ import annotations

import itertools
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.request import urlopen

import psycopg
import psycopg.sql
import pytest

from tests.conftest import create_database, drop_database
from tests.pgserver import free_port
from tests.web.catalog import seed

ROOT = Path(__file__).resolve().parents[2]
_counter = itertools.count()

USERS = {"alice": "user", "root": "admin", "mallory": "user", "tiny": "user"}


@pytest.fixture(scope="session")
def web_template(admin_dsn, template_db):
    """(template name, release ids by name, API keys by user)."""
    name = f"voyager_webtpl_{os.getpid()}"
    dsn = create_database(admin_dsn, name, template=template_db[0])
    with psycopg.connect(dsn, autocommit=True) as conn:
        ids = seed(conn)
        keys = {u: conn.execute("SELECT voyager.add_user(%s, %s)", (u, role)).fetchone()[0]
                for u, role in USERS.items()}
        conn.execute("UPDATE voyager.users SET suspended = true WHERE name = 'mallory'")
        conn.execute("UPDATE voyager.users SET requests_per_day = 3, downloads_per_day = 1 WHERE name = 'tiny'")
        conn.execute("VACUUM ANALYZE")
    yield name, ids, keys
    drop_database(admin_dsn, name)


def _clone(admin_dsn, web_template) -> tuple[str, str]:
    name = f"voyager_web_{os.getpid()}_{next(_counter)}"
    return name, create_database(admin_dsn, name, template=web_template[0])


@pytest.fixture
def web_dsn(admin_dsn, web_template):
    name, dsn = _clone(admin_dsn, web_template)
    yield dsn
    drop_database(admin_dsn, name)


@pytest.fixture(scope="module")
def shared_dsn(admin_dsn, web_template):
    """One clone for a module's read-only tests."""
    name, dsn = _clone(admin_dsn, web_template)
    yield dsn
    drop_database(admin_dsn, name)


@pytest.fixture(scope="session")
def ids(web_template) -> dict[str, int]:
    return web_template[1]


@pytest.fixture(scope="session")
def keys(web_template) -> dict[str, str]:
    return web_template[2]


def make_app(dsn: str, **overrides):
    from web.app import create_app
    from web.config import WebConfig

    return create_app(WebConfig(dsn=dsn, base_url="http://indexer.test", **overrides))


@pytest.fixture
def app(web_dsn):
    return make_app(web_dsn)


@pytest.fixture(scope="module")
def shared_app(shared_dsn):
    return make_app(shared_dsn)


class Live:
    def __init__(self, dsn: str, port: int, proc: subprocess.Popen):
        self.dsn, self.port, self.proc = dsn, port, proc
        self.base = f"http://127.0.0.1:{port}"


def start_server(dsn: str, **env: str) -> Live:
    port = free_port()
    env = dict(os.environ, VOYAGER_WEB_DSN=dsn, VOYAGER_WEB_POOL="4", **env)
    env.pop("VOYAGER_WEB_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "voyager.cli", "web", "--host", "127.0.0.1", "--port", str(port),
                             "--workers", "1"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urlopen(f"http://127.0.0.1:{port}/api?t=caps", timeout=2) as r:
                if r.status == 200:
                    return Live(dsn, port, proc)
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            err = proc.stderr.read().decode(errors="replace") if proc.poll() is not None else ""
            stop_server(proc)
            raise RuntimeError(f"voyager web did not start: {err[-2000:]}")
        time.sleep(0.2)


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.fixture(scope="module")
def live(shared_dsn):
    """A real `voyager web` process on the module's clone."""
    server = start_server(shared_dsn)
    yield server
    stop_server(server.proc)


def dbname_of(dsn: str) -> str:
    from psycopg.conninfo import conninfo_to_dict

    return conninfo_to_dict(dsn)["dbname"]


@pytest.fixture
def pooled_dsn(pg_server, web_dsn):
    """The clone through the project's pgbouncer (transaction pooling), as
    `voyager db up` runs it: what VOYAGER_WEB_PREPARE=0 is for."""
    from voyager.cluster import Bouncer

    _admin, cluster = pg_server
    if cluster is None:
        pytest.skip("pgbouncer is started with the project's own cluster")
    dbname = dbname_of(web_dsn)
    bouncer = Bouncer(workdir=cluster.datadir.parent / f"bouncer-{dbname}", port=free_port(), pg_host=cluster.host,
                      pg_port=cluster.port, database=dbname, user=cluster.user)
    bouncer.start()
    try:
        yield f"postgresql://{cluster.user}@127.0.0.1:{bouncer.port}/{dbname}"
    finally:
        bouncer.stop()


class ServerLog:
    """The test cluster's log from a point on: its entries for one database
    (log_line_prefix '%m [%p] %d ')."""
    ENTRY = re.compile(rb"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \S+ \[\d+\] (\S*) ", re.M)

    def __init__(self, cluster, dbname: str):
        self.path, self.dbname = cluster.logfile, dbname.encode()
        self.mark()

    def mark(self) -> None:
        self.start = self.path.stat().st_size

    def entries(self) -> list[str]:
        with open(self.path, "rb") as fh:
            fh.seek(self.start)
            text = fh.read()
        starts = list(self.ENTRY.finditer(text))
        out = []
        for m, nxt in zip(starts, starts[1:] + [None]):
            if m.group(1) == self.dbname:
                out.append(text[m.end():nxt.start() if nxt else len(text)].decode(errors="replace"))
        return out


@pytest.fixture
def server_log(pg_server, web_dsn):
    """Every statement of the clone logged with its plan (auto_explain, nested
    statements too), for tests that look at what a request ran."""
    _admin, cluster = pg_server
    if cluster is None:
        pytest.skip("the server log is read on the project's own cluster")
    dbname = dbname_of(web_dsn)
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        for name, value in (("log_statement", "all"), ("session_preload_libraries", "auto_explain"),
                            ("auto_explain.log_min_duration", "0"), ("auto_explain.log_nested_statements", "on"),
                            ("auto_explain.log_settings", "on")):
            conn.execute(f'ALTER DATABASE "{dbname}" SET {name} = {psycopg.sql.quote(value)}')
    return ServerLog(cluster, dbname)
