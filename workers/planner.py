"""Planning calls: LIST ACTIVE data (from a corpus's groups.json, or a news
server) handed to `voyager.plan_groups` in one call."""
from __future__ import annotations

import contextlib
import json
from pathlib import Path

import psycopg
from psycopg.types.json import Jsonb


def read_groups_json(corpus: Path) -> list[dict]:
    """The LIST ACTIVE rows a corpus carries (the corpus layout's groups.json)."""
    path = Path(corpus) / "groups.json"
    if not path.exists():
        raise FileNotFoundError(f"{path}: a corpus needs groups.json to be planned")
    rows = json.loads(path.read_text())
    if not isinstance(rows, list):
        raise ValueError(f"{path}: expected a list of {{name, low, high, priority}}")
    return rows


def plan(conn: psycopg.Connection, listing: list[dict], wildmat: str | None = None) -> list[tuple]:
    """One round of planning; returns (group, priority, added, ranges added, grown, articles)."""
    return conn.execute(
        "SELECT * FROM voyager.plan_groups(%s, %s)", (Jsonb(listing), wildmat)
    ).fetchall()


class NoConnectionFree(RuntimeError):
    """The account's budget has no connection for the plain role now."""


@contextlib.contextmanager
def plain_claim(conn: psycopg.Connection, node: str, limit: int):
    """One connection of the account's budget for the plain role (LIST ACTIVE and
    other short control commands), claimed through voyager.nntp_claim like every
    worker's and given back after: it comes out of the reserve the headers and
    probes leave, so the account never goes over its limit."""
    got = conn.execute("SELECT voyager.nntp_claim(%s, 'plain', 1, %s::integer)", (node, limit)).fetchone()[0]
    if got < 1:
        raise NoConnectionFree(f"no NNTP connection free in the budget of {limit} for the plain role")
    try:
        yield
    finally:
        conn.execute("SELECT voyager.nntp_release(%s, 'plain')", (node,))


def list_active_claimed(conn: psycopg.Connection, node: str, config=None, wildmat: str | None = None,
                        retries: int = 2) -> list[dict]:
    """LIST ACTIVE on a connection of the budget's (plain_claim)."""
    from workers.nntp import NntpConfig, list_active

    config = config or NntpConfig.from_env()
    with plain_claim(conn, node, config.connections):
        return list_active(config, wildmat, retries=retries)
