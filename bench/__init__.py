"""Every benchmark and measurement, apart from the product: `voyager bench
window|store|e2e|nzb|api|judge|phase2|scale` (window, store, e2e, nzb, api
with the generated catalog of each size that api, judge, phase2, store
--into and scale share, catalog), `voyager sim bench-server` (server), the offline replay and its
fidelity against a corpus's truth (replay, `voyager replay --window-only`), the
release chunk codec (`python -m bench.codec`), the Newznab documents
(`python -m bench.feeds`) and the CPU of processes they quote (cpu). Each
prints one JSON line, but feeds (a table)."""

import importlib
import sys
from pathlib import Path


def oracle(name: str):
    """The tests' pure-Python oracle `tests/<name>.py` of this checkout, for a
    bench that quotes it beside the fast code; None where there is no tests/
    folder (an installed copy): the product never imports it."""
    root = Path(__file__).resolve().parent.parent
    if not (root / "tests" / f"{name}.py").is_file():
        return None
    if str(root) not in sys.path:
        sys.path.append(str(root))
    return importlib.import_module(f"tests.{name}")
