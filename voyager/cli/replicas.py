"""`voyager db replica add [--name N] | list | remove NAME`: read replicas of
the local cluster on this machine (voyager.replicas)."""
from __future__ import annotations

import argparse
import json

from .. import db, replicas
from ..config import Config


def main(argv: list[str], cfg: Config) -> int:
    p = argparse.ArgumentParser(prog="voyager db replica",
                                description="streaming read replicas of the local cluster on this machine")
    sub = p.add_subparsers(dest="verb", required=True)
    a = sub.add_parser("add", help="make (once) and start a replica: pg_basebackup, a slot, hot standby")
    a.add_argument("--name", default=replicas.DEFAULT_NAME, help=f"its name and its slot's (default {replicas.DEFAULT_NAME})")
    a.add_argument("--shared-buffers", type=int, metavar="MB",
                   help="its shared_buffers when it is made (default the primary's: on the primary's own machine, "
                        "a pool that fits beside the primary's in huge pages)")
    sub.add_parser("list", help="the replicas as JSON lines: name, port, DSN, running, replay lag")
    r = sub.add_parser("remove", help="stop a replica, drop its slot, delete its folder")
    r.add_argument("name")
    args = p.parse_args(argv)
    if not cfg.local:
        p.error("VOYAGER_DSN is set: replicas are made of the project's own cluster")
    primary = db.cluster(cfg)
    if args.verb == "add":
        rep = replicas.add(primary, cfg.home, args.name, shared_buffers_mb=args.shared_buffers)
        print(json.dumps({"name": rep.name, "port": rep.cluster.port, "dsn": rep.dsn(cfg.database)}))
    elif args.verb == "list":
        for row in replicas.listing(primary, cfg.home, cfg.database):
            print(json.dumps(row))
    elif not replicas.remove(primary, cfg.home, args.name):
        print(f"no replica {args.name}")
        return 1
    return 0
