"""Planning calls: LIST ACTIVE data (from a corpus's groups.json, or a news
server) handed to `voyager.plan_groups` in one call."""
from __future__ import annotations

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
