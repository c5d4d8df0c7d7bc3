"""The web's configuration: the environment (VOYAGER_WEB_*, documented in the
README) over the project's database settings."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace

from voyager.config import Config


def _env(name: str, default: str) -> str:
    v = os.environ.get(name)
    return v if v not in (None, "") else default


@dataclass(frozen=True)
class WebConfig:
    dsn: str                           # VOYAGER_WEB_DSN: the web pools its own connections (direct by default)
    base_url: str | None = None        # VOYAGER_WEB_URL: absolute links in feeds; else the request's host
    title: str = "Voyager"
    pool_size: int = 3                 # VOYAGER_WEB_POOL: connections per worker process (voyager web: 3 a core)
    prepare: bool = True               # VOYAGER_WEB_PREPARE=0 through pgbouncer: no prepared statements, and
                                       # the statements' settings per transaction (a server connection is shared)
    count_cache: bool = True           # VOYAGER_WEB_COUNT_CACHE=0: every total counted afresh
    statement_timeout_ms: int = 15000
    session_days: int = 30
    secure_cookies: bool = False       # VOYAGER_WEB_SECURE_COOKIES=1 behind TLS
    limit_default: int = 100
    limit_max: int = 100
    replicas: tuple[str, ...] = ()     # VOYAGER_WEB_REPLICAS: the read replicas' DSNs (web/routing.py)
    replica_max_lag: float = 30.0      # VOYAGER_WEB_REPLICA_MAX_LAG: seconds a replica's catalog may be behind
    replica_check: float = 1.0         # seconds between the looks at the replicas' health and lag
    replica_timeout: float = 2.0       # seconds to connect to a replica, or to wait for one of its connections
    tally_interval: float = 0.25       # VOYAGER_WEB_TALLY_INTERVAL: seconds between the writes of the API's counts held (web/tally.py)

    def statement_settings(self) -> dict[str, str]:
        """What the web's statements run under: a runaway search is cancelled,
        no parallel workers on a busy server, no JIT (a compile costs a
        hundred times what these statements do), and timestamps in UTC, what
        the feeds write (psycopg then gives Python's own UTC zone: no
        conversion a row)."""
        return {"statement_timeout": str(self.statement_timeout_ms), "max_parallel_workers_per_gather": "0",
                "work_mem": "16MB", "jit": "off", "TimeZone": "UTC"}

    def session_options(self) -> str:
        """statement_settings() as a direct connection's startup options."""
        return " ".join(f"-c {k}={v}" for k, v in self.statement_settings().items())

    @classmethod
    def from_env(cls, **overrides) -> "WebConfig":
        """The environment's settings; `overrides` over them (`replicas` as
        VOYAGER_WEB_REPLICAS is written, `local` among them)."""
        cfg = Config.from_env()
        dsn = overrides.get("dsn") or _env("VOYAGER_WEB_DSN", cfg.dsn)
        spec = overrides.pop("replicas", None)
        overrides["replicas"] = replica_dsns(os.environ.get("VOYAGER_WEB_REPLICAS", "") if spec is None else spec,
                                             dsn, cfg)
        out = cls(
            dsn=dsn,
            base_url=os.environ.get("VOYAGER_WEB_URL") or None,
            title=_env("VOYAGER_WEB_TITLE", "Voyager"),
            pool_size=int(_env("VOYAGER_WEB_POOL", "3")),
            prepare=_env("VOYAGER_WEB_PREPARE", "1") != "0",
            count_cache=_env("VOYAGER_WEB_COUNT_CACHE", "1") != "0",
            secure_cookies=_env("VOYAGER_WEB_SECURE_COOKIES", "0") == "1",
            replica_max_lag=seconds(_env("VOYAGER_WEB_REPLICA_MAX_LAG", "30")),
            tally_interval=seconds(_env("VOYAGER_WEB_TALLY_INTERVAL", "0.25")),
        )
        return replace(out, **overrides)


def seconds(v: str | float) -> float:
    """`30`, `30s`, `2.5`: seconds."""
    return float(str(v).strip().removesuffix("s"))


def replica_dsns(spec: str | list[str] | tuple[str, ...], dsn: str, cfg: Config | None = None) -> tuple[str, ...]:
    """The replicas' DSNs of a list (commas between them; spaces too between
    URIs, a key=value DSN keeps its own); `local` stands for the project's own
    replicas (`voyager db replica add`), each with `dsn`'s database."""
    items = [spec] if isinstance(spec, str) else list(spec)
    out: list[str] = []
    for item in (x.strip() for i in items for x in i.split(",")):
        parts = item.split() if re.fullmatch(r"(\s*(local|postgres(ql)?://\S+)\s*)+", item) else [item]
        for part in filter(None, parts):
            out += local_replicas(dsn, cfg or Config.from_env()) if part == "local" else [part]
    return tuple(dict.fromkeys(out))


def local_replicas(dsn: str, cfg: Config) -> list[str]:
    from psycopg.conninfo import conninfo_to_dict

    from voyager import db, replicas

    if not cfg.local:
        raise ValueError("VOYAGER_DSN is set: `local` replicas are those of the project's own cluster")
    database = conninfo_to_dict(dsn).get("dbname") or cfg.database
    return [rep.dsn(database) for rep in replicas.replicas(db.cluster(cfg), cfg.home)]
