"""The pending ladder on the real database: pending releases (as store_batch
leaves them) probed through claim_probe_candidates and store_probes, then
voyager.pending_ladder (the tick's job) names them, gives them another try,
discards or exhausts them; pending_signatures mutes a signature that never
names and puts one that names well first."""
from __future__ import annotations

import hashlib

from psycopg.types.json import Jsonb

from tests.helpers import set_setting

GROUP = "alt.binaries.pending"


def _hex(seed: str, n: int = 32) -> str:
    return hashlib.sha1(seed.encode()).hexdigest()[:n]


def pending(conn, name: str, kinds=("par2",), tool="nyuu", poster="p@example.invalid", key: bytes | None = None):
    """A finished, waiting pending release with a probe target per kind; its key."""
    gid = conn.execute("INSERT INTO voyager.groups (name, priority) VALUES (%s, 1) ON CONFLICT (name) DO UPDATE "
                       "SET priority = voyager.groups.priority RETURNING id", (GROUP,)).fetchone()[0]
    key = key or hashlib.sha1(name.encode()).digest()
    conn.execute("""INSERT INTO voyager.pending_releases (release_key, identity_key, posted_at, first_article,
                        last_article, segments, bytes, group_id, files, finished, complete, tool, poster, name,
                        candidates)
                    VALUES (%s, %s, now(), 1, 10, 10, 7000000, %s, 2, true, true, %s, %s, %s, %s)""",
                 (key, key, gid, tool, poster, _hex(name), Jsonb([[k, f"{name}-{k}@test", 0] for k in kinds])))
    return key


def probe(conn, answers: dict) -> int:
    """Claims every claimable target and answers it: answers maps a message-id to
    facts (read) or None (dead)."""
    rows = conn.execute("SELECT claim, pending_key, kind, message_id FROM "
                        "voyager.claim_probe_candidates('t', 10000)").fetchall()
    results = [{"claim": str(c), "pending_key": bytes(k).hex(), "kind": kind, "message_id": mid,
                "status": "dead" if answers.get(mid) is None else "ok", "bytes": 1000, "facts": answers.get(mid)}
               for c, k, kind, mid in rows]
    if results:
        conn.execute("SELECT voyager.store_probes('t', %s)", (Jsonb(results),))
    return len(results)


def ladder(conn) -> dict:
    return conn.execute("SELECT voyager.run_sql_job('pending_ladder')").fetchone()[0]


def state(conn, key: bytes) -> tuple:
    return conn.execute("SELECT status, tries, named, name_source FROM voyager.pending_releases "
                        "WHERE release_key = %s", (key,)).fetchone()


def par2_facts(name: str) -> dict:
    return {"yenc": {"name": _hex(name) + ".par2"},
            "par2": {"set_id": _hex(name + "set"), "creator": "par2cmdline", "files": [
                {"file_id": _hex(name + f), "name": f, "size": size, "md5_16k": _hex(f + "16k"), "md5": _hex(f)}
                for f, size in ((name + ".part01.rar", 5_000_000), (name + ".part02.rar", 2_000_000),
                                (name + ".nfo", 4_000_000))]}}


def test_the_ladder_names_retries_discards_and_exhausts(conn):
    set_setting(conn, "pending_tries", 2)
    set_setting(conn, "pending_retry_minutes", 0)
    by_par2 = pending(conn, "a")
    by_nfo = pending(conn, "b", kinds=("nfo",))
    by_yenc = pending(conn, "c", kinds=("lone",))
    dead = pending(conn, "d")
    nameless = pending(conn, "e", kinds=("lone",))
    answers = {
        "a-par2@test": par2_facts("Real.Movie.2020.1080p.BluRay.x264-GRP"),
        "b-nfo@test": {"yenc": {"name": _hex("b") + ".nfo"}, "nfo": {"title": "Some Show S01E02 720p"}},
        "c-lone@test": {"yenc": {"name": "Other.Show.S02E03.1080p.WEB.mkv"}},
        "e-lone@test": {"yenc": {"name": _hex("e", 40) + ".bin"}},     # a random name reads like nothing
    }
    assert probe(conn, answers) == 5
    assert ladder(conn) == {"looked": 5, "named": 3, "tried": 2, "discarded": 0, "exhausted": 0}
    # named by the best fact there is, awaiting the namer; the par2's sidecar named nothing
    assert state(conn, by_par2) == (4, 0, "Real.Movie.2020.1080p.BluRay.x264-GRP", 7)
    assert state(conn, by_nfo) == (4, 0, "Some Show S01E02 720p", 9)
    assert state(conn, by_yenc) == (4, 0, "Other.Show.S02E03.1080p.WEB", 10)
    # read, and nothing in it names it yet: another look after the pause (a set may name it then)
    assert state(conn, nameless) == (0, 1, None, None)
    # dead: another try, its target probed again (the dead cache row gone, so it is fetched again)
    assert state(conn, dead) == (0, 1, None, None)
    assert conn.execute("SELECT count(*) FROM voyager.probe_cache WHERE message_id = 'd-par2@test'"
                        ).fetchone()[0] == 0
    assert probe(conn, {}) == 1
    assert ladder(conn) == {"looked": 2, "named": 0, "tried": 0, "discarded": 1, "exhausted": 1}
    assert state(conn, dead) == (2, 2, None, None)              # its tries are over: no facts at all
    assert state(conn, nameless) == (3, 2, None, None)          # its tries are over: facts, no name
    assert ladder(conn)["looked"] == 0                          # nothing climbs twice
    (row,) = conn.execute("SELECT pending_by_status, pending_waiting FROM voyager.status_phase2").fetchall()
    assert row == ({"awaiting_move": 3, "discarded": 1, "exhausted": 1}, 0)
    # every release decided counts into its signature
    assert conn.execute("SELECT probes, named, muted FROM voyager.pending_signatures").fetchall() == [(5, 3, False)]


def test_a_waiting_release_climbs_only_once_its_targets_are_answered(conn):
    key = pending(conn, "f", kinds=("par2", "archive"))
    rows = conn.execute("SELECT claim, pending_key, kind, message_id FROM "
                        "voyager.claim_probe_candidates('t', 1)").fetchall()
    assert len(rows) == 1
    assert ladder(conn)["looked"] == 0                          # one target still out
    probe(conn, {"f-par2@test": par2_facts("Late.Answer.2021.720p")})   # the first claim's lease still runs
    assert state(conn, key)[0] == 0 and ladder(conn)["looked"] == 0
    conn.execute("UPDATE voyager.probe_candidates SET expires_at = now() - interval '1 s'")
    probe(conn, {"f-par2@test": par2_facts("Late.Answer.2021.720p")})
    assert ladder(conn)["named"] == 1 and state(conn, key)[2] == "Late.Answer.2021.720p"


def test_a_signature_that_never_names_is_probed_no_more(conn):
    set_setting(conn, "pending_tries", 1)                       # one look each: decided at once
    nameless = {f"n{i}-lone@test": {"yenc": {"name": _hex(f"n{i}", 40) + ".bin"}} for i in range(100)}
    for i in range(100):
        pending(conn, f"n{i}", kinds=("lone",), tool="ngpost", poster="spam@example.invalid")
    assert probe(conn, nameless) == 100
    assert ladder(conn)["exhausted"] == 100
    assert conn.execute("SELECT probes, named, muted FROM voyager.pending_signatures WHERE tool = 'ngpost'"
                        ).fetchall() == [(100, 0, True)]
    # its next upload's targets are not claimed; another poster's are
    muted = pending(conn, "n100", kinds=("lone",), tool="ngpost", poster="spam@example.invalid")
    other = pending(conn, "o1", kinds=("lone",), tool="ngpost", poster="someone@example.invalid")
    claimed = conn.execute("SELECT pending_key FROM voyager.claim_probe_candidates('t', 100)").fetchall()
    assert [bytes(k) for (k,) in claimed] == [other]
    (row,) = conn.execute("SELECT signatures_muted, probe_candidates_muted FROM voyager.status_phase2").fetchall()
    assert row == (1, 1)
    # the ladder ends it unprobed, and a muted signature counts no further
    out = ladder(conn)
    assert out["discarded"] == 1 and state(conn, muted)[0] == 2
    assert conn.execute("SELECT probes FROM voyager.pending_signatures WHERE poster = 'spam@example.invalid'"
                        ).fetchone()[0] == 100


def test_a_signature_that_names_well_is_probed_first(conn):
    good = pending(conn, "g0", tool="nyuu", poster="good@example.invalid")
    probe(conn, {"g0-par2@test": par2_facts("Good.Upload.2022.1080p")})
    assert ladder(conn)["named"] == 1
    # a stranger's release first in the queue's own order (its key sorts first), the good poster's after
    stranger = pending(conn, "s0", tool="nyuu", poster="new@example.invalid", key=b"\x00" * 20)
    again = pending(conn, "g1", tool="nyuu", poster="good@example.invalid", key=b"\xff" * 20)
    first = conn.execute("SELECT pending_key FROM voyager.claim_probe_candidates('t', 1)").fetchone()[0]
    assert bytes(first) == again != stranger and good != again


def test_an_uploads_named_pieces_are_claimed_together(conn):
    """An upload posted one random-named file at a time is many pending releases
    the ladder names alike: the namer's claim takes all of them at once (so they
    are read again in one pass), however small its limit."""
    pieces = [pending(conn, f"piece{i}", poster="one@example.invalid") for i in range(4)]
    other = pending(conn, "other", poster="two@example.invalid")
    conn.execute("UPDATE voyager.pending_releases SET status = 4, named = 'Real.Show.S01E01', decided_at = now() "
                 "WHERE release_key = ANY (%s)", (pieces,))
    conn.execute("UPDATE voyager.pending_releases SET status = 4, named = 'Other.Film.2020', "
                 "decided_at = now() + interval '1 second' WHERE release_key = %s", (other,))
    first = conn.execute("SELECT release_key, name FROM voyager.claim_named_pending('n', 1)").fetchall()
    assert sorted(bytes(k) for k, _n in first) == sorted(pieces) and {n for _k, n in first} == {"Real.Show.S01E01"}
    assert [bytes(k) for k, _n in conn.execute("SELECT release_key, name FROM voyager.claim_named_pending('n', 1)")] \
        == [other]


def test_the_namer_reads_near_spans_once():
    from workers.namer import READ_GAP, spans_to_read
    rows = [("c1", b"k1", "g", 100, 150, {}, {}), ("c3", b"k3", "g", 151, 300, {}, {}),
            ("c2", b"k2", "g", 120, 140, {}, {}), ("c4", b"k4", "g", 300 + READ_GAP + 1, 400 + READ_GAP, {}, {}),
            ("c5", b"k5", "h", 120, 140, {}, {})]
    got = [(g, f, l, [c for c, *_x in claimed]) for g, f, l, claimed, _r, _o in spans_to_read(rows)]
    assert got == [("g", 100, 300, ["c1", "c2", "c3"]), ("g", 301 + READ_GAP, 400 + READ_GAP, ["c4"]),
                   ("h", 120, 140, ["c5"])]
