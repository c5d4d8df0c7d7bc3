"""The status views, printed for a terminal or as one JSON object (operators
can read the same views in psql), and the spool report workers send."""
from __future__ import annotations

import datetime as dt
import decimal
import json
import os
import uuid
from pathlib import Path

import psycopg
from rich.console import Console
from rich.table import Table

from . import replicas

# (key in --json, title, view, one row?)
PANELS = [
    ("catalog", "Catalog (against catalog_max_gb)", "voyager.status_catalog", True),
    ("throughput", "The last hour", "voyager.status_throughput", True),
    ("bands", "Ranges by band", "voyager.status_bands", False),
    ("failed", "Failed ranges (each stops its lane until voyager ranges retry)", "voyager.status_failed", False),
    ("recoveries", "Recoveries (voyager rules recover): the kept snapshot each starts from, or its fresh window",
     "voyager.status_recoveries", False),
    ("tail", "Tail backlog", "voyager.status_tail", False),
    ("held", "Held groups", "voyager.status_held", False),
    ("spool", "Spool", "voyager.status_spool", False),
    ("phase2", "Phase-2 backlogs", "voyager.status_phase2", True),
    ("merges", "Merges (the merges job: its place and backlog)", "voyager.status_merges", False),
    ("judge", "The junk judge (hidden by rule, the dirty backlog, the judge jobs)", "voyager.status_judge", False),
    ("search", "Search counts", "voyager.status_search", True),
    ("jobs", "Jobs (voyager tick)", "voyager.status_jobs", False),
    ("groups", "Groups", "voyager.status_groups", False),
]


# not a view: the primary's replication slots and their standbys (voyager.replicas.PRIMARY_SQL)
REPLICAS_TITLE = "Replicas (each slot's standby: WAL not replayed, the replay lag the primary last heard)"

# columns the terminal leaves out (too wide; --json and psql have them)
TERMINAL_SKIP = {"jobs": {"function", "enabled", "next_run_at", "last_node"},
                 "recoveries": {"rule_version", "planned_at"},
                 "merges": {"last_result", "last_error"},
                 "judge": {"judge_last_result", "judge_last_error", "daily_last_result", "daily_last_error",
                           "daily_pass_began"}}


def collect(conn: psycopg.Connection, limit: int = 50) -> dict:
    """Every panel: one-row views as an object, the others as a list of objects."""
    out: dict = {}
    for key, _title, view, one in PANELS:
        cur = conn.execute(f"SELECT * FROM {view} LIMIT {int(limit)}")
        names = [c.name for c in cur.description]
        rows = [dict(zip(names, r)) for r in cur.fetchall()]
        out[key] = (rows[0] if rows else {}) if one else rows
    out["replicas"] = replicas.primary_view(conn)
    return out


def to_json(value):
    """json.dumps default: timestamps as ISO text, intervals as seconds, numerics as numbers."""
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _size(n: int) -> str:
    for unit in ("B", "kB", "MB", "GB", "TB"):
        if abs(n) < 1024 or unit == "TB":
            return f"{n:,} B" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1024
    return str(n)   # pragma: no cover


def cell(name: str, v) -> str:
    """A value as the terminal shows it (and the status page)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, decimal.Decimal) and v == v.to_integral_value():
        v = int(v)
    if isinstance(v, int) and name.endswith("bytes"):
        return _size(v)
    if isinstance(v, int) and abs(v) >= 10_000:
        return f"{v:,}"
    if isinstance(v, dt.datetime):
        return v.astimezone(dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(v, (dict, list)):
        text = json.dumps(v, default=to_json, separators=(",", ":"))
        return text if len(text) <= 80 else text[:77] + "..."
    return str(v)


def print_status(conn: psycopg.Connection, console: Console | None = None, limit: int = 50,
                 as_json: bool = False) -> None:
    data = collect(conn, limit)
    if as_json:
        print(json.dumps(data, default=to_json))
        return
    console = console or Console(width=220)
    for key, title, _view, one in [*PANELS, ("replicas", REPLICAS_TITLE, None, False)]:
        table = Table(title=title, title_justify="left")
        if one:
            table.add_column("figure")
            table.add_column("value", justify="right")
            for name, v in data[key].items():
                table.add_row(name, cell(name, v))
        else:
            rows = data[key]
            if not rows:
                console.print(f"[bold]{title}[/bold]: none")
                continue
            skip = TERMINAL_SKIP.get(key, set())
            names = [n for n in rows[0] if n not in skip]
            for name in names:
                values = [r[name] for r in rows if r[name] is not None]
                numeric = bool(values) and all(isinstance(v, (int, float, decimal.Decimal))
                                               and not isinstance(v, bool) for v in values)
                table.add_column(name, justify="right" if numeric else "left")
            for row in rows:
                cells = [cell(n, row[n]) for n in names]
                if key == "tail" and row["group_name"] is None:
                    cells[0] = "(all groups)"
                table.add_row(*cells)
        console.print(table)


# -- the spool report ---------------------------------------------------------------------------

def spool_usage(root: Path) -> tuple[int, int]:
    """(bytes, files) of the spool's chunk files (<root>/<group>/<first>-<last>.ov)."""
    total = files = 0
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            if name.endswith(".ov"):
                try:
                    total += os.stat(os.path.join(dirpath, name)).st_size
                except FileNotFoundError:       # stored and deleted meanwhile
                    continue
                files += 1
    return total, files


def report_spool(conn: psycopg.Connection, node: str, root: Path, cap_bytes: int | None = None) -> tuple[int, int]:
    """Measures the spool and reports it (voyager.report_spool): what a worker
    calls with its machine's node name, e.g. with each heartbeat."""
    total, files = spool_usage(Path(root))
    conn.execute("SELECT voyager.report_spool(%s, %s, %s, %s)", (node, total, files, cap_bytes))
    return total, files
