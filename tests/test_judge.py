"""The junk judge: dead, fake, repeated, locked and unusable releases hidden
with a verdict, taken back when their rule no longer matches. Real releases
from the window (tests/test_merges.py's), the prober's facts inserted as
store_probes writes them; the statement triggers mark them dirty and the
judge job (judge_dirty) judges the marks. After each step the search totals
are exact (check_search_counts)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.ext.test_window import T0
from tests.test_merges import merge, store, window_releases
from web.search import Query, search_sql

ROOT = Path(__file__).resolve().parent.parent
UP = "up <up@example.com>"


def catalog(conn, *names: str, files: int = 2) -> dict[str, int]:
    """Releases of the given names, one upload each, stored finished (settled)."""
    ids = store(conn, window_releases([([(f"{n}.part{k}.rar", 2) for k in range(1, files + 1)], n, UP, T0 + 600 * i)
                                       for i, n in enumerate(names)]))
    return {n: ids[n] for n in names}


_serial = iter(range(1, 1_000_000))


def probe(conn, rid: int, kind: str, status: int = 0, facts: dict | None = None) -> str:
    """An answered probe target of a catalog release and its cache row, as store_probes leaves them."""
    mid = f"m{next(_serial)}@judge"
    n = conn.execute("SELECT count(*) FROM voyager.probe_candidates WHERE release_id = %s", (rid,)).fetchone()[0]
    conn.execute("""INSERT INTO voyager.probe_cache (message_id, kind, status, facts)
                    VALUES (%s, %s, %s, %s)""", (mid, kind, status, Jsonb(facts) if facts is not None else None))
    conn.execute("""INSERT INTO voyager.probe_candidates (release_id, kind, message_id, file_index, probed_at)
                    VALUES (%s, %s, %s, %s, now())
                        ON CONFLICT (release_id, kind) DO UPDATE SET message_id = excluded.message_id,
                                                                    probed_at = now()""", (rid, kind, mid, n))
    return mid


def archive(*entries: str) -> dict:
    return {"archive": {"format": "rar", "encrypted_headers": False, "encrypted_files": False,
                        "entries": [{"name": e, "size": 1000, "encrypted": False} for e in entries]}}


def start(conn, rid: int, digest: str, size: int = 1_000_000) -> None:
    conn.execute("""INSERT INTO voyager.file_hashes (message_id, md5_16k, size, release_id, file_index)
                    VALUES (%s, decode(md5(%s), 'hex'), %s, %s, 0)""", (f"h{next(_serial)}@judge", digest, size, rid))


def judge(conn) -> dict:
    return conn.execute("SELECT voyager.judge_dirty()").fetchone()[0]


def verdicts(conn) -> dict[int, str]:
    return dict(conn.execute("SELECT release_id, verdict FROM voyager.release_judgements").fetchall())


def sound(conn) -> None:
    assert conn.execute("SELECT * FROM voyager.check_search_counts()").fetchall() == []


def total(conn, *words: str, judged: bool = False) -> int:
    return conn.execute(*search_sql(Query(words=words, judged=judged), 10, 0)).fetchone()[0]


# -- each rule and its near miss -----------------------------------------------------------

def test_dead_every_probed_first_article_gone_and_a_430_that_reads_later_takes_it_back(conn):
    ids = catalog(conn, "Gone.Upload.2024.1080p", "Half.Gone.2024.1080p", "Never.Probed.2024.1080p")
    gone = probe(conn, ids["Gone.Upload.2024.1080p"], "archive", status=1)
    probe(conn, ids["Gone.Upload.2024.1080p"], "7z-tail", status=0)        # a tail is no first article
    probe(conn, ids["Half.Gone.2024.1080p"], "archive", status=1)
    probe(conn, ids["Half.Gone.2024.1080p"], "par2", status=0, facts={"par2": None})
    out = judge(conn)
    assert out["judged"] >= 2 and out["left"] == 0
    assert verdicts(conn) == {ids["Gone.Upload.2024.1080p"]: "dead"}
    detail, version = conn.execute("SELECT detail, rule_version FROM voyager.release_judgements").fetchone()
    assert detail == {"gone": 1} and version == 1
    sound(conn)

    # missing for an hour: the article reads on a later probe, the verdict goes
    conn.execute("UPDATE voyager.probe_cache SET status = 0, facts = %s WHERE message_id = %s",
                 (Jsonb(archive("Gone.Upload.2024.1080p.mkv")), gone))
    assert judge(conn)["taken_back"] == 1
    assert verdicts(conn) == {}
    sound(conn)


def test_fake_a_film_name_whose_content_is_only_a_program(conn):
    ids = catalog(conn, "Harbor.Lights.2024.1080p.WEB-DL.x264", "Silent.Moon.2023.1080p.BluRay",
                  "Some.Tool.v2.1-CORE", "Quiet.Days.S01E02.720p.HDTV", "Lone.Film.2022.2160p")
    probe(conn, ids["Harbor.Lights.2024.1080p.WEB-DL.x264"], "archive",
          facts=archive("Harbor.Lights.2024.1080p.exe"))
    # a film whose archive holds a .exe and a .mkv is not fake
    probe(conn, ids["Silent.Moon.2023.1080p.BluRay"], "archive", facts=archive("Silent.Moon.mkv", "setup.exe"))
    # a program under a program's name is not fake
    probe(conn, ids["Some.Tool.v2.1-CORE"], "archive", facts=archive("tool.exe"))
    # the episode's file itself a program by its first bytes (MZ sniffed)
    probe(conn, ids["Quiet.Days.S01E02.720p.HDTV"], "media",
          facts={"yenc": {"name": "Quiet.Days.S01E02.mkv"}, "media": {"container": None, "executable": "pe"}})
    probe(conn, ids["Lone.Film.2022.2160p"], "lone",
          facts={"yenc": {"name": "Lone.Film.2022.mkv"}, "media": {"container": "matroska", "executable": None}})
    judge(conn)
    assert verdicts(conn) == {ids["Harbor.Lights.2024.1080p.WEB-DL.x264"]: "fake",
                              ids["Quiet.Days.S01E02.720p.HDTV"]: "fake"}
    detail = conn.execute("SELECT detail FROM voyager.release_judgements WHERE release_id = %s",
                          (ids["Harbor.Lights.2024.1080p.WEB-DL.x264"],)).fetchone()[0]
    assert detail == {"programs": ["Harbor.Lights.2024.1080p.exe"]}
    sound(conn)


def test_repeated_every_start_held_by_twenty_releases_not_one_shared_padding_file(conn):
    names = [f"Sample.Clip.{i:02}" for i in range(19)] + ["Real.Upload.2024", "Late.Holder"]
    ids = catalog(conn, *names, files=1)
    for n in names[:19]:
        start(conn, ids[n], "the-sample")
    start(conn, ids["Real.Upload.2024"], "the-sample")          # a shared padding file ...
    start(conn, ids["Real.Upload.2024"], "its-own-rar")         # ... beside its own rar
    judge(conn)
    # 20 holders: the 19 samples are repeated; the real upload's own rar is held once
    assert verdicts(conn) == {ids[n]: "repeated" for n in names[:19]}
    assert conn.execute("SELECT DISTINCT detail FROM voyager.release_judgements").fetchall() == [
        ({"starts": 1, "holders": 20},)]
    sound(conn)


def test_a_start_reaching_the_bar_marks_all_its_holders(conn):
    names = [f"Clip.{i:02}" for i in range(20)]
    ids = catalog(conn, *names, files=1)
    for n in names[:19]:
        start(conn, ids[n], "the-sample")
    judge(conn)
    assert verdicts(conn) == {}                                 # 19 holders: under the bar
    start(conn, ids[names[19]], "the-sample")                   # the 20th
    assert conn.execute("SELECT count(*) FROM voyager.judge_queue").fetchone()[0] == 20
    judge(conn)
    assert verdicts(conn) == {ids[n]: "repeated" for n in names}
    sound(conn)


def test_two_writers_marking_the_same_releases_in_opposite_orders_never_wait(conn, connect):
    """A mark is appended: two open transactions marking one release each and
    then the other's (the shape of a merge beside a probe's store) both go on
    at once, and the judge's job takes every mark, a release marked twice too."""
    ids = catalog(conn, "Mark.One", "Mark.Two", files=1)
    one, two = ids["Mark.One"], ids["Mark.Two"]
    conn.execute("DELETE FROM voyager.judge_queue")
    a, b = connect(autocommit=False), connect(autocommit=False)
    for c in (a, b):
        c.execute("SET lock_timeout = '2s'")                   # a wait fails the test, not hangs it
    a.execute("SELECT voyager.judge_mark(%s)", ([one],))
    b.execute("SELECT voyager.judge_mark(%s)", ([two],))
    a.execute("SELECT voyager.judge_mark(%s)", ([two],))
    b.execute("SELECT voyager.judge_mark(%s)", ([one],))
    a.commit()
    b.commit()
    assert sorted(r for (r,) in conn.execute("SELECT release_id FROM voyager.judge_queue")) == [one, one, two, two]
    conn.execute("SELECT voyager.judge_mark(%s)", ([one, two],))  # marked (committed): not again
    assert conn.execute("SELECT count(*) FROM voyager.judge_queue").fetchone()[0] == 4
    out = conn.execute("SELECT voyager.judge_dirty()").fetchone()[0]
    assert out["judged"] == 2 and out["left"] == 0


def test_locked_a_password_nowhere_and_taken_back_when_one_arrives(conn):
    ids = catalog(conn, "Harbor.Lights.2024.1080p", "Silent.Harbor.2023.1080p", "Open.Harbor.2022.1080p")
    locked, nfo = ids["Harbor.Lights.2024.1080p"], ids["Silent.Harbor.2023.1080p"]
    conn.execute("SELECT voyager.fold_search_counts()")
    assert total(conn, "harbor") == 3 and total(conn) == 3
    conn.execute("""INSERT INTO voyager.release_passwords (release_id, status, password, source)
                    VALUES (%s, 1, NULL, 'archive'), (%s, 1, 'from-the-nfo', 'nfo')""", (locked, nfo))
    judge(conn)
    assert verdicts(conn) == {locked: "locked"}
    # hidden from every search and total, but an admin's judged=1
    assert total(conn, "harbor") == 2 and total(conn) == 2
    assert total(conn, "harbor", judged=True) == 3
    sound(conn)

    # the password from an NZB's meta: shown again, the totals back
    assert conn.execute("SELECT voyager.add_release_password(%s, 'open-sesame', 'nzb')", (locked,)).fetchone()[0]
    assert not conn.execute("SELECT voyager.add_release_password(%s, 'second', 'spot-text')", (locked,)).fetchone()[0]
    assert conn.execute("SELECT status, password, source FROM voyager.release_passwords WHERE release_id = %s",
                        (locked,)).fetchone() == (1, "open-sesame", "nzb")
    assert judge(conn)["taken_back"] == 1
    assert verdicts(conn) == {}
    assert total(conn, "harbor") == 3 and total(conn) == 3
    sound(conn)
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        conn.execute("SELECT voyager.add_release_password(%s, 'x', 'archive')", (locked,))


def test_unusable_no_readable_name_nothing_inner_a_day_after_settling(conn):
    ids = catalog(conn, "a8f3k2l9q0w7e5r1", "b7d2j4h6g8f0s1a3", "Readable.Name.2024")
    rnd, inner, readable = ids["a8f3k2l9q0w7e5r1"], ids["b7d2j4h6g8f0s1a3"], ids["Readable.Name.2024"]
    conn.execute("UPDATE voyager.releases SET readable = (name = 'Readable.Name.2024')")
    conn.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, 2, 'Inner.Name.2024.mkv')",
                 (inner,))
    every = list(ids.values())
    judge(conn)
    assert verdicts(conn) == {}                                 # settled just now
    later = "now() + interval '23 hours'"
    assert conn.execute(f"SELECT voyager.judge_releases(%s, {later})", (every,)).fetchone()[0]["hidden"] == 0
    out = conn.execute("SELECT voyager.judge_releases(%s, now() + interval '25 hours')", (every,)).fetchone()[0]
    assert out == {"judged": 3, "hidden": 1, "changed": 1, "taken_back": 0}
    assert verdicts(conn) == {rnd: "unusable"}

    # the daily pass judges what time changed: settled two days ago
    conn.execute("DELETE FROM voyager.release_judgements")
    conn.execute("UPDATE voyager.releases SET settled_at = now() - interval '2 days'")
    conn.execute("DELETE FROM voyager.judge_queue")
    out = conn.execute("SELECT voyager.judge_daily()").fetchone()[0]
    assert out["done"] is True and out["judged"] == 3 and out["hidden"] == 1
    assert verdicts(conn) == {rnd: "unusable"}
    assert conn.execute("SELECT place, place_id FROM voyager.jobs WHERE name = 'judge_daily'").fetchone() == (None, None)
    sound(conn)


def test_the_daily_pass_walks_by_id_in_batches_from_its_place(conn):
    names = [f"r{i}q8z3x7v2m5n{i}" for i in range(5)]
    ids = catalog(conn, *names, files=1)
    conn.execute("UPDATE voyager.releases SET readable = false, settled_at = now() - interval '2 days'")
    conn.execute("UPDATE voyager.settings SET value = '2' WHERE name = 'judge_daily_batch'")
    conn.execute("UPDATE voyager.settings SET value = '0' WHERE name = 'judge_daily_run_seconds'")
    first = conn.execute("SELECT voyager.judge_daily()").fetchone()[0]
    assert first["done"] is False and first["judged"] == 2
    place, at, due = conn.execute("SELECT place, place_id, next_run_at <= now() FROM voyager.jobs "
                                  "WHERE name = 'judge_daily'").fetchone()
    assert place is not None and at == sorted(ids.values())[1] and due     # due again: the pass goes on
    while not conn.execute("SELECT voyager.judge_daily()").fetchone()[0]["done"]:
        pass
    assert set(verdicts(conn).values()) == {"unusable"} and len(verdicts(conn)) == 5


def test_the_first_rule_wins(conn):
    ids = catalog(conn, "Harbor.Lights.2024.1080p")
    rid = ids["Harbor.Lights.2024.1080p"]
    conn.execute("INSERT INTO voyager.release_passwords (release_id, status, source) VALUES (%s, 1, 'archive')", (rid,))
    judge(conn)
    assert verdicts(conn) == {rid: "locked"}
    probe(conn, rid, "archive", status=1)                      # now dead too: dead comes first
    judge(conn)
    assert verdicts(conn) == {rid: "dead"}
    sound(conn)


# -- merges -------------------------------------------------------------------------------

def test_a_merge_that_names_it_takes_unusable_back_and_a_merged_release_keeps_merged(conn):
    ids = catalog(conn, "k3j5h7g9f1d2s4a6", "Inner.Name.Holder", "Gone.Part.2024")
    rnd, member, gone = ids["k3j5h7g9f1d2s4a6"], ids["Inner.Name.Holder"], ids["Gone.Part.2024"]
    conn.execute("UPDATE voyager.releases SET readable = false WHERE id = %s", (rnd,))
    conn.execute("SELECT voyager.judge_releases(%s, now() + interval '2 days')", ([rnd],))
    assert verdicts(conn) == {rnd: "unusable"}
    # an inner-name merge into it: it is usable now
    merge(conn, [(rnd, member, "inner", None)])
    conn.execute("SELECT voyager.judge_releases(ARRAY(SELECT release_id FROM voyager.judge_queue), "
                 "now() + interval '2 days')")
    conn.execute("DELETE FROM voyager.judge_queue")
    assert verdicts(conn) == {member: "merged"}

    # a merged-away release's facts are its survivor's; its own row stays merged
    merge(conn, [(rnd, gone, "name", None)])
    for rid in (rnd, member, gone):
        probe(conn, rid, "archive", status=1)
    judge(conn)
    assert verdicts(conn) == {rnd: "dead", member: "merged", gone: "merged"}
    sound(conn)


# -- rule sets ----------------------------------------------------------------------------

def test_a_judge_section_change_re_judges_and_leaves_ranges_alone(conn):
    ids = catalog(conn, "Harbor.Lights.2024.1080p", "Silent.Moon.2023.1080p")
    locked, dead = ids["Harbor.Lights.2024.1080p"], ids["Silent.Moon.2023.1080p"]
    conn.execute("INSERT INTO voyager.release_passwords (release_id, status, source) VALUES (%s, 1, 'archive')",
                 (locked,))
    probe(conn, dead, "archive", status=1)
    judge(conn)
    assert verdicts(conn) == {locked: "locked", dead: "dead"}
    ranges = conn.execute("SELECT id, status, rule_version FROM voyager.ranges ORDER BY id").fetchall()
    conn.execute("UPDATE voyager.jobs SET place = now(), place_id = 12345 WHERE name = 'judge_daily'")

    v = conn.execute("SELECT voyager.add_rule_set(%s, 'no locked')",
                     (Jsonb({"judge": {"enabled": ["dead", "fake", "repeated", "unusable"]}}),)).fetchone()[0]
    judge_section = conn.execute("SELECT (voyager.rule_set(%s)).rules -> 'judge'", (v,)).fetchone()[0]
    assert judge_section["repeat_releases"] == 20 and "locked" not in judge_section["enabled"]
    assert sorted(r for (r,) in conn.execute("SELECT release_id FROM voyager.judge_queue")) == sorted([locked, dead])
    assert conn.execute("SELECT place, place_id FROM voyager.jobs WHERE name = 'judge_daily'").fetchone() == (None, None)
    out = judge(conn)
    assert out["taken_back"] == 1 and out["changed"] == 1       # dead now under the new version
    assert conn.execute("SELECT release_id, verdict, rule_version FROM voyager.release_judgements").fetchall() == [
        (dead, "dead", v)]
    # no range stale, no recovery planned
    assert conn.execute("SELECT id, status, rule_version FROM voyager.ranges ORDER BY id").fetchall() == ranges
    assert conn.execute("SELECT count(*) FROM voyager.recoveries").fetchone()[0] == 0
    # the window's keys unchanged: a change elsewhere does not re-judge
    conn.execute("SELECT voyager.add_rule_set(%s)", (Jsonb({"sample_percent": 2}),))
    assert conn.execute("SELECT count(*) FROM voyager.judge_queue").fetchone()[0] == 0
    sound(conn)


@pytest.mark.parametrize("judge_rules, message", [
    ({"repeats": 3}, 'unknown judge key "repeats"'),
    ({"repeat_releases": "20"}, 'judge "repeat_releases" must be a JSON number, not string'),
    ({"repeat_releases": 1}, 'judge "repeat_releases" must be a whole number >= 2'),
    ({"unusable_after_hours": 1.5}, 'judge "unusable_after_hours" must be a whole number >= 0'),
    ({"enabled": ["dead", "virus"]}, 'judge "enabled" lists rules of'),
    ({"program_extensions": [".exe"]}, 'judge "program_extensions" is a list of lower-case extensions'),
    ({"media_name": "(unclosed"}, 'judge "media_name" is not a regular expression'),
    ({"version": 2}, 'judge "version" must be 1'),
])
def test_add_rule_set_refuses_a_bad_judge_section(conn, judge_rules, message):
    with pytest.raises(psycopg.errors.InvalidParameterValue) as e:
        conn.execute("SELECT voyager.add_rule_set(%s)", (Jsonb({"judge": judge_rules}),))
    assert message in str(e.value)
    assert conn.execute("SELECT max(version) FROM voyager.rule_sets").fetchone()[0] == 1
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        conn.execute("SELECT voyager.add_rule_set(%s)", (Jsonb({"judge": []}),))


# -- the command and the status -----------------------------------------------------------

def judge_cli(db_dsn, *args) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOYAGER_")}
    env["VOYAGER_DSN"] = db_dsn
    return subprocess.run([sys.executable, "-m", "voyager.cli", "judge", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True)


def test_the_dry_run_writes_nothing_and_run_judges_the_backlog(conn, db_dsn, tmp_path):
    ids = catalog(conn, "Harbor.Lights.2024.1080p", "Silent.Moon.2023.1080p", "Open.Moon.2022.1080p")
    locked, dead = ids["Harbor.Lights.2024.1080p"], ids["Silent.Moon.2023.1080p"]
    conn.execute("INSERT INTO voyager.release_passwords (release_id, status, source) VALUES (%s, 1, 'archive')",
                 (locked,))
    probe(conn, dead, "archive", status=1)
    queued = conn.execute("SELECT count(*) FROM voyager.judge_queue").fetchone()[0]
    f = tmp_path / "judge.json"
    f.write_text(json.dumps({"judge": {"enabled": ["dead"]}}))
    out = judge_cli(db_dsn, "--dry-run", "--rules", str(f), "--samples", "1")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["would_hide"] == {"dead": 1} and report["releases"] == 3
    assert report["samples"]["dead"] == [{"id": dead, "name": "Silent.Moon.2023.1080p", "detail": {"gone": 1}}]
    assert report["hidden_now"] == {}
    out = json.loads(judge_cli(db_dsn, "--dry-run").stdout)     # the current rule set
    assert out["would_hide"] == {"dead": 1, "locked": 1} and out["rule_version"] == 1
    assert verdicts(conn) == {}
    assert conn.execute("SELECT count(*) FROM voyager.judge_queue").fetchone()[0] == queued

    out = judge_cli(db_dsn, "run")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["left"] == 0
    assert verdicts(conn) == {locked: "locked", dead: "dead"}
    report = json.loads(judge_cli(db_dsn, "--dry-run", "--version", "1").stdout)
    assert report["hidden_now"] == {"dead": 1, "locked": 1} and report["would_show_again"] == 0
    assert json.loads(judge_cli(db_dsn, "daily").stdout)["done"] is True

    rows = conn.execute("SELECT verdict, releases, backlog FROM voyager.status_judge").fetchall()
    assert rows == [("dead", 1, 0), ("fake", 0, 0), ("repeated", 0, 0), ("locked", 1, 0), ("unusable", 0, 0)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOYAGER_")}
    env["VOYAGER_DSN"] = db_dsn
    status = subprocess.run([sys.executable, "-m", "voyager.cli", "status", "--json"], env=env, cwd=ROOT,
                            capture_output=True, text=True)
    assert status.returncode == 0, status.stderr
    assert [r["verdict"] for r in json.loads(status.stdout)["judge"]] == [
        "dead", "fake", "repeated", "locked", "unusable"]
