"""Hostile overview lines end to end: a corpus generated with `--hostile`
(sim/hostile.py plants stray article numbers, control bytes, over-long
fields, empty lines and a [PRiVATE] token upload among the ordinary lines),
served by the simulator over TCP and indexed by a real `voyager worker`. It
finishes in bounded time; the ordinary uploads come out exactly as the same
corpus without the hostile lines does (the same release rows and chunks, the
same pending keys); every hostile line is counted by its reason; the hostile
uploads come out as the cleaner leaves them; every NZB and feed is XML a
strict parser takes."""
from __future__ import annotations

import json
import os
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import psycopg
import pytest

from sim import hostile as H
from sim.generate import Options, generate
from sim.server import ServerOptions, run_in_thread
from tests.conftest import create_database, drop_database
from tests.workers.test_worker import catalog, finish, pooled_dsn, prepare, worker  # noqa: F401 (fixture)
from workers.replay import catalog_fidelity, replay_into_db

RANGE, CHUNK = 20_000, 5_000
SEED = 17


def corpus_of(root: Path, hostile: bool) -> Path:
    out = root / ("hostile" if hostile else "plain")
    generate(Options(out=out, seed=SEED, groups=3, lines=60_000, days=3, range_articles=RANGE,
                     chunk_articles=CHUNK, bodies=False, hostile=hostile))
    return out


@pytest.fixture(scope="module")
def corpora(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("hostile")
    return corpus_of(root, False), corpus_of(root, True)


def rule_counts(conn) -> dict[tuple[str, str], int]:
    return {(r, k): int(a) for r, k, a in conn.execute(
        "SELECT rule, key, sum(articles) FROM voyager.rule_counts GROUP BY rule, key")}


@pytest.fixture(scope="module")
def plain(admin_dsn, template_db, corpora):
    """The corpus without the hostile lines, replayed into a database of its own."""
    name = f"voyager_plain_{os.getpid()}"
    dsn = create_database(admin_dsn, name, template=template_db[0])
    try:
        with psycopg.connect(dsn, autocommit=True) as c:
            prepare(c, corpora[0])
            replay_into_db(c, corpora[0])
            yield catalog(c), rule_counts(c)
    finally:
        drop_database(admin_dsn, name)


def test_hostile_lines_never_stop_a_group_and_change_nothing_else(corpora, plain, conn, pooled_dsn, tmp_path):
    _, corpus = corpora
    planted = H.read(corpus)
    assert {tuple(r["count"]) for r in planted if "count" in r} >= {
        ("malformed", "outside"), ("malformed", "empty"), ("malformed", "fields"), ("malformed", "long-msgid"),
        ("malformed", "msgid"), ("mended", "control"), ("mended", "long-poster"), ("mended", "long-xref"),
        ("mended", "long-subject"), ("mended", "big-bytes")}
    prepare(conn, corpus)
    began = time.monotonic()
    with run_in_thread(corpus, ServerOptions()) as srv:
        finish(worker(tmp_path, pooled_dsn, srv.port, "--until-idle"), timeout=400)
    assert time.monotonic() - began < 400
    assert conn.execute("SELECT count(*) FROM voyager.ranges WHERE status NOT IN ('done', 'ancient')"
                        ).fetchone()[0] == 0

    # the ordinary uploads: the same rows, chunks and pending keys as without the hostile lines
    (ref_rows, ref_pending, _), ref_counts = plain
    rows, pending, dups = catalog(conn)
    assert dups == 0 and ref_rows <= rows and ref_pending <= pending
    fid = catalog_fidelity(conn, corpus)
    assert fid["release"] >= 0.995 and fid["album"] >= 0.995 and fid["drop"] >= 0.995, fid

    # every hostile line counted by its reason, nothing else counted differently
    counts = rule_counts(conn)
    diff = {k: counts.get(k, 0) - ref_counts.get(k, 0) for k in set(counts) | set(ref_counts)}
    assert {k: v for k, v in diff.items() if v} == H.expected_counts(planted)

    # the hostile uploads as the cleaner leaves them, and nothing more
    extra = {k for k, *_ in rows - ref_rows}
    uploads = [r for r in planted if "upload" in r]
    found = 0
    for up in uploads:
        mids = sorted(m for _k, m, _b in up["segments"])
        exp = up["expect"]
        if exp["kind"] == "pending":
            (row,) = conn.execute(
                "SELECT files, segments, candidates FROM voyager.pending_releases p JOIN voyager.groups g "
                "ON g.id = p.group_id WHERE g.name = %s AND p.poster = 'pv <pv@hostile.sim>'", (up["group"],))
            assert row[0] == exp["files"] and row[1] == len(mids)
            continue
        got = conn.execute(
            "SELECT r.release_key, r.name, p.poster, gs.groups, r.bytes, r.readable, r.segments "
            "FROM voyager.releases r JOIN voyager.posters p ON p.id = r.poster_id "
            "JOIN voyager.group_sets gs ON gs.id = r.group_set_id JOIN voyager.groups g ON g.id = r.group_id "
            "WHERE g.name = %s AND r.name = %s", (up["group"], exp["name"])).fetchall()
        assert len(got) == 1, (up["upload"], got)
        key, name, poster, groups, nbytes, readable, segments = got[0]
        assert bytes(key) in extra and readable and segments == len(mids)
        assert nbytes == sum(b for _k, _m, b in up["segments"])
        if "poster" in exp:
            assert poster == exp["poster"]
        if "own_group" in exp:
            assert exp["own_group"] in groups and 1 < len(groups) and sum(len(g) + 1 for g in groups) <= 1024
        found += 1
    assert found == len(extra) == sum(1 for u in uploads if u["expect"]["kind"] == "release")
    assert len(pending - ref_pending) == sum(1 for u in uploads if u["expect"]["kind"] == "pending") == 3
    assert conn.execute("SELECT count(*) FROM voyager.releases WHERE name ~ '[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f]' "
                        "OR EXISTS (SELECT 1 FROM voyager.posters p WHERE p.id = poster_id "
                        "AND p.poster ~ '[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f]')").fetchone()[0] == 0
    assert {p: n for p, n in conn.execute("SELECT * FROM voyager.check_catalog()") if n} == {}

    # every NZB and every feed page parses strictly
    for (rid,) in conn.execute("SELECT id FROM voyager.releases").fetchall():
        nzb = conn.execute("SELECT voyager.nzb(%s)", (rid,)).fetchone()[0]
        ET.fromstring(nzb if isinstance(nzb, (bytes, str)) else bytes(nzb))
    feeds_parse(conn)


def feeds_parse(conn) -> None:
    from tests.web.conftest import make_app
    from tests.web.util import api

    key = conn.execute("SELECT voyager.add_user('hostile-reader', 'user')").fetchone()[0]
    app = make_app(conn.info.dsn)
    total = conn.execute("SELECT count(*) FROM voyager.releases").fetchone()[0]
    seen = 0
    for offset in range(0, total, 100):
        resp = api(app, t="search", apikey=key, limit=100, offset=offset)
        assert resp.status == 200, resp.text[:300]
        root = ET.fromstring(resp.text)
        seen += len(root.find("channel").findall("item"))
        resp = api(app, t="search", apikey=key, limit=100, offset=offset, o="json")
        assert resp.status == 200
        json.loads(resp.text)
    assert seen == total
