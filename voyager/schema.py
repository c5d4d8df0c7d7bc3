"""The schema under sqitch: its dump as text, and the deploy that first moves
a database deployed from the old plan onto the baseline.

The old plan (deploy/legacy/v0.plan) held several objects a change; the
baseline (sqitch.plan up to @v1.0) holds one object a change and the same
objects. A database of the old plan moves onto it without touching an object:
only after its dump equals a fresh baseline's are the old changes reverted
and the baseline's deployed, both with --log-only (the registry alone).
"""
from __future__ import annotations

import difflib
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg

from . import sqitch
from .config import pg_bindir

LEGACY_PLAN = "deploy/legacy/v0.plan"
BASELINE = "@v1.0"


class UpgradeRefused(RuntimeError):
    """The database's objects differ from the baseline's: nothing was changed."""


def dump(dsn: str) -> str:
    """Schema voyager as pg_dump writes it, without what differs between
    minor versions and runs (not between schemas): sql/schema.sql's form."""
    out = subprocess.run(
        [str(pg_bindir() / "pg_dump"), "--schema-only", "--schema=voyager", "--no-owner",
         "--no-privileges", "--no-comments", dsn],
        capture_output=True, text=True, check=True,
    ).stdout
    keep = [line for line in out.splitlines()
            if not line.startswith("-- Dumped ") and not line.startswith("\\restrict")
            and not line.startswith("\\unrestrict")]
    return "\n".join(keep).strip() + "\n"


def plan_change_ids(plan: str) -> set[str]:
    """The change ids of a plan file (relative to the project root)."""
    with tempfile.TemporaryDirectory(prefix="voyager-plan-") as tmp:
        shutil.copy(sqitch.PROJECT_ROOT / plan, Path(tmp) / "sqitch.plan")
        shutil.copy(sqitch.PROJECT_ROOT / "sqitch.conf", Path(tmp) / "sqitch.conf")
        out = subprocess.run(["sqitch", "plan", "--no-headers", "--format", "format:%H"],
                             cwd=tmp, capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def deployed_changes(dsn: str) -> list[tuple[str, str]]:
    """(change id, name) of the project's deployed changes, oldest first; none
    without a registry."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        if conn.execute("SELECT to_regclass('sqitch.changes')").fetchone()[0] is None:
            return []
        return conn.execute("SELECT change_id, change FROM sqitch.changes WHERE project = 'voyager'"
                            " ORDER BY committed_at").fetchall()


def _has_schema(dsn: str) -> bool:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return conn.execute("SELECT to_regnamespace('voyager') IS NOT NULL").fetchone()[0]


def baseline_dump(dsn: str) -> str:
    """The dump of the baseline freshly deployed, in a scratch database on
    dsn's server (dropped after)."""
    from .db import drop_database, recreate_database

    name = psycopg.conninfo.conninfo_to_dict(dsn).get("dbname", "voyager")[:40] + "_baseline_scratch"
    scratch = recreate_database(dsn, name)
    try:
        sqitch.run(scratch, "deploy", "--to", BASELINE)
        return dump(scratch)
    finally:
        drop_database(dsn, name)


def upgrade(dsn: str, log=print) -> bool:
    """Moves a database of the old plan onto the baseline (the registry only);
    false when it is not one. Refuses (UpgradeRefused), changing nothing, when
    its schema differs from the baseline's."""
    deployed = deployed_changes(dsn)
    old_ids = plan_change_ids(LEGACY_PLAN) if deployed else set()
    legacy = [name for cid, name in deployed if cid in old_ids]
    # no change logged but the objects there: an upgrade stopped between its two steps
    stranded = not deployed and _has_schema(dsn)
    if not legacy and not stranded:
        return False
    theirs, ours = dump(dsn), baseline_dump(dsn)
    if theirs != ours:
        diff = "".join(difflib.unified_diff(theirs.splitlines(True), ours.splitlines(True),
                                            "this database", f"the baseline {BASELINE}", n=2))
        raise UpgradeRefused(f"the schema differs from the baseline {BASELINE}; nothing was changed:\n{diff}")
    if legacy:
        sqitch.run(dsn, "revert", "-y", "--log-only", "--plan-file", LEGACY_PLAN)
    sqitch.run(dsn, "deploy", "--log-only", "--to", BASELINE)
    log(f"moved {len(legacy)} changes of the old plan onto the baseline {BASELINE} (registry only)")
    return True


def deploy(dsn: str, log=print) -> None:
    """`voyager db deploy`: the upgrade onto the baseline where it is due, then
    an ordinary sqitch deploy."""
    upgrade(dsn, log)
    out = sqitch.run(dsn, "deploy")
    for line in out.stdout.splitlines():
        if line.startswith("  + ") or "Nothing to deploy" in line:
            log(line.strip())

