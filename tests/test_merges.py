"""Merges: releases of one upload become one release with one NZB. The window
writes real releases with real chunks; merge_releases applies proposals,
unmerge_releases undoes them, and the merges job runs the finders over what
is new. After each step the catalog is sound (check_catalog) and the search
totals exact (check_search_counts)."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from psycopg.types.json import Jsonb

from ext.window import Window
from tests.ext.test_window import GROUP, T0, Poster
from tests.helpers import lease, next_range, plan, set_setting
from workers.store import Store

NS = {"n": "http://www.newzbin.com/DTD/2003/nzb"}
DAY = 86400


def window_releases(uploads: list[tuple]) -> list[dict]:
    """(files, release name, poster, time) each, posted in that order; the window's releases."""
    p = Poster()
    t = T0
    for files, name, poster, at in uploads:
        p.upload(files, shape="name_first", release=name, poster=poster, t=at)
        t = max(t, at)
    p.pad(3000, t + 3600)
    w = Window(GROUP, {GROUP: 1})
    w.feed(b"\r\n".join(p.lines) + b"\r\n", -1)
    out = w.take_batch()["releases"] + w.flush()["releases"]
    return [r for r in out if not r["name"].startswith("pad")]


def store(conn, releases: list[dict]) -> dict[str, int]:
    plan(conn, [{"name": GROUP, "low": 1, "high": 100_000}])
    held = lease(conn, "history", "n1")
    rng = next_range(conn, held["token"])
    for r in releases:
        r["finished"] = True
    Store(conn).store(held["token"], rng["range_id"], 1, 11, 10,
                      {"releases": releases, "pending": [], "counts": [], "samples": []})
    return dict(conn.execute("SELECT name, id FROM voyager.releases").fetchall())


def merge(conn, proposals: list[tuple]) -> dict:
    s, m, v, k = zip(*proposals) if proposals else ((), (), (), ())
    return conn.execute("SELECT voyager.merge_releases(%s, %s, %s, %s)",
                        (list(s), list(m), list(v), list(k))).fetchone()[0]


def sound(conn) -> None:
    assert [p for p, n in conn.execute("SELECT * FROM voyager.check_catalog()") if n] == []
    assert conn.execute("SELECT * FROM voyager.check_search_counts()").fetchall() == []


def nzb_files(conn, release_id: int) -> list[str]:
    text = conn.execute("SELECT voyager.nzb(%s)", (release_id,)).fetchone()[0]
    root = ET.fromstring(text.split("\n", 2)[2])
    return [f.get("subject") for f in root.findall("n:file", NS)]


def visible(conn, word: str) -> list[int]:
    rows = conn.execute("""SELECT release_id FROM voyager.search_page(jsonb_build_object('words', ARRAY[%s]), 100, 0)
                            WHERE release_id IS NOT NULL""", (word,)).fetchall()
    return [r for (r,) in rows]


HEAD = "posted_at, last_posted_at, first_article, last_article, segments, bytes, files, complete, has_par2, source, name"


def head(conn, rid: int) -> tuple:
    return conn.execute(f"SELECT {HEAD} FROM voyager.releases WHERE id = %s", (rid,)).fetchone()


@pytest.fixture
def upload(conn):
    """One upload the header pass saw as three releases: the video under its name,
    its par2 under another spelling, and a sample apart."""
    rels = window_releases([
        ([("Harbor.Lights.2024.1080p.mkv", 4)], "Harbor.Lights.2024.1080p", "up <up@example.com>", T0),
        ([("harbor_lights_2024.par2", 1), ("harbor_lights_2024.vol0+1.par2", 2)], "harbor_lights_2024",
         "up <up@example.com>", T0 + 60),
        ([("Harbor.Lights.2024.sample.mkv", 2)], "Harbor.Lights.2024.sample", "up <up@example.com>", T0 + 120),
    ])
    ids = store(conn, rels)
    return conn, ids["Harbor.Lights.2024.1080p"], ids["harbor_lights_2024"], ids["Harbor.Lights.2024.sample"]


def test_a_merged_release_is_one_release_with_one_nzb(upload):
    conn, video, par2, sample = upload
    own = {i: head(conn, i) for i in (video, par2, sample)}
    before = {i: nzb_files(conn, i) for i in (video, par2, sample)}
    out = merge(conn, [(video, par2, "name", None), (video, sample, "name", None)])
    assert out == {"proposed": 2, "merged": 2, "survivors": 1}

    # the survivor's NZB holds every file of every part, by chunk in posting order
    assert nzb_files(conn, video) == before[video] + before[par2] + before[sample]
    got = head(conn, video)
    assert got[4] == sum(own[i][4] for i in own)          # segments
    assert got[5] == sum(own[i][5] for i in own)          # bytes
    assert got[6] == 4                                     # files: 1 + 2 + 1
    assert got[8] is True                                  # has_par2, from its par2 release
    assert got[0] == min(own[i][0] for i in own) and got[1] == max(own[i][1] for i in own)
    assert got[10] == "Harbor.Lights.2024.1080p"           # its own readable name stays

    # the merged-away ones leave every listing; their guids answer with the survivor
    assert visible(conn, "harbor") == [video]
    assert visible(conn, "sample") == [video]             # found by its member's name
    for rid in (par2, sample):
        key = conn.execute("SELECT release_key FROM voyager.releases WHERE id = %s", (rid,)).fetchone()[0]
        assert conn.execute("SELECT voyager.release_of_guid(%s)", (key,)).fetchone()[0] == video
        assert conn.execute("SELECT voyager.release_of_id(%s)", (rid,)).fetchone()[0] == video
    assert conn.execute("SELECT via, merged, survivors FROM voyager.status_merges").fetchall() == [("name", 2, 1)]
    sound(conn)


def test_a_merge_done_again_changes_nothing(upload):
    conn, video, par2, sample = upload
    merge(conn, [(video, par2, "name", None)])
    once = head(conn, video), nzb_files(conn, video)
    assert merge(conn, [(video, par2, "name", None), (par2, video, "name", None)])["merged"] == 0
    assert (head(conn, video), nzb_files(conn, video)) == once
    assert conn.execute("SELECT count(*) FROM voyager.release_merges").fetchone()[0] == 1
    sound(conn)


def test_an_unmerge_gives_every_release_its_own_head_back(upload):
    conn, video, par2, sample = upload
    own = {i: head(conn, i) for i in (video, par2, sample)}
    files = {i: nzb_files(conn, i) for i in (video, par2, sample)}
    merge(conn, [(video, par2, "name", None), (video, sample, "name", None)])
    assert conn.execute("SELECT voyager.unmerge_releases(%s)", ([sample],)).fetchone()[0] == 1
    assert nzb_files(conn, video) == files[video] + files[par2]
    assert sorted(visible(conn, "harbor")) == sorted([video, sample])
    sound(conn)
    # a survivor given: all of its members leave it
    assert conn.execute("SELECT voyager.unmerge_releases(%s)", ([video],)).fetchone()[0] == 1
    assert {i: head(conn, i) for i in own} == own
    assert {i: nzb_files(conn, i) for i in own} == files
    assert conn.execute("SELECT count(*) FROM voyager.release_own_totals").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM voyager.release_judgements").fetchone()[0] == 0
    sound(conn)


def test_a_survivor_merged_later_hands_its_members_on(upload):
    conn, video, par2, sample = upload
    merge(conn, [(par2, sample, "name", None)])
    merge(conn, [(video, par2, "par2", None)])
    rows = dict(conn.execute("SELECT id, merged_into FROM voyager.releases").fetchall())
    assert rows == {video: None, par2: video, sample: video}     # never a chain
    assert conn.execute("SELECT merged_id, survivor_id FROM voyager.release_merges ORDER BY 1").fetchall() == \
        sorted([(par2, video), (sample, video)])
    assert head(conn, video)[6] == 4
    sound(conn)


def test_a_nameless_survivor_takes_its_sets_name(conn):
    # two releases whose names say nothing (the window's readable flag false)
    rels = window_releases([
        ([("qz7k.part1.rar", 3), ("qz7k.part2.rar", 3)], "qz7k", "up <up@example.com>", T0),
        ([("wv3p.par2", 1)], "wv3p", "up <up@example.com>", T0 + 60),
    ])
    for r in rels:
        r["readable"] = False
    ids = store(conn, rels)
    (big, small) = sorted(ids.values(), key=lambda i: -head(conn, i)[6])
    set_id = bytes(range(16))
    conn.execute("""INSERT INTO voyager.par2_sets (set_id, creator, name, files, message_id)
                    VALUES (%s, 'par2cmdline', 'Quiet.Harbor.2023.720p.mkv', 1, 'set@x')""", (set_id,))
    conn.execute("""INSERT INTO voyager.par2_files (set_id, file_id, name, size, md5_16k, md5)
                    VALUES (%s, %s, 'Quiet.Harbor.2023.720p.mkv', 1000, %s, %s)""",
                 (set_id, bytes(16), bytes(16), bytes(16)))
    merge(conn, [(big, small, "par2", set_id)])
    name, source, complete = conn.execute("SELECT name, source, complete FROM voyager.releases WHERE id = %s",
                                          (big,)).fetchone()
    assert (name, source) == ("Quiet.Harbor.2023.720p", 7)
    assert complete            # as many files that are not par2 and as many bytes as the set describes
    assert visible(conn, "quiet") == [big]
    assert conn.execute("SELECT release_id FROM voyager.recategorize_queue").fetchall() == [(big,)]
    sound(conn)


def test_a_survivors_chunk_follows_its_posting_month(conn):
    rels = window_releases([
        ([("Old.Pier.2020.nfo", 1)], "Old.Pier.2020.nfo", "up <up@example.com>", T0 - 40 * DAY),
        ([("Old.Pier.2020.mkv", 3)], "Old.Pier.2020", "up <up@example.com>", T0),
    ])
    ids = store(conn, rels)
    video, nfo = ids["Old.Pier.2020"], ids["Old.Pier.2020.nfo"]
    files = nzb_files(conn, nfo) + nzb_files(conn, video)
    merge(conn, [(video, nfo, "sidecar", None)])
    assert nzb_files(conn, video) == files
    sound(conn)                 # the survivor's chunk moved under its new month
    conn.execute("SELECT voyager.unmerge_releases(%s)", ([video],))
    sound(conn)


def test_the_merges_job_folds_a_sidecar_into_its_upload(conn):
    rels = window_releases([
        ([("Silent.Moon.1999.part01.rar", 4), ("Silent.Moon.1999.part02.rar", 4)], "Silent.Moon.1999",
         "up <up@example.com>", T0),
        ([("silent.moon.1999.nfo", 1)], "silent.moon.1999.nfo", "up <up@example.com>", T0 + 100),
        ([("silent.moon.1999.nfo", 1)], "other.nfo", "someone <else@example.com>", T0 + 100),
    ])
    for r in rels:
        r["bytes"] = min(r["bytes"], 900_000) if r["files"] == 1 else r["bytes"]
    ids = store(conn, rels)
    set_setting(conn, "merge_lag_seconds", 0)
    conn.execute("UPDATE voyager.jobs SET place = now() - interval '1 hour' WHERE name = 'merges'")
    out = conn.execute("SELECT voyager.run_sql_job('merges')").fetchone()[0]
    assert out["merged"] == 1 and out["proposed"] == 1
    rows = dict(conn.execute("SELECT id, merged_into FROM voyager.releases").fetchall())
    assert rows[ids["silent.moon.1999.nfo"]] == ids["Silent.Moon.1999"]
    assert rows[ids["other.nfo"]] is None                 # another poster's is not its sidecar
    # the place moved: a second run reads nothing again
    again = conn.execute("SELECT voyager.run_sql_job('merges')").fetchone()[0]
    assert again["proposed"] == 0
    sound(conn)


def test_merges_unmerges_and_the_jobs_at_once_never_deadlock_nor_lose_a_merge(conn, connect):
    """Several connections merge overlapping proposals in opposite orders, undo
    merges, store probe results for the same releases all along (two probers),
    and run the recategorize, search-count, judge and merges jobs, all at once:
    no deadlock, no error, and afterwards every merge is whole (no chain, each
    merged release hidden under its root, release_merges agreeing), the
    catalog sound and the totals exact."""
    import random
    import threading

    uploads = [([(f"Wave.{i:02d}.part{k}.rar", 2) for k in (1, 2)], f"Wave.{i:02d}", "up <up@example.com>", T0 + 60 * i)
               for i in range(24)]
    ids = sorted(store(conn, window_releases(uploads)).values())
    errors: list[BaseException] = []
    stop = threading.Event()

    def merger(seed: int) -> None:
        rng, c = random.Random(seed), connect()
        while not stop.is_set():
            pairs = [tuple(rng.sample(ids, 2)) for _ in range(rng.randint(1, 4))]
            if seed % 2:
                pairs = [(m, s) for s, m in pairs]
            try:
                with c.transaction():
                    c.execute("SELECT voyager.merge_releases(%s, %s, %s, %s)",
                              ([s for s, _ in pairs], [m for _, m in pairs], ["inner"] * len(pairs),
                               [None] * len(pairs)))
                    if rng.random() < 0.3:
                        c.execute("SELECT voyager.unmerge_releases(%s)", ([rng.choice(ids)],))
            except BaseException as e:       # noqa: BLE001 (any error fails the test below)
                errors.append(e)
                return

    def jobs() -> None:
        c = connect()
        while not stop.is_set():
            try:
                for job in ("recategorize", "search_counts", "judge", "merges"):
                    c.execute("SELECT voyager.run_sql_job(%s)", (job,))
            except BaseException as e:       # noqa: BLE001
                errors.append(e)
                return

    def prober(seed: int) -> None:
        """The prober's store: facts (archive entries: texts, recategorize marks; a locked one: a password
        status) for releases being merged; its targets opened again once answered, so it stores all along."""
        import json
        rng, c = random.Random(seed), connect()
        while not stop.is_set():
            try:
                claims = c.execute("SELECT claim, release_id, pending_key, kind, message_id "
                                   "FROM voyager.claim_probe_candidates(%s, 5)", (f"p{seed}",)).fetchall()
                if not claims:                   # (one prober opens them again, the other waits for that)
                    if seed == 0:
                        c.execute("UPDATE voyager.probe_candidates SET probed_at = NULL, expires_at = NULL, "
                                  "attempts = 0 WHERE release_id = ANY (%s) AND probed_at IS NOT NULL", (ids,))
                    else:
                        stop.wait(0.02)
                    continue
                results = [{"claim": str(cl), "release_id": rid, "pending_key": None, "kind": kind,
                            "message_id": mid, "status": "ok", "bytes": 1000,
                            "facts": {"error": None, "yenc": None, "start": None, "par2": None, "nfo": None,
                                      "media": None, "password": None,
                                      "archive": {"format": "rar5", "volume": 1, "solid": False,
                                                  "encrypted_headers": False, "encrypted_files": rng.random() < 0.3,
                                                  "entries": [{"name": f"Wave.{rid}.{rng.randint(1, 3)}.mkv",
                                                               "size": 10, "encrypted": False}]}}}
                           for cl, rid, _pk, kind, mid in claims]
                c.execute("SELECT voyager.store_probes(%s, %s::jsonb)", (f"p{seed}", json.dumps(results)))
            except BaseException as e:       # noqa: BLE001
                errors.append(e)
                return

    threads = [threading.Thread(target=merger, args=(i,)) for i in range(4)] + \
        [threading.Thread(target=jobs)] + [threading.Thread(target=prober, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    import time
    time.sleep(8)
    stop.set()
    for t in threads:
        t.join(30)
    assert errors == []
    assert conn.execute("SELECT count(*) FROM voyager.release_texts WHERE kind = 2").fetchone()[0] > 0
    rows = conn.execute("SELECT id, merged_into FROM voyager.releases").fetchall()
    into = dict(rows)
    for rid, root in rows:
        if root is not None:
            assert into[root] is None                           # never a chain
    assert sorted(conn.execute("SELECT merged_id, survivor_id FROM voyager.release_merges").fetchall()) == \
        sorted((r, s) for r, s in rows if s is not None)
    hidden = {r for (r,) in conn.execute("SELECT release_id FROM voyager.release_judgements "
                                         "WHERE hidden AND verdict = 'merged'")}   # (the judge's own aside)
    assert hidden == {r for r, s in rows if s is not None}
    for root in {s for _r, s in rows if s is not None}:          # each survivor's head is its parts'
        files = conn.execute("SELECT sum(files) FROM voyager.releases WHERE merged_into = %s", (root,)).fetchone()[0]
        own = conn.execute("SELECT files FROM voyager.release_own_totals WHERE release_id = %s", (root,)).fetchone()[0]
        assert head(conn, root)[6] == files + own
    assert conn.execute("SELECT count(*) FROM voyager.release_own_totals").fetchone()[0] == \
        len({s for _r, s in rows if s is not None})
    sound(conn)


def test_a_survivor_is_as_locked_as_its_parts(upload):
    conn, video, par2, sample = upload
    conn.execute("INSERT INTO voyager.release_passwords (release_id, status, source) VALUES (%s, 1, 'archive')",
                 (sample,))
    merge(conn, [(video, par2, "name", None), (video, sample, "name", None)])
    assert conn.execute("SELECT status FROM voyager.release_passwords WHERE release_id = %s",
                        (video,)).fetchone() == (1,)
    conn.execute("SELECT voyager.unmerge_releases(%s)", ([sample],))
    assert conn.execute("SELECT status FROM voyager.release_passwords WHERE release_id = %s",
                        (video,)).fetchone() is None
    sound(conn)


def test_a_sets_file_list_goes_once_it_can_merge_nothing_more(conn):
    """The par2_lists job drops a set's file list (the set stays) once every
    release holding it is complete or judged, or once it is older than the
    keep; a survivor keeps the completeness the dropped set proved."""
    rels = window_releases([
        ([("qz7k.part1.rar", 3), ("qz7k.part2.rar", 3)], "qz7k", "up <up@example.com>", T0),
        ([("wv3p.par2", 1)], "wv3p", "up <up@example.com>", T0 + 60),
        ([("Quiet.Harbor.2023.720p.nfo", 1)], "Quiet.Harbor.2023.720p.nfo", "up <up@example.com>", T0 + 120),
    ])
    for r in rels[:2]:
        r["readable"] = False
    ids = store(conn, rels)
    big, small = sorted((ids["qz7k"], ids["wv3p"]), key=lambda i: -head(conn, i)[6])
    nfo = ids["Quiet.Harbor.2023.720p.nfo"]
    set_id = bytes(range(16))
    conn.execute("""INSERT INTO voyager.par2_sets (set_id, creator, name, files, message_id)
                    VALUES (%s, 'par2cmdline', 'Quiet.Harbor.2023.720p.mkv', 1, 'set@x')""", (set_id,))
    conn.execute("""INSERT INTO voyager.par2_files (set_id, file_id, name, size, md5_16k, md5)
                    VALUES (%s, %s, 'Quiet.Harbor.2023.720p.mkv', 1000, %s, %s)""",
                 (set_id, bytes(16), bytes(16), bytes(16)))
    # the par2 release holds the set: its probed article gave it
    conn.execute("UPDATE voyager.probe_candidates SET message_id = 'set@x' WHERE release_id = %s AND kind = 'par2'",
                 (small,))
    conn.execute("""INSERT INTO voyager.probe_cache (message_id, kind, status, facts)
                    VALUES ('set@x', 'par2', 0, jsonb_build_object('par2', jsonb_build_object('set_id', %s::text)))""",
                 (set_id.hex(),))
    assert conn.execute("SELECT count(*) FROM voyager.probe_candidates WHERE message_id = 'set@x'").fetchone()[0] == 1
    conn.execute("UPDATE voyager.jobs SET place = now() WHERE name = 'merges'")

    def drop() -> tuple:
        return conn.execute("SELECT sets, files FROM voyager.drop_par2_lists()").fetchone()

    conn.execute("UPDATE voyager.releases SET complete = false WHERE id = %s", (small,))
    assert drop() == (0, 0)                  # its holder is open: the set may still merge
    merge(conn, [(big, small, "par2", set_id)])
    assert conn.execute("SELECT complete FROM voyager.releases WHERE id = %s", (big,)).fetchone()[0]
    assert drop() == (1, 1)                  # its holder's survivor is complete
    assert conn.execute("SELECT files, files_dropped_at IS NOT NULL FROM voyager.par2_sets").fetchall() == [(1, True)]
    assert conn.execute("SELECT count(*) FROM voyager.par2_files").fetchone()[0] == 0
    merge(conn, [(big, nfo, "sidecar", None)])
    assert conn.execute("SELECT complete, files FROM voyager.releases WHERE id = %s", (big,)).fetchone() == (True, 4)
    sound(conn)


def test_an_old_sets_file_list_goes_whatever_its_holders(conn):
    set_id = bytes(range(1, 17))
    conn.execute("""INSERT INTO voyager.par2_sets (set_id, creator, name, files, message_id, found_at)
                    VALUES (%s, 'par2cmdline', 'Old.Thing.mkv', 1, 'old@x', now() - interval '8 days')""", (set_id,))
    conn.execute("""INSERT INTO voyager.par2_files (set_id, file_id, name, size, md5_16k, md5)
                    VALUES (%s, %s, 'Old.Thing.mkv', 1000, %s, %s)""", (set_id, bytes(16), bytes(16), bytes(16)))
    assert conn.execute("SELECT sets FROM voyager.drop_par2_lists()").fetchone()[0] == 0   # no merges yet
    conn.execute("UPDATE voyager.jobs SET place = now() - interval '6 days' WHERE name = 'merges'")
    assert conn.execute("SELECT sets FROM voyager.drop_par2_lists()").fetchone()[0] == 0   # within the keep
    conn.execute("UPDATE voyager.jobs SET place = now() WHERE name = 'merges'")
    assert conn.execute("SELECT sets, files FROM voyager.drop_par2_lists()").fetchone() == (1, 1)


def test_what_a_member_learns_after_its_merge_reaches_its_survivor(upload):
    conn, video, par2, sample = upload
    merge(conn, [(video, par2, "name", None), (video, sample, "name", None)])
    assert visible(conn, "quillwort") == []
    # the sample's archive is read only now: its listing and its lock
    facts = {"archive": {"entries": [{"name": "Quillwort.Sample.Notes.txt"}], "encrypted_files": True}}
    conn.execute("SELECT voyager.store_release_facts(%s)",
                 (Jsonb([{"release_id": sample, "message_id": "late@x", "facts": facts}]),))
    assert conn.execute("SELECT survivor_id FROM voyager.merge_settle_queue").fetchall() == [(video,)]
    conn.execute("SELECT * FROM voyager.merge_pass()")
    # the survivor is found by the member's inner name and is as locked as its part
    assert visible(conn, "quillwort") == [video]
    assert conn.execute("SELECT status FROM voyager.release_passwords WHERE release_id = %s",
                        (video,)).fetchone() == (1,)
    assert conn.execute("SELECT count(*) FROM voyager.merge_settle_queue").fetchone()[0] == 0
    sound(conn)


def test_a_survivors_merged_text_holds_only_lines_that_bring_a_word(upload):
    conn, video, par2, sample = upload
    merge(conn, [(video, par2, "name", None), (video, sample, "name", None)])
    # "harbor_lights_2024" brings no word "Harbor.Lights.2024.1080p" lacks; the sample's name does
    assert conn.execute("SELECT text FROM voyager.release_texts WHERE release_id = %s AND kind = 7",
                        (video,)).fetchall() == [("Harbor.Lights.2024.sample",)]
    assert visible(conn, "lights") == [video] and visible(conn, "sample") == [video]
    # a late listing of the par2 release with nothing new adds no line; one with a new word does
    facts = {"archive": {"entries": [{"name": "HARBOR LIGHTS (2024) 1080p"}, {"name": "Tidewater.Extras.txt"}]}}
    conn.execute("SELECT voyager.store_release_facts(%s)",
                 (Jsonb([{"release_id": par2, "message_id": "late@x", "facts": facts}]),))
    conn.execute("SELECT * FROM voyager.merge_pass()")
    text = conn.execute("SELECT text FROM voyager.release_texts WHERE release_id = %s AND kind = 7",
                        (video,)).fetchone()[0]
    assert text.split("\n") == ["Harbor.Lights.2024.sample", "Tidewater.Extras.txt"]
    assert visible(conn, "tidewater") == [video]
    sound(conn)
