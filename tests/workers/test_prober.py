"""`voyager probe` end to end: a generated corpus with its bodies indexed by
the replay, served by the simulator over TCP, probed by the worker against the
real database. The stored facts are held to the generator's truth
(bodies/files.jsonl): every probe target's yEnc name, its file's first 16 KiB
and size, no password invented; articles fetched per release within the bar;
a second run fetches nothing (the probe cache); a gone article is dead."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from sim.bodies import Bodies, file_bytes
from sim.generate import Options, generate
from sim.server import run_in_thread
from workers.nntp import NntpConfig
from workers.probe import read_article
from workers.prober import Prober
from workers.replay import replay_into_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("probe") / "corpus"
    generate(Options(out=out, seed=5, groups=2, lines=30_000, days=2, range_articles=20_000, chunk_articles=5_000))
    return out


@pytest.fixture(scope="module")
def server(corpus):
    handle = run_in_thread(corpus)
    yield handle
    handle.stop()


@pytest.fixture
def indexed(conn, corpus):
    for name, value in {"range_articles": 20_000, "chunk_articles": 5_000}.items():
        conn.execute("UPDATE voyager.settings SET value = %s WHERE name = %s", (str(value), name))
    replay_into_db(conn, corpus)
    return conn


def probe(db_dsn, server, node="p1", threads=3, **kw) -> dict:
    cfg = NntpConfig(host="127.0.0.1", port=server.port, connections=8)
    p = Prober(db_dsn, node, threads=threads, until_idle=True, nntp=cfg, reader=read_article, poll_seconds=0.2,
               **kw)
    return p.run()


def test_the_probed_facts_are_the_truths(indexed, db_dsn, server, corpus):
    conn = indexed
    targets = conn.execute("SELECT count(*) FROM voyager.probe_candidates").fetchone()[0]
    assert targets > 20
    kinds = {k for (k,) in conn.execute("SELECT DISTINCT kind FROM voyager.probe_candidates")}
    assert {"archive", "par2", "nfo"} <= kinds
    stats = probe(db_dsn, server)
    assert stats["stale"] == 0 and stats["retry"] == 0
    assert conn.execute("SELECT count(*) FROM voyager.probe_candidates WHERE probed_at IS NULL").fetchone()[0] == 0
    bodies = Bodies(corpus)
    locked: set[str] = set()
    rows = conn.execute("SELECT message_id, kind, status, error, facts FROM voyager.probe_cache").fetchall()
    assert len(rows) == stats["fetched"]
    wrong = []
    for mid, kind, status, error, facts in rows:
        found = bodies.spec(mid)
        assert found is not None, mid
        spec, part = found
        if status != 0:
            wrong.append((mid, kind, error))
            continue
        assert facts["yenc"]["name"] == spec["yenc_name"], mid
        if part == 1:
            start = file_bytes(spec, 0, min(16384, spec["bytes"]))
            assert facts["start"] == {"md5_16k": hashlib.md5(start).hexdigest(), "size": spec["bytes"]}, mid
        # what the readers found is what the generator put there
        if spec["kind"] == "par2" and part == 1:
            assert sorted((f["name"], f["size"]) for f in facts["par2"]["files"]) == \
                sorted((m["name"], m["bytes"]) for m in spec["members"]), mid
        if facts.get("archive") and spec.get("members") and kind in ("archive", "7z-tail"):
            a = facts["archive"]
            if spec.get("password"):
                assert a["encrypted_headers"] or a["encrypted_files"], mid
                locked.add(spec["release"])
            if not a["encrypted_headers"]:
                assert {e["name"] for e in a["entries"]} <= {m["name"] for m in spec["members"]}, mid
        if spec["kind"] == "nfo":
            assert facts["nfo"] and facts["nfo"]["text"], mid
    assert wrong == []
    hashes = conn.execute("SELECT count(*) FROM voyager.file_hashes").fetchone()[0]
    assert hashes == sum(1 for r in rows if r[4] and r[4].get("start"))
    # no password invented: a known password only where the truth has one
    truth_pw = {}
    for line in (corpus / "bodies" / "files.jsonl").read_text().splitlines():
        spec = json.loads(line)
        if spec.get("password"):
            truth_pw[spec["release"]] = spec["password"]
    for (pw,) in conn.execute("SELECT password FROM voyager.release_passwords WHERE password IS NOT NULL"):
        assert pw in truth_pw.values()
    # every passworded archive probed in the catalog is marked so (status 1), and nothing else
    marked = {n for (n,) in conn.execute("SELECT r.name FROM voyager.release_passwords p "
                                         "JOIN voyager.releases r ON r.id = p.release_id WHERE p.status = 1")}
    catalog = {n for (n,) in conn.execute("SELECT name FROM voyager.releases")}
    assert marked <= set(truth_pw) and locked & catalog <= marked
    assert conn.execute("SELECT count(*) FROM voyager.release_nfos").fetchone()[0] > 0
    assert conn.execute("SELECT count(*) FROM voyager.release_texts WHERE kind = 2").fetchone()[0] > 0
    # articles fetched per release probed: a few
    per = Counter(r for (r,) in conn.execute(
        "SELECT coalesce(release_id::text, encode(pending_key, 'hex')) FROM voyager.probe_candidates pc "
        "WHERE EXISTS (SELECT 1 FROM voyager.probe_cache c WHERE c.message_id = pc.message_id) "
        "GROUP BY 1, message_id"))
    assert max(per.values()) <= 5 and sum(per.values()) / len(per) <= 3, per.most_common(3)
    assert conn.execute("SELECT problem FROM voyager.check_catalog() WHERE rows > 0").fetchall() == []


def test_a_second_pass_fetches_nothing(indexed, db_dsn, server):
    conn = indexed
    first = probe(db_dsn, server)
    assert first["fetched"] > 0
    # a re-index: the candidates made again, the cache kept
    conn.execute("UPDATE voyager.probe_candidates SET probed_at = NULL, claim = NULL, expires_at = NULL, attempts = 0")
    again = probe(db_dsn, server, node="p2")
    assert again["fetched"] == 0 and again["cached"] == first["claimed"]
    assert conn.execute("SELECT count(*) FROM voyager.probe_candidates WHERE probed_at IS NULL").fetchone()[0] == 0


def test_a_gone_article_is_recorded_dead(indexed, db_dsn, server):
    conn = indexed
    conn.execute("UPDATE voyager.probe_candidates SET message_id = 'gone-' || message_id WHERE kind = 'par2'")
    gone = conn.execute("SELECT count(DISTINCT message_id) FROM voyager.probe_candidates WHERE kind = 'par2'"
                        ).fetchone()[0]
    stats = probe(db_dsn, server)
    assert stats["dead"] == gone > 0
    (row,) = conn.execute("SELECT probes_dead FROM voyager.status_phase2").fetchall()
    assert row[0] == {"par2": gone}
    assert conn.execute("SELECT count(*) FROM voyager.probe_candidates WHERE probed_at IS NULL").fetchone()[0] == 0


def test_the_command_runs_until_idle(indexed, db_dsn, server, tmp_path):
    import os
    env = dict(os.environ, VOYAGER_WORKER_DSN=db_dsn, VOYAGER_NNTP_HOST="127.0.0.1",
               VOYAGER_NNTP_PORT=str(server.port), VOYAGER_NNTP_CONNECTIONS="4", VOYAGER_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-m", "voyager.cli", "probe", "--threads", "2", "--until-idle",
                          "--node", "cmd"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    stats = json.loads(out.stdout.strip().splitlines()[-1])
    assert stats["node"] == "cmd/probe" and stats["fetched"] > 0 and stats["stale"] == 0
