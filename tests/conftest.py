"""The test harness: a real PostgreSQL, the schema deployed once with sqitch
into a template database, and a fresh database cloned from it per test."""
from __future__ import annotations

import itertools
import os

import psycopg
import pytest
from psycopg import sql

from tests.pgserver import open_server
from voyager import sqitch

_counter = itertools.count()


def _dsn_for(admin_dsn: str, dbname: str) -> str:
    return psycopg.conninfo.make_conninfo(admin_dsn, dbname=dbname)


@pytest.fixture(scope="session")
def pg_server():
    """(admin DSN, Cluster or None) of the server the tests use."""
    with open_server() as server:
        yield server


@pytest.fixture(scope="session")
def admin_dsn(pg_server) -> str:
    return pg_server[0]


def create_database(admin_dsn: str, name: str, template: str | None = None) -> str:
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        if template:
            conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template)))
        else:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return _dsn_for(admin_dsn, name)


def drop_database(admin_dsn: str, name: str) -> None:
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture(scope="session")
def template_db(admin_dsn):
    """The schema deployed once, with sqitch, into a template database."""
    name = f"voyager_template_{os.getpid()}"
    dsn = create_database(admin_dsn, name)
    sqitch.run(dsn, "deploy")
    yield name, dsn
    drop_database(admin_dsn, name)


@pytest.fixture
def db_dsn(admin_dsn, template_db):
    """A fresh database cloned from the template, for one test."""
    name = f"voyager_test_{os.getpid()}_{next(_counter)}"
    dsn = create_database(admin_dsn, name, template=template_db[0])
    yield dsn
    drop_database(admin_dsn, name)


@pytest.fixture
def conn(db_dsn):
    with psycopg.connect(db_dsn, autocommit=True) as c:
        yield c


@pytest.fixture
def connect(db_dsn):
    """Opens more connections to the test's database (closed after the test)."""
    opened: list[psycopg.Connection] = []

    def _open(**kw) -> psycopg.Connection:
        c = psycopg.connect(db_dsn, autocommit=kw.pop("autocommit", True), **kw)
        opened.append(c)
        return c

    yield _open
    for c in opened:
        c.close()
