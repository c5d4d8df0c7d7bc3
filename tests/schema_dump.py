"""The deployed schema as text, for the committed dump sql/schema.sql.

`make schema` writes it; tests/test_schema.py checks the deployed schema still
equals it, so a change to deploy/ comes with a reviewed change of the dump.
"""
from __future__ import annotations

import subprocess
import sys

from voyager.config import Config, pg_bindir


def schema_dump(dsn: str) -> str:
    out = subprocess.run(
        [str(pg_bindir() / "pg_dump"), "--schema-only", "--schema=voyager", "--no-owner",
         "--no-privileges", "--no-comments", dsn],
        capture_output=True, text=True, check=True,
    ).stdout
    # Drop what differs between minor versions and runs, not between schemas.
    keep = [line for line in out.splitlines()
            if not line.startswith("-- Dumped ") and not line.startswith("\\restrict")
            and not line.startswith("\\unrestrict")]
    return "\n".join(keep).strip() + "\n"


if __name__ == "__main__":
    sys.stdout.write(schema_dump(sys.argv[1] if len(sys.argv) > 1 else Config.from_env().dsn))
