"""`voyager spots inspect` against the simulator over TCP and the real
database: a corpus with spots indexed by the replay (the header pass), the
spotter's pass, then the inspector's: each spot's NZB read from
alt.binaries.ftd and matched to the release the header pass built for its
upload (as the simulator's truth says), the passwords the spots tell reaching
their releases (a locked verdict taken back), the placeholder's gone NZB
noted, a dispose taking a link and its password back, and a spot whose
release the catalog lacks standing alone after 24 hours, its NZB the
catalog's one writer's."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from ext import codec
from sim import spotfeed
from sim import spots as S
from sim.generate import Options, generate
from sim.server import run_in_thread
from voyager.corpus import Corpus
from voyager.tick import Tick
from workers.inspector import inspect_spots
from workers.namer import Namer
from workers.nntp import NntpConfig
from workers.replay import chunk_message_ids, replay_into_db
from workers.spots import parse_head, read_spot, verify_spot
from workers.spotter import _store, read_spots


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("inspector") / "corpus"
    generate(Options(out=out, seed=7, groups=1, lines=5_000, days=1, spots=6, bodies=False))
    return out


@pytest.fixture(scope="module")
def server(corpus):
    handle = run_in_thread(corpus)
    yield handle
    handle.stop()


def truth_of(corpus):
    spots = {t["message_id"]: t for t in json.loads((corpus / "spots" / "truth.json").read_text())}
    uploads = list(Corpus(corpus).truth())
    return spots, uploads


def upload_ids(upload) -> set[str]:
    return {seg[1] for f in upload["files"] for seg in f["segments"]}


def spotted(conn, db_dsn, server, corpus):
    """The header pass, then the spotter's; the NNTP config for the inspector."""
    replay_into_db(conn, corpus, groups="*,!free.pt,!alt.binaries.ftd")   # the spots' groups are read by the spotter
    keys = json.dumps({str(k): v for k, v in spotfeed.trusted_keys().items()})
    conn.execute("UPDATE voyager.settings SET value = %s WHERE name = 'spots_trusted_keys'", (keys,))
    cfg = NntpConfig(host="127.0.0.1", port=server.port, connections=4)
    read_spots(db_dsn, "t/spots", cfg)
    return cfg


def release_of(conn, mids: set[str]) -> int:
    """The catalog release holding the upload's articles (most of them)."""
    best = max(((len(chunk_message_ids(c) & mids), rid) for rid, c in conn.execute(
        "SELECT r.id, c.chunk FROM voyager.releases r JOIN voyager.release_chunks c ON c.release_id = r.id "
        "WHERE r.merged_into IS NULL")), default=(0, None))
    return best[1] if best[0] else None


def dispose(conn, target: str) -> None:
    """A moderator's signed dispose of target, as the spotter reads and stores it."""
    headers = parse_head(S.head_text(S.dispose_headers(target, spotfeed.SIM_KEYS[2], seed="later",
                                                       created=spotfeed.STAMP + 100)).encode())
    verdict = verify_spot(headers, spotfeed.trusted_keys())
    assert verdict["verified"] and verdict["trusted"]
    facts = {k: v for k, v in read_spot(headers).items() if isinstance(v, (str, int, bool, list, dict, type(None)))}
    _store(conn, "free.pt", [{**facts, "verified": True, "trusted": True}], {"stored": 0, "disposed": 0})


def verdict_of(conn, rid: int):
    conn.execute("SELECT voyager.judge_releases(%s)", ([rid],))
    row = conn.execute("SELECT verdict FROM voyager.release_judgements WHERE release_id = %s", (rid,)).fetchone()
    return row[0] if row else None


def pending_of(conn, mids: set[str]):
    """The pending release whose probe targets are the upload's articles."""
    return next((bytes(k) for k, cand in conn.execute("SELECT release_key, candidates FROM voyager.pending_releases")
                 if any(c[1] in mids for c in cand)), None)


def test_spots_matched_passwords_and_a_dispose(conn, db_dsn, server, corpus):
    spots, uploads = truth_of(corpus)
    cfg = spotted(conn, db_dsn, server, corpus)
    expected = {}
    for mid, t in spots.items():
        if "upload" in t:
            up = uploads[t["upload"]]
            if up["kind"] == "pending":
                expected[mid] = ("pending", pending_of(conn, upload_ids(up)))
            else:
                expected[mid] = ("release", release_of(conn, upload_ids(up)))
    assert all(v[1] for v in expected.values()) and {k for k, _ in expected.values()} == {"pending", "release"}

    # a spot's password for a release whose archive the prober found encrypted: locked until then
    told = next(mid for mid, t in spots.items() if t.get("password") and not t.get("disposed"))
    locked = expected[told][1]
    conn.execute("INSERT INTO voyager.release_passwords (release_id, status, password, source) "
                 "VALUES (%s, 1, NULL, 'archive')", (locked,))
    assert verdict_of(conn, locked) == "locked"

    stats = inspect_spots(db_dsn, "t/inspect", cfg)
    assert "error" not in stats
    matches = {m: (r, bytes(p) if p else None) for m, r, p in conn.execute(
        "SELECT spot_id, release_id, pending_key FROM voyager.spot_matches")}
    # each standing spot is linked to its upload's release, catalog or pending; the disposed one to none
    for mid, t in spots.items():
        if "upload" not in t:
            continue
        if t.get("disposed"):
            assert mid not in matches
        elif expected[mid][0] == "release":
            assert matches[mid] == (expected[mid][1], None), mid
        else:
            assert matches[mid] == (None, expected[mid][1]), mid
    states = dict(conn.execute("SELECT spot_id, state FROM voyager.spot_nzbs"))
    placeholder = next(m for m, t in spots.items() if t.get("placeholder"))
    assert states[placeholder] == "gone"
    forged = next(m for m, t in spots.items() if t.get("forged"))
    assert forged not in states                      # an unverified spot names nothing
    assert all(states[m] == "read" for m in matches)

    # the pending release the spot matched is named by it, and the namer moves it into the catalog
    spot, (_none, key) = next((m, v) for m, v in matches.items() if v[1])
    title = uploads[spots[spot]["upload"]]["name"]
    assert conn.execute("SELECT status, named, name_source FROM voyager.pending_releases WHERE release_key = %s",
                        (key,)).fetchone() == (4, title, 4)
    moved = Namer(db_dsn, "t/namer", until_idle=True, corpus=corpus).run()
    assert moved["moved"] >= 1
    conn.execute("SELECT voyager.settle_spots()")
    rid, = conn.execute("SELECT release_id FROM voyager.spot_matches WHERE spot_id = %s", (spot,)).fetchone()
    assert conn.execute("SELECT name, source FROM voyager.releases WHERE id = %s", (rid,)).fetchone() == (title, 4)
    assert chunk_message_ids(conn.execute("SELECT chunk FROM voyager.release_chunks WHERE release_id = %s",
                                          (rid,)).fetchone()[0]) == upload_ids(uploads[spots[spot]["upload"]])
    matches[spot] = (rid, None)

    # the passwords the spots tell reach their releases, from the spot's text
    for mid, t in spots.items():
        if mid in matches and t.get("password"):
            row = conn.execute("SELECT status, password, source FROM voyager.release_passwords WHERE release_id = %s",
                               (matches[mid][0],)).fetchone()
            assert row == (1, t["password"], "spot-text"), mid
    assert conn.execute("SELECT count(*) FROM voyager.judge_queue WHERE release_id = %s", (locked,)).fetchone()[0]
    assert verdict_of(conn, locked) is None          # the locked verdict taken back

    # a dispose takes the link and the password back: locked again
    dispose(conn, told)
    assert told not in {m for m, in conn.execute("SELECT spot_id FROM voyager.spot_matches")}
    assert conn.execute("SELECT status, password, source FROM voyager.release_passwords WHERE release_id = %s",
                        (locked,)).fetchone() == (1, None, "archive")
    assert verdict_of(conn, locked) == "locked"
    other = next((m for m, t in spots.items() if t.get("password") and m != told and m in matches), None)
    if other is not None:                            # a password the release had no row for: the row goes
        dispose(conn, other)
        assert conn.execute("SELECT count(*) FROM voyager.release_passwords WHERE release_id = %s",
                            (matches[other][0],)).fetchone()[0] == 0

    # a second pass reads nothing again
    again = inspect_spots(db_dsn, "t/inspect", cfg)
    assert again["inspected"] == 0


def test_a_spot_alone_after_a_day(conn, db_dsn, server, corpus):
    """A spot whose upload the catalog does not hold: unmatched, tried again
    hourly, a release of its own after 24 hours with the NZB's files; one
    whose pending release has no probe target found by its identity."""
    spots, uploads = truth_of(corpus)
    cfg = spotted(conn, db_dsn, server, corpus)
    lone = next(m for m, t in spots.items() if "upload" in t and not t.get("disposed")
                and uploads[t["upload"]]["kind"] == "release")
    rid = release_of(conn, upload_ids(uploads[spots[lone]["upload"]]))
    mids = upload_ids(uploads[spots[lone]["upload"]])
    # the header pass never saw that upload: its release and its probe targets gone
    conn.execute("DELETE FROM voyager.probe_candidates WHERE release_id = %s", (rid,))
    conn.execute("DELETE FROM voyager.release_chunks WHERE release_id = %s", (rid,))
    conn.execute("DELETE FROM voyager.releases WHERE id = %s", (rid,))
    # a pending release without probe targets: found by its release identity in its group, posted near the spot
    spotted_pending = next(m for m, t in spots.items() if "upload" in t and uploads[t["upload"]]["kind"] == "pending"
                           and not t.get("disposed"))
    key = pending_of(conn, upload_ids(uploads[spots[spotted_pending]["upload"]]))
    conn.execute("DELETE FROM voyager.probe_candidates WHERE pending_key = %s", (key,))
    # the tick's spots_inspect job: the inspector's pass on its own spots connection
    conn.execute("UPDATE voyager.jobs SET enabled = (name = 'spots_inspect'), next_run_at = now()")
    env = {"VOYAGER_NNTP_HOST": "127.0.0.1", "VOYAGER_NNTP_PORT": str(server.port), "VOYAGER_NNTP_CONNECTIONS": "4"}
    ran = Tick(db_dsn, node="t/tick", environ=env).run_due()
    assert [r["job"] for r in ran] == ["spots_inspect"] and ran[0]["error"] is None
    assert ran[0]["result"]["inspected"] == sum(1 for t in spots.values() if t["verified"] and not t.get("dispose")
                                                and not t.get("disposed"))
    assert conn.execute("SELECT count(*) FROM voyager.spot_matches WHERE spot_id = %s", (lone,)).fetchone()[0] == 0
    assert conn.execute("SELECT via, pending_key FROM voyager.spot_matches WHERE spot_id = %s",
                        (spotted_pending,)).fetchone() == ("identity", key)
    tries, = conn.execute("SELECT tries FROM voyager.spot_nzbs WHERE spot_id = %s", (lone,)).fetchone()
    out = conn.execute("SELECT voyager.settle_spots(now() + interval '30 minutes')").fetchone()[0]
    assert out["due"] == 0 and out["alone"] == 0     # not due again within the hour
    out = conn.execute("SELECT voyager.settle_spots(now() + interval '61 minutes')").fetchone()[0]
    assert out["due"] >= 1 and out["matched"] == 0 and out["alone"] == 0
    assert conn.execute("SELECT tries FROM voyager.spot_nzbs WHERE spot_id = %s", (lone,)).fetchone()[0] == tries + 1
    out = conn.execute("SELECT voyager.settle_spots(now() + interval '25 hours')").fetchone()[0]
    assert out["alone"] == 1
    own, via = conn.execute("SELECT release_id, via FROM voyager.spot_matches WHERE spot_id = %s", (lone,)).fetchone()
    assert via == "alone"
    name, source, files = conn.execute("SELECT name, source, files FROM voyager.releases WHERE id = %s",
                                       (own,)).fetchone()
    upload = uploads[spots[lone]["upload"]]
    assert (name, source, files) == (upload["name"], 4, len(upload["files"]))
    nzb = conn.execute("SELECT voyager.nzb(%s)", (own,)).fetchone()[0]
    assert all(m in (nzb if isinstance(nzb, str) else bytes(nzb).decode()) for m in mids)
    chunk, = conn.execute("SELECT chunk FROM voyager.release_chunks WHERE release_id = %s", (own,)).fetchone()
    assert chunk_message_ids(chunk) == frozenset(mids)
    assert len(codec.decode(bytes(chunk))) == len(upload["files"])
