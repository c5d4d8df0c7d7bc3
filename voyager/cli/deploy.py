"""`voyager deploy units --out DIR`: the systemd units of every role (the
templates in systemd/ at the top of the checkout) rendered with this
checkout's paths, and the files they read: voyager.env (the database through
the database host's pgbouncer, the news server's account), worker-history.env
and worker-tail.env (each lane's options), pgbouncer.ini (the database host's
pgbouncer for the other hosts). DEPLOY.md says which host runs which."""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
from pathlib import Path

from ..capacity import pool_size
from ..config import Config

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "systemd"
# the news server's settings voyager.env carries when they are set where it is rendered
NNTP_SETTINGS = ("VOYAGER_NNTP_HOST", "VOYAGER_NNTP_PORT", "VOYAGER_NNTP_USER", "VOYAGER_NNTP_PASS",
                 "VOYAGER_NNTP_TLS", "VOYAGER_NNTP_VERIFY", "VOYAGER_NNTP_CONNECTIONS")


def checkout_python() -> str:
    """The checkout's virtualenv python (`make setup` makes it), else this one."""
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def fill(text: str, values: dict[str, str]) -> str:
    """@NAME@ placeholders replaced; one with no value is an error (a template's typo)."""
    def one(m: re.Match) -> str:
        if m.group(1) not in values:
            raise ValueError(f"no value for @{m.group(1)}@")
        return str(values[m.group(1)])
    return re.sub(r"@([A-Z_]+)@", one, text)


def nntp_lines(environ) -> str:
    set_ = [f"{k}={environ[k]}" for k in NNTP_SETTINGS if environ.get(k)]
    if set_:
        return "\n".join(set_)
    return ("# the news server's account (README, Configuration):\n"
            "# VOYAGER_NNTP_HOST=news.example.net\n# VOYAGER_NNTP_PORT=563\n# VOYAGER_NNTP_TLS=1\n"
            "# VOYAGER_NNTP_USER=...\n# VOYAGER_NNTP_PASS=...\n# VOYAGER_NNTP_CONNECTIONS=50")


def render(out: Path, *, dsn: str | None = None, user: str = "voyager", db_user: str = "postgres",
           home: str = "/var/lib/voyager", conf: Path | None = None, listen: str = "*", listen_port: int = 6432,
           db_host: str | None = None, pool: int | None = None, max_client_conn: int = 2000,
           history: int = 2, tail: int = 1, probe_threads: int = 4, web_host: str = "127.0.0.1",
           web_port: int = 8780, cfg: Config | None = None, environ=None) -> list[Path]:
    """Every template of systemd/ into out, filled; returns the files written."""
    cfg = cfg or Config.from_env()
    environ = os.environ if environ is None else environ
    out = Path(out).resolve()
    conf = Path(conf).resolve() if conf else out
    pool = pool or pool_size(os.cpu_count() or 1)
    db_host = db_host or os.uname().nodename
    values = {
        "ROOT": str(ROOT), "PYTHON": checkout_python(), "CONF": str(conf), "HOME": home,
        "USER": user, "DB_USER": db_user,
        "DSN": dsn or f"postgresql://{cfg.user}@{db_host}:{listen_port}/{cfg.database}",
        "NNTP": nntp_lines(environ),
        "DB": cfg.database, "DB_ROLE": cfg.user, "PGPORT": cfg.port, "LOCAL_BOUNCER_PORT": cfg.pgbouncer_port,
        "LISTEN": listen, "LISTEN_PORT": listen_port, "PGBOUNCER": shutil.which("pgbouncer") or "/usr/sbin/pgbouncer",
        "POOL": pool, "RESERVE_POOL": max(1, pool // 4), "MAX_CLIENT_CONN": max_client_conn,
        "PROBE_THREADS": probe_threads, "WEB_HOST": web_host, "WEB_PORT": web_port,
    }
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for template in sorted(TEMPLATES.iterdir()):
        target = out / template.name
        target.write_text(fill(template.read_text(), values))
        written.append(target)
    lanes = {"history": f"--threads {history}", "tail": f"--threads 0 --tail-threads {tail}"}
    for lane, args in lanes.items():
        target = out / f"worker-{lane}.env"
        target.write_text(f"# voyager-worker@{lane}.service's options (`voyager worker -h`)\n"
                          f"VOYAGER_WORKER_ARGS={args}\n")
        written.append(target)
    (out / "voyager.env").chmod(0o600)          # the news server's password, the database's DSN
    return written


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="voyager deploy", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    u = sub.add_parser("units", help="render the systemd units and their files into --out")
    u.add_argument("--out", required=True, help="the folder to write (e.g. /etc/voyager)")
    u.add_argument("--conf", help="where the files will be read from on the host (default --out)")
    u.add_argument("--dsn", help="the database through the database host's pgbouncer, as the worker and web "
                   "hosts reach it (default postgresql://USER@DB_HOST:LISTEN_PORT/DB)")
    u.add_argument("--db-host", help="the database host's name in the default --dsn (default this host's)")
    u.add_argument("--user", default="voyager", help="the user the workers, tick and web run as")
    u.add_argument("--db-user", default="postgres", help="the user the cluster and its pgbouncers run as")
    u.add_argument("--home", default="/var/lib/voyager", help="VOYAGER_HOME on every host (the cluster, the spool)")
    u.add_argument("--listen", default="*", help="the address the hosts' pgbouncer listens on")
    u.add_argument("--listen-port", type=int, default=6432)
    u.add_argument("--pool", type=int, help="pgbouncer's server connections (default two a core of this host)")
    u.add_argument("--max-client-conn", type=int, default=2000)
    u.add_argument("--history", type=int, default=2, help="history processes a worker host")
    u.add_argument("--tail", type=int, default=1, help="tail processes a worker host")
    u.add_argument("--probe-threads", type=int, default=4)
    u.add_argument("--web-host", default="127.0.0.1", help="what voyager web listens on (behind the TLS proxy)")
    u.add_argument("--web-port", type=int, default=8780)
    a = p.parse_args(argv)
    written = render(Path(a.out), dsn=a.dsn, user=a.user, db_user=a.db_user, home=a.home,
                     conf=Path(a.conf) if a.conf else None, listen=a.listen, listen_port=a.listen_port,
                     db_host=a.db_host, pool=a.pool, max_client_conn=a.max_client_conn, history=a.history,
                     tail=a.tail, probe_threads=a.probe_threads, web_host=a.web_host, web_port=a.web_port)
    print(json.dumps({"out": str(Path(a.out).resolve()), "files": [p.name for p in written]}))
    return 0
