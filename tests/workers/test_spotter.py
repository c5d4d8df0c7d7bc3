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


def test_the_tick_reads_spots_every_period(conn, db_dsn, server, corpus):
    """The tick's spots_read job is the spotter's pass, on the spots role's
    own connection; a tick with no news server skips it."""
    from voyager.tick import Tick
    keys = json.dumps({str(k): v for k, v in spotfeed.trusted_keys().items()})
    conn.execute("UPDATE voyager.settings SET value = %s WHERE name = 'spots_trusted_keys'", (keys,))
    conn.execute("UPDATE voyager.jobs SET enabled = (name = 'spots_read')")
    none = Tick(db_dsn, node="t/none", environ={}).run_due()
    assert [r["result"] for r in none] == [{"skipped": "no news server configured (VOYAGER_NNTP_HOST)"}]
    conn.execute("UPDATE voyager.jobs SET next_run_at = now() WHERE name = 'spots_read'")
    env = {"VOYAGER_NNTP_HOST": "127.0.0.1", "VOYAGER_NNTP_PORT": str(server.port), "VOYAGER_NNTP_CONNECTIONS": "4"}
    ran = Tick(db_dsn, node="t/tick", environ=env).run_due()
    assert [r["job"] for r in ran] == ["spots_read"] and ran[0]["error"] is None
    truth = json.loads((corpus / "spots" / "truth.json").read_text())
    assert ran[0]["result"]["stored"] == len(truth)
    assert conn.execute("SELECT count(*) FROM voyager.spots").fetchone()[0] == len(truth)
    every, = conn.execute("SELECT s.value FROM voyager.jobs j JOIN voyager.settings s ON s.name = j.every_setting "
                          "WHERE j.name = 'spots_read'").fetchone()
    assert every == "120"
    assert conn.execute("SELECT coalesce(sum(connections), 0) FROM voyager.nntp_claims WHERE node LIKE 't/tick%'").fetchone()[0] == 0


def test_a_server_without_spotnet_reads_nothing_and_fails_nothing(conn, db_dsn, tmp_path):
    """A news server that does not carry free.pt: the pass notes the group
    missing and stores nothing, so a tick on such a server stays green."""
    bare = tmp_path / "bare"
    generate(Options(out=bare, seed=3, groups=1, lines=500, days=1, bodies=False))
    handle = run_in_thread(bare)
    try:
        out = read_spots(db_dsn, "t/bare", NntpConfig(host="127.0.0.1", port=handle.port, connections=2))
    finally:
        handle.stop()
    assert out["missing_group"] == "free.pt" and out["articles"] == 0 and out["stored"] == 0
    assert conn.execute("SELECT count(*) FROM voyager.spots").fetchone()[0] == 0
    # the connection it claimed is given back
    assert conn.execute("SELECT count(*) FROM voyager.nntp_claims WHERE node = 't/bare'").fetchone()[0] == 0
