"""The schema under sqitch: deploy, verify, full revert, deploy again; the
committed dump; PL/Python running in the server's own Python."""
from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from tests.conftest import create_database, drop_database
from tests.helpers import lease, next_range, plan
from tests.schema_dump import schema_dump
from voyager import sqitch

ROOT = Path(__file__).resolve().parent.parent


def test_every_change_has_deploy_revert_and_verify():
    changes = [line.split()[0] for line in (ROOT / "sqitch.plan").read_text().splitlines()
               if line and not line.startswith(("%", "#", "@"))]
    assert len(changes) >= 20
    for change in changes:
        for folder in ("deploy", "revert", "verify"):
            assert (ROOT / folder / f"{change}.sql").exists(), f"{folder}/{change}.sql missing"


def test_revert_to_nothing_and_deploy_again_on_a_database_in_use(admin_dsn):
    name = "voyager_revert_cycle"
    dsn = create_database(admin_dsn, name)
    try:
        sqitch.run(dsn, "deploy")
        with psycopg.connect(dsn, autocommit=True) as conn:
            plan(conn, [{"name": "alt.binaries.a", "low": 10, "high": 5_000_000},
                        {"name": "alt.binaries.b", "low": 1, "high": 300}])
            held = lease(conn, "history", "n1")
            assert next_range(conn, held["token"]) is not None
            conn.execute("SELECT voyager.add_rule_set('{\"garbage\": []}', 'first')")
        sqitch.run(dsn, "verify")
        sqitch.run(dsn, "revert", "-y")
        with psycopg.connect(dsn, autocommit=True) as conn:
            assert conn.execute("SELECT count(*) FROM pg_namespace WHERE nspname = 'voyager'").fetchone()[0] == 0
        sqitch.run(dsn, "deploy")
        out = sqitch.run(dsn, "verify")
        assert "Verify successful" in out.stdout
        with psycopg.connect(dsn, autocommit=True) as conn:
            assert conn.execute("SELECT count(*) FROM voyager.groups").fetchone()[0] == 0
    finally:
        drop_database(admin_dsn, name)


def test_deployed_schema_equals_the_committed_dump(template_db):
    committed = (ROOT / "sql" / "schema.sql").read_text()
    assert schema_dump(template_db[1]) == committed, "schema changed: run `make schema` and review sql/schema.sql"


def test_plpython_runs_in_the_server(conn):
    # voyager.wildmat is PL/Python importing voyager_pl from the server's python3.
    assert conn.execute("SELECT voyager.wildmat('alt.binaries.*,!*.d', 'alt.binaries.teevee')").fetchone()[0]
    assert not conn.execute("SELECT voyager.wildmat('alt.binaries.*,!*.d', 'alt.binaries.teevee.d')").fetchone()[0]
    assert not conn.execute("SELECT voyager.wildmat('alt.binaries.*', 'comp.lang.python')").fetchone()[0]
    assert conn.execute("SELECT voyager.wildmat('a.b.?oneless', 'a.b.boneless')").fetchone()[0]
    lang = conn.execute("""SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
                            WHERE p.oid = 'voyager.wildmat(text,text)'::regprocedure""").fetchone()[0]
    assert lang == "plpython3u"


@pytest.mark.parametrize("pattern,name,expected", [
    ("*", "anything", True),
    ("alt.binaries.*", "alt.binaries.x", True),
    ("alt.binaries.*,!alt.binaries.x", "alt.binaries.x", False),
    ("!alt.binaries.x,alt.binaries.*", "alt.binaries.x", True),   # the last match decides
    ("alt.binaries.[mt]*", "alt.binaries.teevee", True),
    ("alt.binaries.[mt]*", "alt.binaries.boneless", False),
    ("", "alt.binaries.x", False),
])
def test_wildmat_rules(pattern, name, expected):
    from voyager_pl.wildmat import match

    assert match(pattern, name) is expected
