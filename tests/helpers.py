"""Small helpers the SQL tests share."""
from __future__ import annotations

import psycopg
from psycopg.types.json import Jsonb


def set_setting(conn: psycopg.Connection, name: str, value) -> None:
    cur = conn.execute("UPDATE voyager.settings SET value = %s WHERE name = %s", (str(value).lower(), name))
    assert cur.rowcount == 1, name


def plan(conn: psycopg.Connection, rows: list[dict], wildmat: str | None = None) -> list[tuple]:
    return conn.execute("SELECT * FROM voyager.plan_groups(%s, %s)", (Jsonb(rows), wildmat)).fetchall()


def ranges(conn: psycopg.Connection, group: str) -> list[tuple]:
    """(start, end, next, status, priority, lane) of a group's ranges in article order."""
    return conn.execute(
        """SELECT r.start_article, r.end_article, r.next_article, r.status::text, r.priority, r.lane::text
             FROM voyager.ranges r JOIN voyager.groups g ON g.id = r.group_id
            WHERE g.name = %s ORDER BY r.start_article""", (group,)).fetchall()


def lease(conn: psycopg.Connection, lane: str = "history", node: str = "test", **bounds) -> dict | None:
    row = conn.execute(
        "SELECT * FROM voyager.lease_group(%s, %s, %s, %s, %s)",
        (lane, node, bounds.get("min_priority"), bounds.get("max_priority"), bounds.get("capture_only")),
    ).fetchone()
    if row is None:
        return None
    cols = ["token", "group_id", "group_name", "lane", "holder", "snapshot_article", "snapshot_bytes", "taken_over"]
    return dict(zip(cols, row))


def next_range(conn: psycopg.Connection, token) -> dict | None:
    cur = conn.execute("SELECT * FROM voyager.next_range(%s)", (token,))
    row = cur.fetchone()
    return dict(zip([c.name for c in cur.description], row)) if row else None


def advance(conn: psycopg.Connection, token, rng: dict, first: int, nxt: int, headers: int = 0):
    return conn.execute("SELECT (voyager.advance_range(%s, %s, %s, %s, %s)).status::text",
                        (token, rng["range_id"], first, nxt, headers)).fetchone()[0]


def finish_range(conn: psycopg.Connection, token, rng: dict, batch: int = 0) -> None:
    """Stores a range's articles in batches of `batch` (one batch when 0)."""
    first, end = rng["next_article"], rng["end_article"]
    step = batch or (end - first + 1)
    while first <= end:
        nxt = min(first + step, end + 1)
        advance(conn, token, rng, first, nxt, nxt - first)
        first = nxt
