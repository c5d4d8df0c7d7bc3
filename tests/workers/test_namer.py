"""Obfuscated uploads end to end: a generated corpus with its bodies indexed
by the replay (every file random-named: pending releases, no catalog row),
probed by `voyager probe` against the simulator's server, named by the
tick's pending_ladder job (half of them by a par2 set made before the files
were renamed, the rest by their archive's entries), moved by the namer
(`voyager namer`, reading the spans again by XOVER; in process, from the
corpus). Each moved release is its truth upload: the name the upload really
has, and an NZB (voyager.nzb) that holds every segment of it."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sim.generate import Options, generate
from sim.server import run_in_thread
from voyager.corpus import Corpus
from workers.nntp import NntpConfig
from workers.namer import Namer
from workers.replay import replay_into_db

ROOT = Path(__file__).resolve().parents[2]
NZB = "{http://www.newzbin.com/DTD/2003/nzb}"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("namer") / "corpus"
    generate(Options(out=out, seed=5, groups=2, lines=30_000, days=2, range_articles=20_000, chunk_articles=5_000))
    made_before_renaming(out)
    return out


def made_before_renaming(corpus: Path) -> None:
    """Half the obfuscated uploads' par2 sets as an uploader makes them before
    renaming the files: they describe the real names (the bodies are made from
    bodies/files.jsonl; the default corpus's other bytes stay as they are)."""
    path = corpus / "bodies" / "files.jsonl"
    specs = [json.loads(x) for x in path.read_text().splitlines()]
    for spec in specs:
        stem = spec["name"].split(".")[0]
        if spec["kind"] in ("par2", "par2vol") and re.fullmatch("[0-9a-f]{32}", stem) and int(stem[:2], 16) % 2 == 0:
            spec["members"] = [dict(m, name=m["name"].replace(stem, spec["release"])) for m in spec["members"]]
    path.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in specs))


@pytest.fixture(scope="module")
def server(corpus):
    handle = run_in_thread(corpus)
    yield handle
    handle.stop()


def env_for(db_dsn, server, tmp_path) -> dict:
    env = dict(os.environ, VOYAGER_WORKER_DSN=db_dsn, VOYAGER_NNTP_HOST="127.0.0.1",
               VOYAGER_NNTP_PORT=str(server.port), VOYAGER_NNTP_CONNECTIONS="4", VOYAGER_HOME=str(tmp_path))
    env.pop("VOYAGER_CORPUS", None)
    return env


def command(env, *args) -> dict:
    out = subprocess.run([sys.executable, "-m", "voyager.cli", *args], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture
def named(conn, db_dsn, corpus, server, tmp_path):
    """Indexed, probed by the command, and climbed the ladder."""
    for name, value in {"range_articles": 20_000, "chunk_articles": 5_000}.items():
        conn.execute("UPDATE voyager.settings SET value = %s WHERE name = %s", (str(value), name))
    replay_into_db(conn, corpus)
    truth = [u for u in Corpus(corpus).truth() if u["kind"] == "pending"]
    assert conn.execute("SELECT count(*) FROM voyager.pending_releases").fetchone()[0] == len(truth) > 3
    stats = command(env_for(db_dsn, server, tmp_path), "probe", "--threads", "2", "--until-idle", "--node", "p")
    assert stats["fetched"] > 0 and stats["stale"] == 0
    out = conn.execute("SELECT voyager.run_sql_job('pending_ladder')").fetchone()[0]
    assert out["named"] == len(truth) and out["looked"] == len(truth)
    return truth


def assert_moved_as_their_truth(conn, truth, corpus: Path) -> None:
    by_name = {u["name"]: u for u in truth}
    rows = conn.execute("SELECT p.status, r.id, r.name, r.source, r.files FROM voyager.pending_releases p "
                        "LEFT JOIN voyager.releases r ON r.id = p.release_id").fetchall()
    assert {s for s, *_ in rows} == {1}                      # every one named and in the catalog
    assert {n for _s, _i, n, _src, _f in rows} == set(by_name)
    sources = {src for *_x, src, _f in rows}
    assert 7 in sources                                      # named by its par2 set
    for _s, rid, name, _src, files in rows:
        upload = by_name[name]
        nzb = ET.fromstring(conn.execute("SELECT voyager.nzb(%s)", (rid,)).fetchone()[0])
        got = {s.text for s in nzb.iter(f"{NZB}segment")}
        want = {m for f in upload["files"] for _part, m, _b in f["segments"]}
        assert got == want, name                             # every segment of the upload, and nothing else
        assert files == len(upload["files"])
        meta = {m.get("type"): m.text for m in nzb.iter(f"{NZB}meta")}
        assert meta["name" if "name" in meta else "title"] == name
    # what the probes read comes along: a release marked passworded only where its upload has a password
    # (the simulator draws one per file: a volume read may hold none)
    locked = {json.loads(x)["release"] for x in (corpus / "bodies" / "files.jsonl").read_text().splitlines()
              if json.loads(x).get("password")} & set(by_name)
    marked = {n for (n,) in conn.execute("SELECT r.name FROM voyager.release_passwords p JOIN voyager.releases r "
                                          "ON r.id = p.release_id WHERE p.status = 1 AND r.source >= 7")}
    assert marked and marked <= locked
    assert conn.execute("SELECT problem FROM voyager.check_catalog() WHERE rows > 0").fetchall() == []
    assert conn.execute("SELECT count(*) FROM voyager.check_search_counts()").fetchone()[0] == 0
    # posted when the first pass saw it (a span read again alone has no frontier for an impossible Date)
    assert conn.execute("SELECT count(*) FROM voyager.pending_releases p JOIN voyager.releases r ON r.id = p.release_id "
                        "WHERE (r.posted_at, r.last_posted_at) IS DISTINCT FROM (p.posted_at, p.last_posted_at)"
                        ).fetchone()[0] == 0
    # found by its name at once
    some = next(iter(by_name))
    assert conn.execute("SELECT count(*) FROM voyager.release_texts t JOIN voyager.releases r ON r.id = t.release_id "
                        "WHERE t.kind = 1 AND t.text = %s", (some,)).fetchone()[0] == 1


def test_the_namer_moves_them_by_xover(named, conn, db_dsn, corpus, server, tmp_path):
    stats = command(env_for(db_dsn, server, tmp_path), "namer", "--until-idle", "--node", "n")
    assert stats["node"] == "n/namer"
    # near spans read once: every span by XOVER, none twice
    assert stats["moved"] == len(named) and 0 < stats["from_server"] == stats["reads"] <= len(named)
    assert stats["from_corpus"] == 0
    assert_moved_as_their_truth(conn, named, corpus)
    (row,) = conn.execute("SELECT pending_by_status FROM voyager.status_phase2").fetchall()
    assert row[0] == {"in_catalog": len(named)}
    assert conn.execute("SELECT count(*) FROM voyager.nntp_claims WHERE node = 'n/namer'").fetchone()[0] == 0


def test_the_namer_reads_a_stored_span_from_the_corpus(named, conn, db_dsn, corpus, server):
    cfg = NntpConfig(host="127.0.0.1", port=server.port, connections=4)
    stats = Namer(db_dsn, "n2", until_idle=True, corpus=corpus, nntp=cfg).run()
    assert stats["moved"] == len(named) and stats["from_corpus"] > 0
    assert stats["from_corpus"] + stats["from_server"] == stats["reads"] <= len(named)
    assert_moved_as_their_truth(conn, named, corpus)
    # a taken release whose namer died comes back after its lease; a done one never
    assert conn.execute("SELECT count(*) FROM voyager.claim_named_pending('n3')").fetchone()[0] == 0


def test_two_namers_at_once_move_each_release_once(named, conn, db_dsn, corpus, server):
    import threading

    cfg = NntpConfig(host="127.0.0.1", port=server.port, connections=4)
    namers = [Namer(db_dsn, f"c{i}", until_idle=True, corpus=corpus, nntp=cfg, batch=1) for i in range(2)]
    out: list[dict] = []
    threads = [threading.Thread(target=lambda n=n: out.append(n.run())) for n in namers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert len(out) == 2 and sum(s["moved"] for s in out) == len(named)
    assert sum(s["stale"] + s["gone"] for s in out) == 0
    assert conn.execute("SELECT count(*) FROM voyager.releases WHERE source >= 7").fetchone()[0] == len(named)
    assert_moved_as_their_truth(conn, named, corpus)
