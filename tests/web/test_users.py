"""`voyager users`: a key printed by `add`, roles and their quotas, suspension and
a fresh key; and the quota counter under concurrent requests."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg

from tests.web.util import api, error_code, feed

ROOT = Path(__file__).resolve().parents[2]
VOYAGER = str(Path(sys.executable).parent / "voyager")


def voyager(dsn: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, VOYAGER_DSN=dsn)
    return subprocess.run([VOYAGER, *args], env=env, capture_output=True, text=True, cwd=ROOT)


def test_users_add_prints_a_key_that_works(app, web_dsn):
    out = voyager(web_dsn, "users", "add", "bob", "--role", "power")
    assert out.returncode == 0, out.stderr
    key = out.stdout.strip()
    assert re.fullmatch(r"[0-9a-f]{32}", key)
    f = feed(api(app, t="search", apikey=key))
    assert f.limits["apimax"] == "10000" and f.limits["grabmax"] == "1000"
    again = voyager(web_dsn, "users", "add", "bob")
    assert again.returncode == 1 and "exists already" in again.stderr
    assert voyager(web_dsn, "users", "add", "carol", "--role", "emperor").returncode == 1
    assert voyager(web_dsn, "users", "add", "bad name!").returncode == 1
    listed = [json.loads(line) for line in voyager(web_dsn, "users", "list").stdout.splitlines()]
    bob = next(u for u in listed if u["name"] == "bob")
    assert (bob["role"], bob["requests_today"], bob["requests_per_day"]) == ("power", 1, 10000)
    assert voyager(web_dsn, "users", "set", "bob", "--suspend").returncode == 0
    assert error_code(api(app, t="search", apikey=key)) == 101
    assert voyager(web_dsn, "users", "set", "bob", "--unsuspend", "--requests", "5").returncode == 0
    assert feed(api(app, t="search", apikey=key)).limits["apimax"] == "5"
    fresh = voyager(web_dsn, "users", "set", "bob", "--new-key").stdout.strip()
    assert re.fullmatch(r"[0-9a-f]{32}", fresh) and fresh != key
    assert error_code(api(app, t="search", apikey=key)) == 100
    assert error_code(api(app, t="search", apikey=fresh)) is None
    assert error_code(api(app, t="search", apikey=fresh.upper())) is None       # a key's case does not matter
    # shown once: nothing lists or stores the key
    assert fresh not in voyager(web_dsn, "users", "list").stdout
    with psycopg.connect(web_dsn) as conn:
        assert fresh not in repr(conn.execute("SELECT * FROM voyager.users").fetchall())


def test_the_quota_holds_under_concurrent_requests(web_dsn, keys):
    """api_use on 8 connections at once: exactly the quota is granted."""
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        conn.execute("UPDATE voyager.users SET requests_per_day = 25 WHERE name = 'alice'")

    def use(_):
        with psycopg.connect(web_dsn, autocommit=True) as c:
            return [c.execute("SELECT code FROM voyager.api_use(%s, 'request')", (keys["alice"],)).fetchone()[0]
                    for _ in range(5)]

    with ThreadPoolExecutor(8) as pool:
        codes = [c for batch in pool.map(use, range(8)) for c in batch]
    assert codes.count(0) == 25 and codes.count(500) == 15
    with psycopg.connect(web_dsn) as conn:
        assert conn.execute("SELECT requests FROM voyager.user_days d JOIN voyager.users u ON u.id = d.user_id "
                            "WHERE u.name = 'alice'").fetchone() == (25,)


def test_a_database_with_plain_keys_upgrades_and_its_clients_keep_their_keys(admin_dsn):
    """Deployed before keys were hashed (the baseline), with users: the
    upgrade hashes each key in place, and each still works."""
    from tests.conftest import create_database, drop_database
    from tests.web.conftest import make_app
    from voyager import sqitch

    name = f"voyager_keys_upgrade_{os.getpid()}"
    dsn = create_database(admin_dsn, name)
    try:
        sqitch.run(dsn, "deploy", "--to", "@v1.0")
        with psycopg.connect(dsn, autocommit=True) as conn:
            old = {u: conn.execute("SELECT voyager.add_user(%s, %s)", (u, r)).fetchone()[0]
                   for u, r in (("old1", "power"), ("old2", "user"))}
            assert {k for (k,) in conn.execute("SELECT api_key FROM voyager.users")} == set(old.values())
        sqitch.run(dsn, "deploy")
        with psycopg.connect(dsn, autocommit=True) as conn:
            assert conn.execute("SELECT count(*) FROM voyager.users WHERE api_key IS NOT NULL").fetchone() == (0,)
            assert conn.execute("SELECT code, user_name FROM voyager.api_use(%s, 'none')",
                                (old["old2"],)).fetchone() == (0, "old2")
        assert feed(api(make_app(dsn), t="search", apikey=old["old1"])).limits["apimax"] == "10000"
    finally:
        drop_database(admin_dsn, name)


def test_the_demo_keeps_its_first_key_in_its_home(web_dsn, tmp_path):
    """The database holds only the key's hash: `voyager demo` keeps the key it
    made in $VOYAGER_HOME and reprints it; without the file it makes a new one."""
    from dataclasses import replace

    from voyager.cli import demo_key
    from voyager.config import Config

    cfg = replace(Config.from_env(), home=tmp_path)
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        first = demo_key(cfg, conn)
        assert demo_key(cfg, conn) == first
        assert (tmp_path / "demo-api-key").stat().st_mode & 0o077 == 0
        (tmp_path / "demo-api-key").unlink()
        second = demo_key(cfg, conn)
        assert second != first and demo_key(cfg, conn) == second
        assert conn.execute("SELECT code, role FROM voyager.api_use(%s, 'none')", (second,)).fetchone() == (0, "admin")
        assert conn.execute("SELECT code FROM voyager.api_use(%s, 'none')", (first,)).fetchone() == (100,)
