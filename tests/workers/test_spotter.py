"""`voyager spots read` against the simulator over TCP and the real database:
spots stored verified and trusted under the simulator's keys, the forged one
neither, the dispose taking its target back, a second run reading only new
articles."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim import spotfeed
from sim.generate import Options, generate
from sim.server import run_in_thread
from workers.nntp import NntpConfig
from workers.spotter import read_spots


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("spots") / "corpus"
    generate(Options(out=out, seed=7, groups=1, lines=5_000, days=1, spots=6, bodies=False))
    return out


@pytest.fixture(scope="module")
def server(corpus):
    handle = run_in_thread(corpus)
    yield handle
    handle.stop()


def test_spots_read_verified_disposed_and_once(conn, db_dsn, server, corpus):
    truth = {t["message_id"]: t for t in json.loads((corpus / "spots" / "truth.json").read_text())}
    keys = json.dumps({str(k): v for k, v in spotfeed.trusted_keys().items()})
    conn.execute("UPDATE voyager.settings SET value = %s WHERE name = 'spots_trusted_keys'", (keys,))
    cfg = NntpConfig(host="127.0.0.1", port=server.port, connections=4)
    first = read_spots(db_dsn, "t/spots", cfg)
    assert first["articles"] == len(truth)
    rows = {r[0]: r[1:] for r in conn.execute(
        "SELECT message_id, verified, trusted, disposed_at IS NOT NULL FROM voyager.spots")}
    assert set(rows) == set(truth)
    for mid, t in truth.items():
        verified, trusted, disposed = rows[mid]
        assert (verified, trusted) == (t["verified"], t["trusted"]), mid
        assert disposed == bool(t.get("disposed")), mid
    forged = [m for m, t in truth.items() if t.get("forged")]
    assert forged and all(not rows[m][0] and not rows[m][1] for m in forged)
    uploads = [json.loads(l) for l in (corpus / "truth.jsonl").read_text().splitlines()]
    assert {u["spot"] for u in uploads if "spot" in u} == {m for m, t in truth.items() if "upload" in t}
    again = read_spots(db_dsn, "t/spots", cfg)
    assert again["articles"] == 0 and again["stored"] == 0
