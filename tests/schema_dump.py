"""The deployed schema as text, for the committed dump sql/schema.sql.

`make schema` writes it; tests/test_schema.py checks the deployed schema still
equals it, so a change to deploy/ comes with a reviewed change of the dump.
The dump itself is voyager.schema.dump (the upgrade onto the baseline compares
two of them).
"""
from __future__ import annotations

import sys

from voyager.config import Config
from voyager.schema import dump as schema_dump

if __name__ == "__main__":
    sys.stdout.write(schema_dump(sys.argv[1] if len(sys.argv) > 1 else Config.from_env().dsn))
