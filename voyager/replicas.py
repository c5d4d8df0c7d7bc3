"""Read replicas of the project's cluster on this machine (`voyager db replica`).

A replica is a streaming physical standby: pg_basebackup of the primary with
a replication slot named after it (the primary keeps the WAL it has not
replayed yet), `-X stream` and `-R` (standby.signal and primary_conninfo),
into `$VOYAGER_HOME/replicas/<name>/data`, its run folder and log beside it
as the primary's are. Its own port, the hot standby and its socket folder
are written into the replica's postgresql.auto.conf (the one place the port
is kept: `replica list` reads it back). Replicas start after the primary and
stop before it (`voyager db up|down`).

How far a replica is behind is measured two ways, one home each: on the
primary (`PRIMARY_SQL`: the bytes of WAL a slot's standby has not replayed)
and on the replica itself (`LAG_SQL`: the seconds since the last transaction
it replayed, 0 when it has replayed all it received and still streams; and
where its replay stands, which the web holds against the primary's
`FLUSHED_SQL` before it trusts a replica with a search: web/routing.py).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

from .cluster import Cluster, _as_service_user, _check_reachable, _own, _run, free_port

NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")    # a replication slot's name is the replica's
DEFAULT_NAME = "r1"

# the replica's own view of its lag: nothing received and not replayed (and
# the WAL receiver streaming) is no lag, however long the primary has been
# quiet; else the age of the last transaction it replayed (the web's own
# counters commit with every request, so on a served catalog that age is the
# replay's delay); then where its replay stands (a WAL position as a number)
# and that age with no allowance for a quiet primary: what the web holds
# against the primary's FLUSHED_SQL
LAG_SQL = """SELECT pg_is_in_recovery() AS standby,
       pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn())::bigint AS unreplayed_bytes,
       CASE WHEN NOT pg_is_in_recovery() THEN 0
            WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn()
                 AND (SELECT status FROM pg_stat_wal_receiver) = 'streaming' THEN 0
            ELSE extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp())
       END::float8 AS lag_seconds,
       pg_is_wal_replay_paused() AS paused,
       (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint AS replayed_lsn,
       extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp())::float8 AS replayed_seconds"""

# the primary's WAL written out so far, as a number: what a standby can have
# received and replayed (a commit is in it a moment after it is visible, with
# synchronous_commit off)
FLUSHED_SQL = "SELECT (pg_current_wal_flush_lsn() - '0/0'::pg_lsn)::bigint"

# the primary's view: each physical slot, its standby when connected, the
# bytes of WAL it has not replayed (from the slot's restart point when it is
# not connected) and the replay lag the primary last heard of
PRIMARY_SQL = """SELECT s.slot_name AS name, s.active AS connected, r.client_addr::text AS address, r.state,
       pg_wal_lsn_diff(pg_current_wal_lsn(), coalesce(r.replay_lsn, s.restart_lsn))::bigint AS lag_bytes,
       extract(epoch FROM r.replay_lag)::float8 AS replay_lag_seconds
  FROM pg_replication_slots s LEFT JOIN pg_stat_replication r ON r.pid = s.active_pid
 WHERE s.slot_type = 'physical' AND NOT pg_is_in_recovery()
 ORDER BY s.slot_name"""


def folder(home: Path) -> Path:
    return home / "replicas"


@dataclass
class Replica:
    name: str
    cluster: Cluster          # its data folder, port and log, started and stopped as the primary is

    @property
    def slot(self) -> str:
        return self.name

    def dsn(self, database: str) -> str:
        return self.cluster.dsn(database)


def _auto_conf_port(datadir: Path) -> int | None:
    try:
        text = (datadir / "postgresql.auto.conf").read_text()
    except FileNotFoundError:
        return None
    ports = re.findall(r"^\s*port\s*=\s*'?(\d+)'?", text, re.M)
    return int(ports[-1]) if ports else None


def replica(primary: Cluster, home: Path, name: str) -> Replica:
    """The replica `name` (made or not): its folder, and its port when made."""
    if not NAME.match(name):
        raise ValueError(f"a replica's name is lower-case letters, digits and _ (at most 40), not {name!r}")
    datadir = folder(home) / name / "data"
    # what its starting and stopping tell goes where the primary's does
    return Replica(name, Cluster(datadir=datadir, port=_auto_conf_port(datadir) or 0, host=primary.host,
                                 user=primary.user, log=primary.log))


def replicas(primary: Cluster, home: Path) -> list[Replica]:
    """Every replica made under home, by name."""
    root = folder(home)
    if not root.is_dir():
        return []
    return [replica(primary, home, d.name) for d in sorted(root.iterdir())
            if NAME.match(d.name) and (d / "data" / "PG_VERSION").exists()]


def allow_replication(primary: Cluster) -> None:
    """The primary lets its own user stream from its address: a pg_hba line
    (initdb's default has it; a cluster edited since may not), then a reload.
    wal_level, max_wal_senders and max_replication_slots are the cluster
    config writer's (Cluster.init)."""
    hba = primary.datadir / "pg_hba.conf"
    line = f"host replication {primary.user} {primary.host}/32 trust"
    text = hba.read_text()
    if not any(re.match(rf"^\s*host\s+replication\s+(all|{re.escape(primary.user)})\s+{re.escape(primary.host)}/32\s",
                        l) for l in text.splitlines()):
        hba.write_text(text.rstrip("\n") + f"\n# voyager: read replicas\n{line}\n")
        _run(_as_service_user([primary._bin("pg_ctl"), "-D", str(primary.datadir), "reload"]))
    with psycopg.connect(primary.dsn(), autocommit=True) as conn:
        level, senders, slots = conn.execute(
            "SELECT current_setting('wal_level'), current_setting('max_wal_senders')::int, "
            "current_setting('max_replication_slots')::int").fetchone()
    if level == "minimal" or senders < 2 or slots < 1:
        raise RuntimeError(f"the cluster cannot stream (wal_level={level}, max_wal_senders={senders}, "
                           f"max_replication_slots={slots}): set them in {primary.datadir}/postgresql.conf "
                           "and restart it")


def _slot_exists(primary: Cluster, slot: str) -> bool:
    with psycopg.connect(primary.dsn(), autocommit=True) as conn:
        return conn.execute("SELECT 1 FROM pg_replication_slots WHERE slot_name = %s", (slot,)).fetchone() is not None


def drop_slot(primary: Cluster, slot: str, wait: float = 10.0) -> bool:
    """Drops the slot once no standby holds it (a stopped standby's sender
    takes a moment to go); True when there was one."""
    deadline = time.monotonic() + wait
    with psycopg.connect(primary.dsn(), autocommit=True) as conn:
        while True:
            row = conn.execute("SELECT active FROM pg_replication_slots WHERE slot_name = %s", (slot,)).fetchone()
            if row is None:
                return False
            if not row[0]:
                conn.execute("SELECT pg_drop_replication_slot(%s)", (slot,))
                return True
            if time.monotonic() > deadline:
                raise RuntimeError(f"replication slot {slot} is still held by a running standby")
            time.sleep(0.1)


def _tablespace_mappings(primary: Cluster, base: Path) -> list[str]:
    """A plain backup writes tablespaces where the primary has them: each is
    mapped into the replica's own folder instead."""
    with psycopg.connect(primary.dsn(), autocommit=True) as conn:
        rows = conn.execute("SELECT oid, pg_tablespace_location(oid) FROM pg_tablespace "
                            "WHERE pg_tablespace_location(oid) <> ''").fetchall()
    out = []
    for oid, location in rows:
        target = base / "tablespaces" / str(oid)
        target.parent.mkdir(parents=True, exist_ok=True)
        _own(target.parent)
        out.append(f"--tablespace-mapping={location}={target}")
    return out


def add(primary: Cluster, home: Path, name: str = DEFAULT_NAME, log=print,
        shared_buffers_mb: int | None = None) -> Replica:
    """Makes (once) and starts the replica `name` of the running primary.
    Idempotent: a replica already made is only started; what a failed attempt
    left (a folder without a cluster, a slot without a folder) is cleared first.
    `shared_buffers_mb`: its pool, when not the primary's (it shares this
    machine's memory with the primary: two pools of a quarter of it each
    leave no room for both in huge pages)."""
    rep = replica(primary, home, name)
    if not primary.running():
        raise RuntimeError("the cluster is not running: `voyager db up` first")
    base = rep.cluster.datadir.parent
    if not rep.cluster.initialised():
        allow_replication(primary)
        if base.exists():
            shutil.rmtree(base)
        if _slot_exists(primary, rep.slot):
            drop_slot(primary, rep.slot)
        folder(home).mkdir(parents=True, exist_ok=True)
        _own(folder(home))
        base.mkdir()
        _own(base)
        _check_reachable(base)
        rep.cluster.socket_dir.mkdir()
        _own(rep.cluster.socket_dir)
        started = time.monotonic()
        _run(_as_service_user([
            primary._bin("pg_basebackup"), "-h", primary.host, "-p", str(primary.port), "-U", primary.user,
            "-D", str(rep.cluster.datadir), "-R", "-X", "stream", "-C", "-S", rep.slot, "-c", "fast",
            "--no-password", *_tablespace_mappings(primary, base),
        ]))
        port = free_port(primary.host)
        with open(rep.cluster.datadir / "postgresql.auto.conf", "a") as fh:
            fh.write(f"# voyager: replica {name} (its own port and socket folder; reads while it replays)\n"
                     f"port = {port}\n"
                     f"unix_socket_directories = '{rep.cluster.socket_dir}'\n"
                     "hot_standby = on\n"
                     # the primary's vacuum waits for the replica's searches instead of cancelling them
                     "hot_standby_feedback = on\n"
                     f"cluster_name = 'replica_{name}'\n"
                     + (f"shared_buffers = '{shared_buffers_mb}MB'\n" if shared_buffers_mb else ""))
        rep.cluster.port = port
        log(f"made replica {name} in {base} ({time.monotonic() - started:.1f} s), port {port}")
    if rep.cluster.start():
        log(f"started replica {name} on {rep.cluster.host}:{rep.cluster.port}")
    return rep


def remove(primary: Cluster, home: Path, name: str, log=print) -> bool:
    """Stops the replica, drops its slot on the primary, deletes its folder;
    False when there was nothing to remove."""
    rep = replica(primary, home, name)
    base = rep.cluster.datadir.parent
    found = base.exists()
    if rep.cluster.stop():
        log(f"stopped replica {name}")
    if primary.running() and drop_slot(primary, rep.slot):
        log(f"dropped replication slot {rep.slot}")
        found = True
    if base.exists():
        shutil.rmtree(base)
        log(f"removed {base}")
    return found


def start_all(primary: Cluster, home: Path, log=print) -> None:
    for rep in replicas(primary, home):
        if rep.cluster.start():
            log(f"started replica {rep.name} on {rep.cluster.host}:{rep.cluster.port}")


def stop_all(primary: Cluster, home: Path, log=print) -> None:
    for rep in replicas(primary, home):
        if rep.cluster.stop():
            log(f"stopped replica {rep.name}")


def lag(conn) -> dict:
    """LAG_SQL's figures on a replica's connection."""
    cur = conn.execute(LAG_SQL)
    return dict(zip([c.name for c in cur.description], cur.fetchone()))


def primary_view(conn) -> list[dict]:
    """PRIMARY_SQL's rows: what `voyager status` reports of the replicas."""
    cur = conn.execute(PRIMARY_SQL)
    return [dict(zip([c.name for c in cur.description], row)) for row in cur.fetchall()]


def listing(primary: Cluster, home: Path, database: str) -> list[dict]:
    """`voyager db replica list`: each replica's name, port, DSN, whether it
    runs, and its lag (bytes from the primary's slot, seconds from itself)."""
    slots = {}
    if primary.running():
        with psycopg.connect(primary.dsn(), autocommit=True) as conn:
            slots = {r["name"]: r for r in primary_view(conn)}
    out = []
    for rep in replicas(primary, home):
        running = rep.cluster.running()
        row = {"name": rep.name, "port": rep.cluster.port, "dsn": rep.dsn(database), "running": running,
               "streaming": bool(slots.get(rep.slot, {}).get("connected")),
               "lag_bytes": slots.get(rep.slot, {}).get("lag_bytes"), "lag_seconds": None}
        if running:
            try:
                with psycopg.connect(rep.dsn("postgres"), autocommit=True, connect_timeout=5) as conn:
                    row["lag_seconds"] = lag(conn)["lag_seconds"]
            except psycopg.OperationalError:
                pass            # starting up: no connections yet
        out.append(row)
    return out


def wait_replayed(primary_conn, replica_conn, timeout: float = 30.0) -> None:
    """Returns once the replica has replayed the primary's WAL as it stands
    now (TimeoutError past `timeout` seconds)."""
    # the insert position: with synchronous_commit off a commit is in the WAL
    # before it is written out (and sent)
    target = primary_conn.execute("SELECT pg_current_wal_insert_lsn()").fetchone()[0]
    deadline = time.monotonic() + timeout
    while not replica_conn.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (target,)).fetchone()[0]:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the replica has not replayed up to {target} in {timeout} s")
        time.sleep(0.02)
