"""The status views, printed for a terminal (operators can read the same views in psql)."""
from __future__ import annotations

import psycopg
from rich.console import Console
from rich.table import Table

VIEWS = [
    ("Ranges by band and state", "SELECT * FROM voyager.status_ranges"),
    ("Groups", "SELECT * FROM voyager.status_groups"),
    ("Held leases", "SELECT * FROM voyager.status_leases"),
]


def _cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, int) and abs(v) >= 10_000:
        return f"{v:,}"
    return str(v)


def print_status(conn: psycopg.Connection, console: Console | None = None, limit: int = 50) -> None:
    console = console or Console(width=200)
    for title, query in VIEWS:
        cur = conn.execute(query + f" LIMIT {int(limit)}")
        table = Table(title=title, title_justify="left")
        for col in cur.description:
            table.add_column(col.name)
        rows = cur.fetchall()
        for row in rows:
            table.add_row(*(_cell(v) for v in row))
        if not rows:
            table.add_row(*(["-"] + [""] * (len(cur.description) - 1)))
        console.print(table)
