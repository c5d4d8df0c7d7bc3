"""`voyager users add NAME [--role ROLE]` (prints the new API key), `voyager users list`,
`voyager users set NAME [--role R] [--requests N] [--downloads N] [--suspend|--unsuspend] [--new-key]`.

Only a key's hash is stored: `add` and `set --new-key` print the key once,
and nothing can print it again."""
from __future__ import annotations

import argparse
import json

import psycopg


def add(conn: psycopg.Connection, name: str, role: str = "user") -> str:
    return conn.execute("SELECT voyager.add_user(%s, %s)", (name, role)).fetchone()[0]


def new_key(conn: psycopg.Connection, user_id: int) -> str:
    """A fresh key for the user (returned, its hash stored); the old key and
    the user's web sessions stop working."""
    key = conn.execute(
        """UPDATE voyager.users SET api_key_hash = voyager.api_key_hash(k.key)
             FROM (SELECT voyager.new_api_key() AS key) k WHERE id = %s RETURNING k.key""", (user_id,)).fetchone()[0]
    conn.execute("DELETE FROM voyager.web_sessions WHERE user_id = %s", (user_id,))
    return key


def main(argv: list[str], dsn: str) -> int:
    p = argparse.ArgumentParser(prog="voyager users", description="API users and their keys")
    sub = p.add_subparsers(dest="action", required=True)
    a = sub.add_parser("add", help="a new user; prints the API key")
    a.add_argument("name")
    a.add_argument("--role", default="user", help="user, power, admin (voyager.roles)")
    sub.add_parser("list", help="users, roles, quotas and today's counts, as JSON lines")
    s = sub.add_parser("set", help="change a user")
    s.add_argument("name")
    s.add_argument("--role")
    s.add_argument("--requests", type=int, help="own requests per day (-1: the role's)")
    s.add_argument("--downloads", type=int, help="own NZBs per day (-1: the role's)")
    s.add_argument("--suspend", action="store_true")
    s.add_argument("--unsuspend", action="store_true")
    s.add_argument("--new-key", action="store_true", help="a fresh API key (printed); the old one stops working")
    args = p.parse_args(argv)
    with psycopg.connect(dsn, autocommit=True) as conn:
        try:
            if args.action == "add":
                print(add(conn, args.name, args.role))
            elif args.action == "list":
                cur = conn.execute(
                    """SELECT u.name, u.role, u.suspended, coalesce(u.requests_per_day, r.requests_per_day),
                              coalesce(u.downloads_per_day, r.downloads_per_day), coalesce(d.requests, 0),
                              coalesce(d.downloads, 0), u.created_at
                         FROM voyager.users u JOIN voyager.roles r ON r.name = u.role
                         LEFT JOIN voyager.user_days d ON d.user_id = u.id AND d.day = (now() AT TIME ZONE 'UTC')::date
                        ORDER BY u.name""")
                for row in cur:
                    print(json.dumps(dict(zip(["name", "role", "suspended", "requests_per_day", "downloads_per_day",
                                               "requests_today", "downloads_today", "created_at"], row)), default=str))
            else:
                with conn.transaction():
                    found = conn.execute("SELECT id FROM voyager.users WHERE name = %s FOR UPDATE", (args.name,)).fetchone()
                    if found is None:
                        raise ValueError(f"no user named {args.name}")
                    if args.role:
                        conn.execute("UPDATE voyager.users SET role = %s WHERE id = %s", (args.role, found[0]))
                    for opt, col in (("requests", "requests_per_day"), ("downloads", "downloads_per_day")):
                        v = getattr(args, opt)
                        if v is not None:
                            conn.execute(f"UPDATE voyager.users SET {col} = %s WHERE id = %s",
                                         (None if v < 0 else v, found[0]))
                    if args.suspend or args.unsuspend:
                        conn.execute("UPDATE voyager.users SET suspended = %s WHERE id = %s", (args.suspend, found[0]))
                        conn.execute("DELETE FROM voyager.web_sessions WHERE user_id = %s", (found[0],))
                    if args.new_key:
                        print(new_key(conn, found[0]))
        except psycopg.errors.UniqueViolation:
            raise ValueError(f"a user named {args.name} exists already") from None
        except psycopg.errors.ForeignKeyViolation:
            raise ValueError("no such role (see voyager.roles)") from None
        except psycopg.errors.CheckViolation as e:
            raise ValueError(f"refused: {e.diag.message_primary}") from None
    return 0
