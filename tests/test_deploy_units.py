"""`voyager deploy units`: the systemd units of every role rendered with this
checkout's paths pass `systemd-analyze verify`, and the database host's
rendered pgbouncer.ini lets a client with the password in and keeps one
without it out."""
from __future__ import annotations

import configparser
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from tests.pgserver import free_port
from voyager.cli.deploy import TEMPLATES, checkout_python, render
from voyager.config import Config

ROOT = Path(__file__).resolve().parent.parent
UNITS = ["voyager.target", "voyager-db.service", "voyager-pgbouncer.service", "voyager-worker@history.service",
         "voyager-worker@tail.service", "voyager-probe.service", "voyager-namer.service", "voyager-tick.service",
         "voyager-web.service"]


def unit(path: Path) -> configparser.ConfigParser:
    p = configparser.ConfigParser(strict=False, interpolation=None)
    p.optionxform = str
    p.read_string(path.read_text())
    return p


def test_the_rendered_units_pass_systemd_analyze_verify(tmp_path):
    out = subprocess.run([sys.executable, "-m", "voyager.cli", "deploy", "units", "--out", str(tmp_path / "etc"),
                          "--dsn", "postgresql://voyager@db1:6432/voyager", "--user", "indexer"],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    etc = tmp_path / "etc"
    files = set(json.loads(out.stdout)["files"])
    assert {p.name for p in TEMPLATES.iterdir()} <= files
    for f in etc.iterdir():
        assert "@" not in f.read_text().replace("voyager-worker@", "").replace("voyager@db1", ""), f.name
    worker = unit(etc / "voyager-worker@.service")["Service"]
    assert worker["WorkingDirectory"] == str(ROOT) and worker["User"] == "indexer"
    assert worker["ExecStart"].startswith(f"{checkout_python()} -m voyager.cli worker")
    env = dict(line.split("=", 1) for line in (etc / "voyager.env").read_text().splitlines()
               if line and not line.startswith("#"))
    assert env["VOYAGER_DSN"] == "postgresql://voyager@db1:6432/voyager"
    assert (etc / "voyager.env").stat().st_mode & 0o077 == 0, "it holds the credentials"
    assert "--tail-threads 1" in (etc / "worker-tail.env").read_text()
    # the database host alone deploys: its unit reads no voyager.env (a VOYAGER_DSN there would
    # make `db up` only deploy to it)
    assert "EnvironmentFile" not in unit(etc / "voyager-db.service")["Service"]

    if not shutil.which("systemd-analyze"):
        pytest.skip("systemd-analyze is not installed (scripts/setup.sh installs systemd)")
    check = subprocess.run(["systemd-analyze", "verify", *[str(etc / u) for u in UNITS]],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    # unknown keys and the like are warnings only: none may name our units
    complaints = [line for line in (check.stdout + check.stderr).splitlines() if "voyager" in line]
    assert not complaints, complaints

    # and a broken one is caught: a unit whose program is not there
    broken = etc / "voyager-tick.service"
    broken.write_text(broken.read_text().replace(checkout_python(), "/nonexistent/python"))
    check = subprocess.run(["systemd-analyze", "verify", str(broken)], capture_output=True, text=True)
    assert check.returncode != 0


def test_the_rendered_pgbouncer_ini_admits_the_hosts_with_the_password(pg_server, db_dsn):
    _admin, cluster = pg_server
    if cluster is None:
        pytest.skip("needs the tests' own cluster")
    from voyager.cluster import _as_service_user, _own

    dbname = conninfo_to_dict(db_dsn)["dbname"]
    conf = cluster.datadir.parent / f"units-{dbname}"       # where the service user reaches
    port = free_port()
    cfg = Config(home=conf, host=cluster.host, port=cluster.port, database=dbname, user=cluster.user,
                 pgbouncer_port=free_port(), dsn_override=None)
    render(conf, cfg=cfg, listen="127.0.0.1", listen_port=port, pool=3)
    (conf / "userlist.txt").write_text(f'"{cluster.user}" "s3cret"\n')
    for path in (conf, *conf.iterdir()):          # pgbouncer runs as the service user when we are root
        _own(path)
    bouncer = subprocess.Popen(_as_service_user([shutil.which("pgbouncer"), str(conf / "pgbouncer.ini")]),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        dsn = f"postgresql://{cluster.user}:s3cret@127.0.0.1:{port}/{dbname}"
        for _ in range(100):
            try:
                c = psycopg.connect(dsn, autocommit=True, prepare_threshold=None)
                break
            except psycopg.OperationalError:
                if bouncer.poll() is not None:
                    pytest.fail(bouncer.stdout.read())
                time.sleep(0.1)
        else:
            pytest.fail("the rendered pgbouncer did not answer")
        with c:
            assert c.execute("SELECT count(*) FROM voyager.settings").fetchone()[0] > 0
        with pytest.raises(psycopg.OperationalError, match="authentication failed"):
            psycopg.connect(f"postgresql://{cluster.user}:wrong@127.0.0.1:{port}/{dbname}")
    finally:
        bouncer.terminate()
        bouncer.wait(10)
        shutil.rmtree(conf, ignore_errors=True)
