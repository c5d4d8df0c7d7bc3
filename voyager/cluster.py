"""The project's own PostgreSQL cluster and pgbouncer, started with pg_ctl.

Used by `voyager db up|down` (a cluster under $VOYAGER_HOME) and by the test
harness (a throwaway cluster in a temporary folder). PostgreSQL and pgbouncer
refuse to run as root, so as root they run as Debian's `postgres` user.
"""
from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import huge_pages
from .config import pg_bindir

SERVICE_USER = "postgres"



# the share of the machine's memory a new cluster's shared_buffers takes (one in four)
MEMORY_PER_SHARED_BUFFER = 4


def shared_buffers_mb() -> int:
    """A quarter of the machine's memory, 128 MB to 64 GB: the catalog's hot
    tables and indexes in Postgres's own cache, as an operator would size it.
    Not capped at 4 GB: at ten million releases the hot set is 5.2 GB, and a pool
    smaller than it turns each search's first reads into misses, each a sweep
    of the full pool for a buffer to evict (a word search's database CPU 4.3
    ms with 4 GB, 3.2 with 6 GB, on 24 GB of memory)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 256
    return max(128, min(65536, total // MEMORY_PER_SHARED_BUFFER // 2**20))


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on now (for a server about to start)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]

def _as_service_user(cmd: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", SERVICE_USER, "--", *cmd]
    return cmd


def _own(path: Path) -> None:
    """Hand a folder to the service user when we are root."""
    if os.geteuid() == 0:
        pw = pwd.getpwnam(SERVICE_USER)
        os.chown(path, pw.pw_uid, pw.pw_gid)


def _check_reachable(path: Path) -> None:
    """As root, the service user must be able to reach the folder."""
    if os.geteuid() != 0:
        return
    probe = subprocess.run(_as_service_user(["test", "-x", str(path)]), capture_output=True)
    if probe.returncode != 0:
        raise RuntimeError(
            f"the {SERVICE_USER} user cannot reach {path}; set VOYAGER_HOME to a folder it can reach "
            "(for example /var/tmp/voyager)"
        )


def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    out = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({out.returncode}):\n{out.stdout}{out.stderr}")
    return out


@dataclass
class Cluster:
    """One PostgreSQL 15 cluster listening on host:port, superuser `user`."""

    datadir: Path
    port: int
    host: str = "127.0.0.1"
    user: str = "voyager"
    # postgresql.conf settings beyond the defaults (the test cluster trades durability for speed)
    settings: dict[str, str] = field(default_factory=dict)
    log: Callable[[str], None] = field(default=print, repr=False, compare=False)   # what starting and stopping tell

    @property
    def socket_dir(self) -> Path:
        return self.datadir.parent / "run"

    @property
    def logfile(self) -> Path:
        return self.datadir.parent / "postgres.log"

    def _bin(self, name: str) -> str:
        return str(pg_bindir() / name)

    def initialised(self) -> bool:
        return (self.datadir / "PG_VERSION").exists()

    def init(self) -> bool:
        """initdb once; returns True when it created the cluster."""
        if self.initialised():
            return False
        base = self.datadir.parent
        base.mkdir(parents=True, exist_ok=True)
        _own(base)
        _check_reachable(base)
        self.socket_dir.mkdir(exist_ok=True)
        _own(self.socket_dir)
        _run(_as_service_user([
            self._bin("initdb"), "-D", str(self.datadir), "-U", self.user, "-A", "trust",
            "-E", "UTF8", "--locale=C.UTF-8",
        ]))
        conf = {
            "listen_addresses": f"'{self.host}'",
            "port": str(self.port),
            "unix_socket_directories": f"'{self.socket_dir}'",
            "max_connections": "200",
            "shared_buffers": f"{shared_buffers_mb()}MB",
            "effective_cache_size": f"{max(shared_buffers_mb() * 2, 512)}MB",
            "log_min_messages": "warning",
            "log_line_prefix": "'%m [%p] %d '",
            "jit": "off",                    # short OLTP statements: compiling costs more than it saves
            # a write-heavy catalog: at the default 1 GB of WAL a merges burst or a store at full
            # speed checkpointed every ten seconds, and after each the next change of every page
            # writes the whole page into the WAL (the merges' CPU a seventh higher, and runs that
            # took two thirds longer)
            "max_wal_size": "4GB",
            "checkpoint_timeout": "15min",
            # read replicas (voyager.replicas): a standby streams the WAL from a slot of its own
            "wal_level": "replica",
            "max_wal_senders": "10",
            "max_replication_slots": "10",
            **self.settings,
        }
        with open(self.datadir / "postgresql.conf", "a") as fh:
            fh.write("\n# voyager\n")
            for key, value in conf.items():
                fh.write(f"{key} = {value}\n")
        return True

    def setting(self, name: str) -> str:
        """A setting as the stopped server would start with it (its files,
        the sizes it computes from them); empty when the server cannot say."""
        out = subprocess.run(_as_service_user([self._bin("postgres"), "-D", str(self.datadir), "-C", name]),
                             capture_output=True, text=True)
        return out.stdout.strip()

    def postmaster_pid(self) -> int | None:
        """The pid postmaster.pid names (None without one)."""
        try:
            return int((self.datadir / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def _killed(self) -> bool:
        """The postmaster of postmaster.pid was killed and is not reaped yet
        (a zombie: where no init reaps, it stays one): pg_ctl and the next
        postmaster take it for a live server."""
        pid = self.postmaster_pid()
        try:
            return pid is not None and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
        except (OSError, IndexError):
            return False

    def running(self) -> bool:
        if not self.initialised() or self._killed():
            return False
        out = subprocess.run(_as_service_user([self._bin("pg_ctl"), "-D", str(self.datadir), "status"]),
                             capture_output=True, text=True)
        return out.returncode == 0

    def start(self) -> bool:
        """Start unless running; returns True when it started the server."""
        if self.running():
            return False
        if self._killed():
            (self.datadir / "postmaster.pid").unlink()
        huge_pages.reserve(self.datadir.parent, huge_pages.needed(self), log=self.log)
        _run(_as_service_user([
            self._bin("pg_ctl"), "-D", str(self.datadir), "-l", str(self.logfile), "-w", "-t", "60", "start",
        ]))
        return True

    def stop(self) -> bool:
        if not self.running():
            return False
        _run(_as_service_user([self._bin("pg_ctl"), "-D", str(self.datadir), "-m", "fast", "-w", "stop"]))
        huge_pages.give_back(self.datadir.parent, log=self.log)
        return True

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@{self.host}:{self.port}/{database}"

    def ensure_database(self, name: str) -> bool:
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                return False
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            return True


@dataclass
class Bouncer:
    """pgbouncer in transaction pooling mode in front of one database."""

    workdir: Path
    port: int
    pg_host: str
    pg_port: int
    database: str
    user: str
    host: str = "127.0.0.1"

    @property
    def ini(self) -> Path:
        return self.workdir / "pgbouncer.ini"

    @property
    def pidfile(self) -> Path:
        return self.workdir / "pgbouncer.pid"

    def write_config(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        _own(self.workdir)
        # auth_type = any: loopback only, and every pool logs in as one user.
        self.ini.write_text(
            "[databases]\n"
            f"{self.database} = host={self.pg_host} port={self.pg_port} dbname={self.database} user={self.user}\n"
            "[pgbouncer]\n"
            f"listen_addr = {self.host}\nlisten_port = {self.port}\n"
            f"unix_socket_dir =\n"
            "auth_type = any\n"
            "pool_mode = transaction\n"
            "max_client_conn = 1000\n"
            "default_pool_size = 20\n"
            "ignore_startup_parameters = extra_float_digits,options\n"
            f"logfile = {self.workdir / 'pgbouncer.log'}\n"
            f"pidfile = {self.pidfile}\n"
        )
        _own(self.ini)

    def pid(self) -> int | None:
        try:
            pid = int(self.pidfile.read_text().strip())
            os.kill(pid, 0)
            return pid
        except (OSError, ValueError):
            return None

    def running(self) -> bool:
        return self.pid() is not None

    def start(self) -> bool:
        if self.running():
            return False
        if not shutil.which("pgbouncer"):
            raise RuntimeError("pgbouncer is not installed: run `make setup`")
        self.write_config()
        _run(_as_service_user(["pgbouncer", "-d", str(self.ini)]))
        for _ in range(50):
            if self.running():
                return True
            time.sleep(0.1)
        raise RuntimeError(f"pgbouncer did not start; see {self.workdir / 'pgbouncer.log'}")

    def stop(self) -> bool:
        pid = self.pid()
        if pid is None:
            return False
        os.kill(pid, signal.SIGINT)  # SIGINT: fast shutdown
        for _ in range(50):
            if not self.running():
                return True
            time.sleep(0.1)
        os.kill(pid, signal.SIGKILL)
        return True
