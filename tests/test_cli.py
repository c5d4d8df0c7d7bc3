"""The README's path: `voyager db up`, plan a corpus, lease in psql, status,
`voyager db down`, on a cluster of its own under VOYAGER_HOME."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.pgserver import free_port

ROOT = Path(__file__).resolve().parent.parent
VOYAGER = str(Path(sys.executable).parent / "voyager")


@pytest.fixture
def home():
    base = Path(tempfile.mkdtemp(prefix="voyager-home-"))
    os.chmod(base, 0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOYAGER_")}
    env.update(VOYAGER_HOME=str(base / "var"), VOYAGER_PGPORT=str(free_port()),
               VOYAGER_PGBOUNCER_PORT=str(free_port()))
    yield env
    subprocess.run([VOYAGER, "db", "down"], env=env, capture_output=True)
    shutil.rmtree(base, ignore_errors=True)


def run(env, *args, check=True) -> subprocess.CompletedProcess:
    out = subprocess.run([VOYAGER, *args], env=env, capture_output=True, text=True, cwd=ROOT)
    if check:
        assert out.returncode == 0, out.stdout + out.stderr
    return out


def psql(env, dsn: str, sql: str) -> str:
    out = subprocess.run(["psql", dsn, "-XAtc", sql], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_db_up_plan_lease_status_down(home):
    up = run(home, "db", "up")
    assert "created the cluster" in up.stdout and "+ schema" in up.stdout
    assert "Nothing to deploy" in run(home, "db", "up").stdout      # idempotent
    dsn = run(home, "db", "dsn").stdout.strip()
    assert dsn.endswith(f":{home['VOYAGER_PGPORT']}/voyager")
    pooled = run(home, "db", "dsn", "--pooled").stdout.strip()
    assert f":{home['VOYAGER_PGBOUNCER_PORT']}/" in pooled

    planned = json.loads(run(home, "plan", "--corpus", str(ROOT / "samples" / "tiny")).stdout)
    assert planned["groups_added"] == 8 and planned["ranges_added"] > 8

    first = psql(home, dsn, "select group_name from voyager.lease_group('history', 'one')")
    second = psql(home, pooled, "select group_name from voyager.lease_group('history', 'two')")
    assert first and second and first != second
    status = run(home, "status").stdout
    assert "Held groups" in status and first in status and second in status

    info = json.loads(run(home, "db", "status").stdout)
    assert info["postgres_running"] and info["pgbouncer_running"]
    run(home, "db", "down")
    info = json.loads(run(home, "db", "status", check=False).stdout)
    assert not info["postgres_running"] and "error" in info


def test_plan_refuses_a_folder_without_groups_json(home, tmp_path):
    out = run(home, "plan", "--corpus", str(tmp_path), check=False)
    assert out.returncode == 1 and "groups.json" in out.stderr
