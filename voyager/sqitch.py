"""Run sqitch (the schema's deploy/revert/verify) against a libpq DSN."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path
from urllib.parse import quote

from psycopg.conninfo import conninfo_to_dict

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def target(dsn: str) -> str:
    """The sqitch target URI (db:pg://user@host:port/db) of a libpq DSN."""
    d = conninfo_to_dict(dsn)
    user = quote(d.get("user", ""))
    host = d.get("host", "")
    if host.startswith("/"):  # a socket folder: sqitch takes it as a query parameter
        return f"db:pg://{user}@:{d.get('port', '5432')}/{quote(d.get('dbname', ''))}?host={quote(host)}"
    return f"db:pg://{user}@{host}:{d.get('port', '5432')}/{quote(d.get('dbname', ''))}"


def run(dsn: str, *args: str, check: bool = True, project: Path = PROJECT_ROOT) -> subprocess.CompletedProcess:
    """`sqitch <args> --target <dsn>`, from the project root (or another
    project's folder: its plan and scripts)."""
    d = conninfo_to_dict(dsn)
    env = dict(os.environ)
    env.setdefault("SQITCH_FULLNAME", "Voyager")
    env.setdefault("SQITCH_EMAIL", "voyager@localhost")
    if d.get("password"):
        env["SQITCH_PASSWORD"] = d["password"]
    env["PGOPTIONS"] = "-c client_min_messages=warning"
    cmd = ["sqitch", *args, "--target", target(dsn)]
    out = subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True)
    if check and out.returncode != 0:
        raise RuntimeError(f"sqitch {' '.join(args)} failed ({out.returncode}):\n{out.stdout}{out.stderr}")
    return out
