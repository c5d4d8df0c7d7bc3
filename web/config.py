"""The web's configuration: the environment (VOYAGER_WEB_*, documented in the
README) over the project's database settings."""
from __future__ import annotations

import os
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

    def statement_settings(self) -> dict[str, str]:
        """What the web's statements run under: a runaway search is cancelled,
        no parallel workers on a busy server, and no JIT (a compile costs a
        hundred times what these statements do)."""
        return {"statement_timeout": str(self.statement_timeout_ms), "max_parallel_workers_per_gather": "0",
                "work_mem": "16MB", "jit": "off"}

    @classmethod
    def from_env(cls, **overrides) -> "WebConfig":
        cfg = Config.from_env()
        dsn = _env("VOYAGER_WEB_DSN", cfg.dsn)
        out = cls(
            dsn=dsn,
            base_url=os.environ.get("VOYAGER_WEB_URL") or None,
            title=_env("VOYAGER_WEB_TITLE", "Voyager"),
            pool_size=int(_env("VOYAGER_WEB_POOL", "3")),
            prepare=_env("VOYAGER_WEB_PREPARE", "1") != "0",
            count_cache=_env("VOYAGER_WEB_COUNT_CACHE", "1") != "0",
            secure_cookies=_env("VOYAGER_WEB_SECURE_COOKIES", "0") == "1",
        )
        return replace(out, **overrides)
