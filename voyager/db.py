"""Connections and the local database's life cycle (`voyager db ...`)."""
from __future__ import annotations

import psycopg
from psycopg import sql

from . import huge_pages, replicas, schema, sqitch
from .cluster import Bouncer, Cluster
from .config import Config


def connect(cfg: Config | None = None, *, pooled: bool = False, dsn: str | None = None) -> psycopg.Connection:
    """An autocommit connection; through pgbouncer when pooled (transaction
    pooling: no server-side prepared statements)."""
    cfg = cfg or Config.from_env()
    if dsn is None:
        dsn = cfg.pooled_dsn if pooled else cfg.dsn
    return psycopg.connect(dsn, autocommit=True, prepare_threshold=None if pooled else 5)


def recreate_database(dsn: str, name: str) -> str:
    """Drops and creates database `name` on dsn's server (through its
    `postgres` database) and returns its DSN."""
    drop_database(dsn, name)
    with psycopg.connect(psycopg.conninfo.make_conninfo(dsn, dbname="postgres"), autocommit=True) as c:
        c.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return psycopg.conninfo.make_conninfo(dsn, dbname=name)


def drop_database(dsn: str, name: str) -> None:
    with psycopg.connect(psycopg.conninfo.make_conninfo(dsn, dbname="postgres"), autocommit=True) as c:
        c.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def fresh_database(dsn: str, name: str) -> str:
    """Database `name` created anew with the schema deployed, its DSN: the
    replay's --fresh and the benchmarks' scratch databases."""
    out = recreate_database(dsn, name)
    sqitch.run(out, "deploy")
    return out


def cluster(cfg: Config) -> Cluster:
    return Cluster(datadir=cfg.pgdata, port=cfg.port, host=cfg.host, user=cfg.user)


def bouncer(cfg: Config) -> Bouncer:
    return Bouncer(workdir=cfg.pgbouncer_dir, port=cfg.pgbouncer_port, pg_host=cfg.host,
                   pg_port=cfg.port, database=cfg.database, user=cfg.user)


def up(cfg: Config, log=print) -> None:
    """Create (once) and start the local cluster and pgbouncer, then deploy.
    With VOYAGER_DSN set, only deploy to that server."""
    if cfg.local:
        c = cluster(cfg)
        if c.init():
            log(f"created the cluster in {cfg.pgdata}")
        if c.start():
            log(f"started PostgreSQL on {cfg.host}:{cfg.port}")
        if c.ensure_database(cfg.database):
            log(f"created database {cfg.database}")
        replicas.start_all(c, cfg.home, log)
        if bouncer(cfg).start():
            log(f"started pgbouncer on {cfg.host}:{cfg.pgbouncer_port}")
    deploy(cfg, log)


def deploy(cfg: Config, log=print) -> None:
    """sqitch deploy, a database of the old plan moved onto the baseline first."""
    schema.deploy(cfg.dsn, log)


def down(cfg: Config, log=print) -> None:
    if not cfg.local:
        log("VOYAGER_DSN is set: that server is not ours to stop")
        return
    if bouncer(cfg).stop():
        log("stopped pgbouncer")
    replicas.stop_all(cluster(cfg), cfg.home, log)
    if cluster(cfg).stop():
        log("stopped PostgreSQL")


def status(cfg: Config) -> dict:
    info: dict = {"dsn": cfg.dsn, "pooled_dsn": cfg.pooled_dsn}
    if cfg.local:
        info["cluster"] = str(cfg.pgdata)
        info["postgres_running"] = cluster(cfg).running()
        info["pgbouncer_running"] = bouncer(cfg).running()
        # the shared memory in huge pages (0: in ordinary ones; voyager/huge_pages.py)
        info["huge_pages_mb"] = huge_pages.in_use_mb(cluster(cfg).postmaster_pid())
    try:
        with connect(cfg) as conn:
            info["server_version"] = conn.execute("SHOW server_version").fetchone()[0]
        out = sqitch.run(cfg.dsn, "status", check=False)
        info["sqitch"] = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else out.stderr.strip()
    except psycopg.OperationalError as e:
        info["error"] = str(e).strip()
    return info
