"""`voyager rules list`, `voyager rules show [VERSION]`, `voyager rules add FILE.json [--note TEXT]`:
the window's rule sets (voyager.rule_sets). A worker loads the current one with
each lease (voyager.lease_rules), so a new rule set applies from the next lease;
the database checks a new one against the keys and types the window knows.

`voyager rules retract dropped-poster|garbage KEY [--note TEXT]` adds the rule
set without that entry and plans the recovery of what it dropped
(voyager.retract_rule); `voyager rules recover [--until-idle] [--flush-at-end]`
runs the recoveries (workers/recovery.py), as a worker process does."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import psycopg
from psycopg.types.json import Jsonb


def add(conn: psycopg.Connection, rules, note: str = "") -> int:
    try:
        return conn.execute("SELECT voyager.add_rule_set(%s, %s)", (Jsonb(rules), note)).fetchone()[0]
    except psycopg.errors.InvalidParameterValue as e:
        hint = f" ({e.diag.message_hint})" if e.diag.message_hint else ""
        raise ValueError(f"{e.diag.message_primary}{hint}") from None


def main(argv: list[str], dsn: str) -> int:
    p = argparse.ArgumentParser(prog="voyager rules", description="The window's rule sets")
    sub = p.add_subparsers(dest="action", required=True)
    sub.add_parser("list", help="every version with its date, note and the ranges that ran with it, as JSON lines")
    s = sub.add_parser("show", help="a rule set as JSON (default: the current one)")
    s.add_argument("version", nargs="?", type=int)
    a = sub.add_parser("add", help="a new rule set from a JSON file (keys not given: the current set's); "
                                   "prints its version")
    a.add_argument("file", help="a JSON object ('-': standard input)")
    a.add_argument("--note", default="", help="why it changed")
    r = sub.add_parser("retract", help="a rule set without a dropped poster or a garbage tool, and the recovery "
                                       "of what it dropped planned; prints the groups, as JSON lines")
    r.add_argument("rule", choices=["dropped-poster", "garbage"])
    r.add_argument("key", help="the poster, or the garbage signature's tool")
    r.add_argument("--note", default=None)
    rc = sub.add_parser("recover", help="run the planned recoveries (retracted rules, removed groups' crossposts)")
    rc.add_argument("--until-idle", action="store_true", help="exit when no recovery is left to lease")
    rc.add_argument("--flush-at-end", action="store_true",
                    help="a recovery ending where its group's data ends finishes what is open (a fixed corpus)")
    rc.add_argument("--node", default=None)
    args = p.parse_args(argv)
    if args.action == "recover":
        import os

        from workers.recovery import RecoveryLane

        lane = RecoveryLane(args.node or f"{os.uname().nodename}/recovery", args.until_idle, args.flush_at_end)
        print(json.dumps(lane.run()))
        return 0
    with psycopg.connect(dsn, autocommit=True) as conn:
        if args.action == "list":
            for version, created, note, ranges in conn.execute(
                    """SELECT rs.version, rs.created_at, rs.note,
                              (SELECT count(*) FROM voyager.ranges r WHERE r.rule_version = rs.version)
                         FROM voyager.rule_sets rs ORDER BY rs.version"""):
                print(json.dumps({"version": version, "created_at": created.isoformat(), "note": note,
                                  "ranges": ranges}))
        elif args.action == "show":
            row = conn.execute("SELECT version, rules FROM voyager.rule_set(%s)", (args.version,)).fetchone()
            if row is None or row[0] is None:
                raise ValueError(f"no rule set {args.version}")
            print(json.dumps(row[1], indent=2, sort_keys=True))
        elif args.action == "retract":
            try:
                rows = conn.execute("SELECT * FROM voyager.retract_rule(%s, %s, %s)",
                                    (args.rule, args.key, args.note)).fetchall()
            except psycopg.errors.InvalidParameterValue as e:
                raise ValueError(e.diag.message_primary) from None
            for version, group, ranges, stale in rows:
                print(json.dumps({"rule_version": version, "group": group, "ranges": ranges, "stale": stale}))
        else:
            text = Path("/dev/stdin").read_text() if args.file == "-" else Path(args.file).read_text()
            try:
                rules = json.loads(text)
            except json.JSONDecodeError as e:
                raise ValueError(f"{args.file}: not JSON: {e}") from None
            print(add(conn, rules, args.note))
    return 0
