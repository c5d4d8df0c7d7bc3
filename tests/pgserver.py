"""Where the tests get a PostgreSQL server with plpython3u and pg_trgm.

In order: VOYAGER_TEST_DSN (an existing server that lets us create databases);
a throwaway cluster started with pg_ctl when PostgreSQL 15 is installed here;
testcontainers when a Docker engine answers and no local PostgreSQL is.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from voyager.cluster import Cluster, free_port  # noqa: F401 (tests import free_port from here)
from voyager.config import pg_bindir

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _local_postgres() -> bool:
    try:
        return (pg_bindir() / "postgres").exists()
    except RuntimeError:
        return False


def _docker_answers() -> bool:
    if not shutil.which("docker"):
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@contextlib.contextmanager
def throwaway_cluster():
    """A cluster in a temporary folder, fast and not durable, removed after."""
    base = Path(tempfile.mkdtemp(prefix="voyager-test-"))
    os.chmod(base, 0o755)  # the postgres user must reach it when we are root
    cluster = Cluster(
        datadir=base / "data", port=free_port(),
        settings={"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
                  "shared_buffers": "128MB"},
    )
    cluster.init()
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(base, ignore_errors=True)


@contextlib.contextmanager
def container_server():
    """Debian's PostgreSQL 15 in a container, with PL/Python and this
    checkout's plpython package and compiled codec installed into the container's python3."""
    from testcontainers.postgres import PostgresContainer

    with PostgresContainer("postgres:15-bookworm", username="voyager", password="voyager",
                           dbname="postgres") as pg:
        container = pg.get_wrapped_container()
        code, out = container.exec_run(
            ["sh", "-c", "apt-get update -q && apt-get install -y -q postgresql-plpython3-15"])
        if code != 0:
            raise RuntimeError(f"installing PL/Python in the container failed: {out[-2000:]!r}")
        import io
        import tarfile

        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            tar.add(PROJECT_ROOT / "plpython" / "voyager_pl", arcname="voyager_pl")
            # the compiled codec beside it, as scripts/setup.sh installs it (bookworm's python3 is 3.11 too)
            tar.add(_compiled_codec(), arcname="voyager_pl_ext/" + _compiled_codec().name)
            info = tarfile.TarInfo("voyager_pl_ext/__init__.py")
            tar.addfile(info, io.BytesIO(b""))
        container.put_archive("/usr/local/lib/python3.11/dist-packages", buf.getvalue())
        host, port = pg.get_container_host_ip(), pg.get_exposed_port(5432)
        yield f"postgresql://voyager:voyager@{host}:{port}/postgres"


def _compiled_codec() -> Path:
    found = sorted((PROJECT_ROOT / "ext").glob("codec.cpython-311-*.so"))
    if not found:
        raise RuntimeError("ext/codec.pyx is not built for CPython 3.11: run scripts/setup.sh")
    return found[0]


def check_server_python(admin_dsn: str) -> None:
    """The server's PL/Python loads voyager_pl and the compiled codec
    (voyager_pl_ext), the only NZB writer there is; RuntimeError if not."""
    import psycopg
    from psycopg import sql

    name = f"voyager_pl_check_{os.getpid()}"
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        with psycopg.connect(admin_dsn, dbname=name, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION plpython3u")
            conn.execute("DO $$ from voyager_pl.nzb import build; from voyager_pl_ext.codec import nzb $$ "
                         "LANGUAGE plpython3u")
    except psycopg.Error as e:
        raise RuntimeError("the test server's python3 cannot load voyager_pl and the compiled codec "
                           f"(voyager_pl_ext): run scripts/setup.sh where the server runs ({e})") from None
    finally:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@contextlib.contextmanager
def open_server():
    """Yields (admin DSN to the `postgres` database, Cluster or None), its
    PL/Python checked for the compiled codec."""
    dsn = os.environ.get("VOYAGER_TEST_DSN")
    if dsn:
        check_server_python(dsn)
        yield dsn, None
    elif _local_postgres():
        with throwaway_cluster() as cluster:
            check_server_python(cluster.dsn())
            yield cluster.dsn(), cluster
    elif _docker_answers():
        with container_server() as dsn:
            check_server_python(dsn)
            yield dsn, None
    else:
        raise RuntimeError("no PostgreSQL for the tests: run `make setup`, or set VOYAGER_TEST_DSN")
