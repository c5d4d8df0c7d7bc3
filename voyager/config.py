"""Configuration from the environment (VOYAGER_*), documented in the README."""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote


def _env(name: str, default: str) -> str:
    value = os.environ.get(name)
    return value if value not in (None, "") else default


def pg_bindir() -> Path:
    """Debian's PostgreSQL 15 binaries (pg_ctl on PATH is a wrapper there)."""
    explicit = os.environ.get("VOYAGER_PG_BINDIR")
    if explicit:
        return Path(explicit)
    debian = Path("/usr/lib/postgresql/15/bin")
    if (debian / "postgres").exists():
        return debian
    pg_config = shutil.which("pg_config")
    if pg_config:
        import subprocess

        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        if out.returncode == 0:
            return Path(out.stdout.strip())
    raise RuntimeError("PostgreSQL 15 binaries not found: run `make setup` or set VOYAGER_PG_BINDIR")


@dataclass(frozen=True)
class Config:
    home: Path            # VOYAGER_HOME: the cluster, pgbouncer, spool live under it
    host: str             # VOYAGER_PGHOST
    port: int             # VOYAGER_PGPORT
    database: str         # VOYAGER_DB
    user: str             # VOYAGER_DB_USER
    pgbouncer_port: int   # VOYAGER_PGBOUNCER_PORT
    dsn_override: str | None  # VOYAGER_DSN: an existing server instead of the local cluster

    @classmethod
    def from_env(cls) -> "Config":
        return cls(
            home=Path(_env("VOYAGER_HOME", "var")).resolve(),
            host=_env("VOYAGER_PGHOST", "127.0.0.1"),
            port=int(_env("VOYAGER_PGPORT", "55432")),
            database=_env("VOYAGER_DB", "voyager"),
            user=_env("VOYAGER_DB_USER", "voyager"),
            pgbouncer_port=int(_env("VOYAGER_PGBOUNCER_PORT", "56432")),
            dsn_override=os.environ.get("VOYAGER_DSN") or None,
        )

    @property
    def local(self) -> bool:
        """True when the project runs its own cluster (no VOYAGER_DSN given)."""
        return self.dsn_override is None

    @property
    def dsn(self) -> str:
        """Direct connection: deploys, the planner, psql."""
        if self.dsn_override:
            return self.dsn_override
        return f"postgresql://{quote(self.user)}@{self.host}:{self.port}/{quote(self.database)}"

    @property
    def pooled_dsn(self) -> str:
        """Through pgbouncer (transaction pooling): what workers and web use."""
        explicit = os.environ.get("VOYAGER_POOLED_DSN")
        if explicit:
            return explicit
        if self.dsn_override:
            return self.dsn_override
        return f"postgresql://{quote(self.user)}@{self.host}:{self.pgbouncer_port}/{quote(self.database)}"

    @property
    def worker_dsn(self) -> str:
        """What the workers connect to: VOYAGER_WORKER_DSN, else the pooled DSN."""
        return os.environ.get("VOYAGER_WORKER_DSN") or self.pooled_dsn

    @property
    def pgdata(self) -> Path:
        return self.home / "pg" / "data"

    @property
    def pgbouncer_dir(self) -> Path:
        return self.home / "pgbouncer"
