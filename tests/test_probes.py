"""The probe queue and the probe store: claims in the queue's order, tokens,
leases, attempts, the probe cache, and the facts store_probes writes."""
from __future__ import annotations

import hashlib
import json
import time

import psycopg
import pytest

from tests.helpers import lease, next_range, plan
from workers.store import Store

NOW = int(time.time())
DAY = 86400


def key(text: str) -> bytes:
    return hashlib.sha1(text.encode()).digest()


def release(name: str, candidates, *, finished: bool = True) -> dict:
    return {"release_key": key(name), "identity_key": key("id:" + name), "name": name, "source": 1,
            "poster": "up <up@example.com>", "groups": ["g.a"], "posted_at": NOW - DAY,
            "last_posted_at": NOW - DAY, "first_article": 1001, "last_article": 1010, "files": 3,
            "segments": 10, "bytes": 7_000_000, "file_total": 3, "complete": True, "has_par2": True,
            "finished": finished, "edge": not finished, "chunk": b"chunk of " + name.encode(),
            "members": None, "candidates": list(candidates)}


def pending(stem: str, candidates, *, finished: bool = True) -> dict:
    return {"release_key": key(stem), "identity_key": key("id:" + stem), "name": stem,
            "poster": "up <up@example.com>", "tool": "ngpost", "posted_at": NOW - DAY, "last_posted_at": NOW - DAY,
            "first_article": 1050, "last_article": 1060, "files": 2, "segments": 11, "bytes": 8_000_000,
            "file_total": None, "complete": True, "finished": finished,
            "candidates": [(k, m.encode(), i) for k, m, i in candidates]}


@pytest.fixture
def queue(conn):
    """A settled release with every kind of target, a provisional one, a finished
    pending release and an unfinished one."""
    plan(conn, [{"name": "g.a", "low": 1, "high": 3000}])
    held = lease(conn, "history", "n1")
    rng = next_range(conn, held["token"])
    batch = {"releases": [
                 release("Movie.2024.1080p", [("archive", "arc@x", 0), ("par2", "par@x", 1), ("7z-tail", "tail@x", 0),
                                              ("nfo", "nfo@x", 2), ("media", "arc@x", 0)]),
                 release("Still.Open", [("archive", "open@x", 0)], finished=False)],
             "pending": [pending("0123456789abcdef0123456789abcdef", [("par2", "pp@x", 1), ("archive", "pa@x", 0)]),
                         pending("fedcba9876543210fedcba9876543210", [("lone", "pl@x", 0)], finished=False)],
             "counts": [], "samples": []}
    Store(conn).store(held["token"], rng["range_id"], 1, 101, 100, batch)
    rid = conn.execute("SELECT id FROM voyager.releases WHERE name = 'Movie.2024.1080p'").fetchone()[0]
    return {"conn": conn, "release": rid, "pending": key("0123456789abcdef0123456789abcdef")}


def claim(conn, node, limit=100, lease="10 minutes"):
    cur = conn.execute("SELECT * FROM voyager.claim_probe_candidates(%s, %s, %s::interval)", (node, limit, lease))
    return [dict(zip([c.name for c in cur.description], r)) for r in cur.fetchall()]


def result(c: dict, status: str = "ok", facts: dict | None = None, error: str | None = None) -> dict:
    return {"claim": str(c["claim"]), "release_id": c["release_id"],
            "pending_key": c["pending_key"].hex() if c["pending_key"] else None, "kind": c["kind"],
            "message_id": c["message_id"], "status": status, "error": error, "bytes": 1000, "facts": facts}


def store(conn, results: list[dict], node: str = "p1") -> dict:
    return conn.execute("SELECT voyager.store_probes(%s, %s::jsonb)", (node, json.dumps(results))).fetchone()[0]


def facts(**sections) -> dict:
    out = dict.fromkeys(["error", "yenc", "start", "par2", "archive", "nfo", "media", "password"])
    out.update(sections)
    return out


MD5 = "0123456789abcdef0123456789abcdef"


def test_claims_come_in_the_queues_order(queue):
    got = claim(queue["conn"], "p1")
    # random names (the pending release) first, then by kind: the lone file, the first
    # archive volume, the smallest par2, a 7z set's tail, the nfo, the main file;
    # nothing of a provisional release or an unfinished pending one
    assert [(bool(c["pending_key"]), c["kind"]) for c in got] == [
        (True, "archive"), (True, "par2"),
        (False, "archive"), (False, "par2"), (False, "7z-tail"), (False, "nfo"), (False, "media")]
    assert len({c["claim"] for c in got}) == 1 and not any(c["cached"] for c in got)
    assert claim(queue["conn"], "p2") == []          # claimed: nobody else gets them while the lease runs


def test_two_probers_split_the_queue(queue, connect):
    a, b = connect(), connect()
    a.execute("BEGIN")
    first = claim(a, "a", 2)
    second = claim(b, "b")                           # not blocked by a's open claim, never the same row
    a.execute("COMMIT")
    assert len(first) == 2 and len(second) == 5
    assert not {(c["pending_key"], c["release_id"], c["kind"]) for c in first} \
        & {(c["pending_key"], c["release_id"], c["kind"]) for c in second}


def test_the_facts_land_where_they_belong(queue):
    conn, rid = queue["conn"], queue["release"]
    got = {(bool(c["pending_key"]), c["kind"]): c for c in claim(conn, "p1")}
    out = store(conn, [
        result(got[False, "archive"], facts=facts(
            yenc={"name": "movie.part01.rar", "part": 1, "total": 50, "size": 50_000_000, "begin": 1,
                  "end": 700_000, "crc_ok": True},
            start={"md5_16k": MD5, "size": 50_000_000},
            archive={"format": "rar5", "volume": 0, "solid": False, "encrypted_headers": False,
                     "encrypted_files": True, "entries": [{"name": "Movie.2024.1080p.mkv", "size": 49_000_000,
                                                           "encrypted": True},
                                                          {"name": "Sample/sample.mkv", "size": 10, "encrypted": True}]})),
        result(got[False, "par2"], facts=facts(par2={"set_id": "ab" * 16, "creator": "ParPar 0.4",
               "files": [{"file_id": "01" * 16, "name": "movie.part01.rar", "size": 50_000_000,
                          "md5_16k": MD5, "md5": "02" * 16},
                         {"file_id": "03" * 16, "name": "movie.part02.rar", "size": 20_000_000,
                          "md5_16k": "04" * 16, "md5": "05" * 16}]})),
        result(got[False, "nfo"], facts=facts(nfo={"text": "MOVIE 2024\r\nimdb.com/title/tt0111161\r\n",
                                                   "title": "Movie 2024",
                                                   "media_ids": [{"site": "imdb", "id": "tt0111161"},
                                                                 {"site": "tvmaze", "id": "82"}],
                                                   "password": "s3cret"},
                                              password={"value": "s3cret", "source": "nfo"})),
        result(got[False, "media"], status="cached"),   # not in the cache: back to the queue, not lost
        result(got[False, "7z-tail"], facts=facts(error="garbage")),
    ])
    assert (out["stored"], out["stale"], out["retry"], out["failed"]) == (4, 0, 1, 1)
    texts = dict(conn.execute("SELECT kind, text FROM voyager.release_texts WHERE release_id = %s AND kind > 1",
                              (rid,)).fetchall())
    assert texts == {2: "Movie.2024.1080p.mkv\nSample/sample.mkv", 3: "Movie 2024", 4: "movie.part01.rar"}
    assert conn.execute("SELECT text FROM voyager.release_nfos WHERE release_id = %s", (rid,)).fetchone()[0] \
        .startswith("MOVIE 2024")
    assert sorted(conn.execute("SELECT kind, value FROM voyager.release_media_ids WHERE release_id = %s",
                               (rid,)).fetchall()) == [("imdb", "0111161"), ("tvmaze", "82")]
    # encrypted files: passworded (1); the NFO's password known, with its source
    assert conn.execute("SELECT status, password, source FROM voyager.release_passwords WHERE release_id = %s",
                        (rid,)).fetchone() == (1, "s3cret", "nfo")
    assert conn.execute("SELECT name, files, creator FROM voyager.par2_sets").fetchall() == \
        [("movie.part01.rar", 2, "ParPar 0.4")]
    assert conn.execute("SELECT count(*) FROM voyager.par2_files").fetchone()[0] == 2
    assert conn.execute("SELECT encode(md5_16k, 'hex'), size, release_id FROM voyager.file_hashes").fetchall() == \
        [(MD5, 50_000_000, rid)]
    # the par2 file with the same first 16 KiB is the archive's first volume
    assert conn.execute("""SELECT f.name FROM voyager.par2_files f JOIN voyager.file_hashes h
                             ON h.md5_16k = f.md5_16k AND h.size = f.size""").fetchall() == [("movie.part01.rar",)]
    bad = dict(conn.execute("SELECT kind, error FROM voyager.probe_cache WHERE status = 2").fetchall())
    assert bad == {"7z-tail": "garbage"}
    assert conn.execute("SELECT kind FROM voyager.probe_candidates WHERE release_id = %s AND probed_at IS NULL",
                        (rid,)).fetchall() == [("media",)]
    assert conn.execute("SELECT problem FROM voyager.check_catalog() WHERE rows > 0").fetchall() == []
    # texts of a kind merge: a later probe adds to them, 20 lines at most
    more = [{"name": f"extra{i:02}.mkv", "size": 1, "encrypted": False} for i in range(30)]
    conn.execute("INSERT INTO voyager.probe_candidates (release_id, kind, message_id, file_index) "
                 "VALUES (%s, 'lone', 'lone@x', 0)", (rid,))
    (lone,) = [c for c in claim(conn, "p1") if c["kind"] == "lone"]
    store(conn, [result(lone, facts=facts(archive={"format": "zip", "volume": None, "solid": None,
                                                   "encrypted_headers": False, "encrypted_files": False,
                                                   "entries": more}))])
    lines = conn.execute("SELECT text FROM voyager.release_texts WHERE release_id = %s AND kind = 2",
                         (rid,)).fetchone()[0].split("\n")
    assert lines[:3] == ["Movie.2024.1080p.mkv", "Sample/sample.mkv", "extra00.mkv"] and len(lines) == 20


def test_no_password_is_invented(queue):
    conn, rid = queue["conn"], queue["release"]
    got = {(bool(c["pending_key"]), c["kind"]): c for c in claim(conn, "p1")}
    store(conn, [result(got[False, "archive"], facts=facts(archive={
        "format": "rar4", "volume": 0, "solid": True, "encrypted_headers": False, "encrypted_files": False,
        "entries": [{"name": "a.mkv", "size": 1, "encrypted": False}]})),
        result(got[False, "nfo"], facts=facts(nfo={"text": "hello", "title": None, "media_ids": [], "password": None}))])
    assert conn.execute("SELECT count(*) FROM voyager.release_passwords").fetchone()[0] == 0
    # encrypted headers (RAR5 -hp): passworded, no names, no password
    conn.execute("INSERT INTO voyager.probe_candidates (release_id, kind, message_id, file_index) "
                 "VALUES (%s, 'lone', 'lone@x', 0)", (rid,))
    (lone,) = [c for c in claim(conn, "p1") if c["kind"] == "lone"]
    store(conn, [result(lone, facts=facts(archive={"format": "rar5", "volume": 0, "solid": None,
                                                   "encrypted_headers": True, "encrypted_files": True,
                                                   "entries": []}))])
    assert conn.execute("SELECT status, password, source FROM voyager.release_passwords").fetchall() == \
        [(1, None, "archive")]


def test_a_result_for_a_lost_claim_changes_nothing(queue, connect):
    conn = queue["conn"]
    mine = claim(conn, "p1", 100, "1 second")
    time.sleep(1.2)
    theirs = claim(connect(), "p2")                   # the lease ran out: taken over
    assert len(theirs) == len(mine)
    out = store(conn, [result(c, facts=facts(start={"md5_16k": MD5, "size": 5})) for c in mine])
    assert (out["stored"], out["stale"]) == (0, len(mine))
    assert conn.execute("SELECT count(*) FROM voyager.probe_cache").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM voyager.file_hashes").fetchone()[0] == 0
    out = store(conn, [result(c, status="dead") for c in theirs], node="p2")
    assert out["stored"] == len(theirs)
    # answered: a late second answer changes nothing either
    assert store(conn, [result(c) for c in theirs], node="p2")["stale"] == len(theirs)


def test_a_killed_probers_claims_come_back_after_their_lease(queue, connect):
    conn = queue["conn"]
    first = claim(conn, "dead-prober", 100, "1 second")
    assert claim(connect(), "p2") == []
    time.sleep(1.2)
    again = claim(connect(), "p2")
    assert {(c["kind"], c["message_id"]) for c in again} == {(c["kind"], c["message_id"]) for c in first}
    # a target whose prober dies every time (or whose fetch never answers) is given up
    for _ in range(3):
        conn.execute("UPDATE voyager.probe_candidates SET expires_at = now() - interval '1 second'")
        claim(conn, "p3")
    conn.execute("UPDATE voyager.probe_candidates SET expires_at = now() - interval '1 second'")
    assert claim(conn, "p3") == []
    (row,) = [dict(zip([c.name for c in cur.description], r))
              for cur in [conn.execute("SELECT * FROM voyager.status_phase2")] for r in cur.fetchall()]
    assert row["probes_stuck"] == len(first) and row["probe_candidates_ready"] == 0


def test_a_gone_article_is_dead_and_never_fetched_again(queue):
    conn, rid = queue["conn"], queue["release"]
    got = {(bool(c["pending_key"]), c["kind"]): c for c in claim(conn, "p1")}
    out = store(conn, [result(got[False, "archive"], status="dead", error="430 no such article")])
    assert out["dead"] == 1
    assert conn.execute("SELECT status, error FROM voyager.probe_cache WHERE message_id = 'arc@x'").fetchone() == \
        (1, "430 no such article")
    # the media target is the same article: once its claim is back it comes answered by the cache
    conn.execute("UPDATE voyager.probe_candidates SET expires_at = now() - interval '1 second' WHERE probed_at IS NULL")
    again = {c["kind"]: c for c in claim(conn, "p1") if c["release_id"]}
    assert "archive" not in again and again["media"]["cached"]
    store(conn, [result(again["media"], status="cached")])
    assert conn.execute("SELECT probed_at IS NOT NULL FROM voyager.probe_candidates WHERE release_id = %s "
                        "AND kind = 'media'", (rid,)).fetchone()[0]
    (row,) = [dict(zip([c.name for c in cur.description], r))
              for cur in [conn.execute("SELECT * FROM voyager.status_phase2")] for r in cur.fetchall()]
    assert row["probes_dead"] == {"archive": 1} and row["probes_last_hour"] == 1


def test_a_failed_fetch_is_tried_again_after_a_pause(queue):
    conn = queue["conn"]
    (c,) = [c for c in claim(conn, "p1") if c["kind"] == "nfo"]
    assert store(conn, [result(c, status="retry", error="timeout")])["retry"] == 1
    assert conn.execute("SELECT expires_at > now() + interval '50 seconds' FROM voyager.probe_candidates "
                        "WHERE kind = 'nfo'").fetchone()[0]
    assert conn.execute("SELECT count(*) FROM voyager.probe_cache").fetchone()[0] == 0


def test_pending_facts_stay_in_the_cache(queue):
    conn = queue["conn"]
    got = [c for c in claim(conn, "p1") if c["pending_key"]]
    out = store(conn, [result(c, facts=facts(
        par2={"set_id": "cd" * 16, "creator": None, "files": [{"file_id": "06" * 16, "name": "Real.Name.mkv",
                                                               "size": 9, "md5_16k": "07" * 16, "md5": "08" * 16}]},
        nfo={"text": "x", "title": "Pending Title", "media_ids": [{"site": "imdb", "id": "tt1"}], "password": "p"}))
        for c in got])
    assert out["stored"] == 2 and out["par2_sets"] == 1
    assert conn.execute("SELECT count(*) FROM voyager.release_texts WHERE kind > 1").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM voyager.release_passwords").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM voyager.probe_cache WHERE facts -> 'par2' IS NOT NULL").fetchone()[0] == 2


@pytest.mark.parametrize("bad", ["{}", '[1]', '[{"claim": "x", "kind": "par2", "release_id": 1, "status": "ok"}]',
                                 '[{"claim": "00000000-0000-0000-0000-000000000000", "kind": "par2", '
                                 '"release_id": 1, "status": "maybe"}]'])
def test_a_malformed_batch_is_refused_whole(queue, bad):
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        queue["conn"].execute("SELECT voyager.store_probes('p1', %s::jsonb)", (bad,))
