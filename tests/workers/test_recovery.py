"""Recoveries, end to end over a generated corpus through the worker's own
lane loop (workers/replay.CorpusLane, workers/recovery.CorpusRecovery):

- a retracted rule: a corpus indexed under a rule set dropping one poster;
  the rule retracted (a rule set without it, voyager.retract_rule) and the
  recovery run: the catalog is then exactly a fresh run's without the drop
  (every release and pending key, its chunk), and nothing else changed;
- a removed group: its crosspost, skipped by the other group, is recovered by
  its next owner: that group's catalog is then the one of a run where the
  removed group was never indexed, and the removed group's stays as it was."""
from __future__ import annotations

import os
from pathlib import Path

import psycopg
import pytest
from psycopg.types.json import Jsonb

from sim.generate import Options, generate
from tests.conftest import create_database, drop_database
from sim.synthetic import synthetic_lines
from voyager.corpus import CorpusWriter
from workers.recovery import recover_from_corpus
from workers.replay import replay_into_db

RANGE, CHUNK = 10_000, 5_000


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("recovery") / "corpus"
    generate(Options(out=out, seed=13, groups=3, lines=60_000, days=3, range_articles=RANGE,
                     chunk_articles=CHUNK, bodies=False))
    return out


def index(conn, root: Path) -> None:
    for name, value in (("range_articles", RANGE), ("chunk_articles", CHUNK)):
        conn.execute("UPDATE voyager.settings SET value = %s WHERE name = %s", (str(value), name))
    replay_into_db(conn, root)


def catalog(conn, group: str | None = None) -> tuple[set, set]:
    where = "WHERE g.name = %(g)s" if group else ""
    rows = conn.execute(f"""SELECT r.release_key, r.segments, r.files, r.settled_at IS NOT NULL, c.chunk
                              FROM voyager.releases r JOIN voyager.groups g ON g.id = r.group_id
                              LEFT JOIN voyager.release_chunks c ON c.release_id = r.id {where}""",
                        {"g": group}).fetchall()
    pending = conn.execute(f"""SELECT p.release_key, p.segments, p.finished FROM voyager.pending_releases p
                                 JOIN voyager.groups g ON g.id = p.group_id {where}""", {"g": group}).fetchall()
    return ({(bytes(k), s, f, settled, bytes(ch) if ch is not None else None) for k, s, f, settled, ch in rows},
            {(bytes(k), s, fin) for k, s, fin in pending})


@pytest.fixture
def scratch(admin_dsn, template_db):
    made = []

    def make(tag: str) -> psycopg.Connection:
        name = f"voyager_recovery_{tag}_{os.getpid()}"
        c = psycopg.connect(create_database(admin_dsn, name, template=template_db[0]), autocommit=True)
        made.append((name, c))
        return c

    yield make
    for name, c in made:
        c.close()
        drop_database(admin_dsn, name)


@pytest.fixture(scope="module")
def fresh(admin_dsn, template_db, corpus):
    """The corpus indexed under the default rules (nothing dropped by poster)."""
    name = f"voyager_recovery_ref_{os.getpid()}"
    dsn = create_database(admin_dsn, name, template=template_db[0])
    try:
        with psycopg.connect(dsn, autocommit=True) as c:
            index(c, corpus)
            poster = c.execute("""SELECT p.poster FROM voyager.releases r JOIN voyager.posters p ON p.id = r.poster_id
                                   GROUP BY p.poster ORDER BY count(*) DESC, p.poster LIMIT 1""").fetchone()[0]
            yield catalog(c), poster
    finally:
        drop_database(admin_dsn, name)


def test_a_retracted_rule_adds_exactly_what_it_had_dropped(corpus, fresh, scratch):
    reference, poster = fresh
    conn = scratch("retract")
    v2 = conn.execute("SELECT voyager.add_rule_set(%s, 'a spammer')",
                      (Jsonb({"dropped_posters": [poster]}),)).fetchone()[0]
    index(conn, corpus)
    # the ranges ran with the rule set their leases loaded, and its drops are counted
    assert {v for (v,) in conn.execute("SELECT DISTINCT rule_version FROM voyager.ranges WHERE status = 'done'")} == {v2}
    dropped = conn.execute("SELECT sum(releases) FROM voyager.rule_counts WHERE rule = 'dropped-poster' AND key = %s",
                           (poster,)).fetchone()[0]
    before = catalog(conn)
    assert dropped > 0 and before[0] < reference[0]
    assert not any(bytes(k) in {r[0] for r in before[0]} for (k,) in conn.execute(
        "SELECT r.release_key FROM voyager.releases r JOIN voyager.posters p ON p.id = r.poster_id WHERE p.poster = %s",
        (poster,)))

    planned = conn.execute("SELECT * FROM voyager.retract_rule('dropped-poster', %s)", (poster,)).fetchall()
    assert planned and all(v == v2 + 1 for v, *_ in planned)
    assert conn.execute("SELECT (voyager.rule_set()).rules -> 'dropped_posters'").fetchone()[0] == []
    stats = recover_from_corpus(conn, corpus)
    assert stats["recoveries"] == len(planned)

    after = catalog(conn)
    assert after == reference                       # a fresh run without the drop, key for key
    assert after[0] >= before[0] and after[1] >= before[1]   # nothing that was there changed
    assert stats["added"] == len(after[0] - before[0]) + len(after[1] - before[1])
    # the counts no longer show the recovered drops; a second retraction finds nothing to do
    assert conn.execute("SELECT count(*) FROM voyager.rule_counts WHERE rule = 'dropped-poster'").fetchone()[0] == 0
    assert conn.execute("SELECT * FROM voyager.retract_rule('dropped-poster', %s)", (poster,)).fetchall() == []
    assert conn.execute("SELECT count(*) FROM voyager.recoveries WHERE done_at IS NULL").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM voyager.group_leases WHERE token IS NOT NULL").fetchone()[0] == 0
    assert all(n == 0 for _k, n in conn.execute("SELECT * FROM voyager.check_catalog()"))


def test_only_list_entries_can_be_retracted(scratch):
    conn = scratch("refused")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="only a dropped poster"):
        conn.execute("SELECT * FROM voyager.retract_rule('stub-archive', 'AX')")


A, B = "alt.binaries.alpha", "alt.binaries.beta"


def crossed_corpus(root: Path, with_a: bool = True) -> Path:
    """Two groups of synthetic lines; one upload (2 files of 30 parts) posted to
    both, its Xref naming both: alpha (priority 1) owns it, beta skips it. With
    with_a false: beta alone, as if alpha had never been indexed."""
    w = CorpusWriter(root)
    poster = "Crosser <crosser@example.invalid>"

    def upload(n: int, date: bytes, k: int, other: str, other_n: int, group: str) -> bytes:
        f, part = divmod(k, 30)
        subject = f'[{f + 1}/2] - "Crossed.Upload.2024.1080p.WEB.x264-GRP.part{f + 1}.rar" yEnc ({part + 1}/30)'
        fields = [str(n), subject, poster, date.decode(), f"<crossed.{k}@example.invalid>", "", "750000", "5900",
                  f"Xref: news.example.com {group}:{n} {other}:{other_n}"]
        return "\t".join(fields).encode()

    def group_lines(group: str, high: int, at: int, other: str, other_at: int) -> list[tuple[int, bytes]]:
        lines = list(synthetic_lines(group, 1, high, seed=3))
        out = []
        for n, line in lines:
            k = n - at
            if 0 <= k < 60:
                line = upload(n, line.split(b"\t")[3], k, other, other_at + k, group)
            out.append((n, line))
        return out

    listing = []
    for name, high, at, other, other_at, prio in ((A, 5_000, 1_000, B, 15_000, 1), (B, 20_000, 15_000, A, 1_000, 2)):
        if name == A and not with_a:
            continue
        listing.append({"name": name, "low": 1, "high": high, "priority": prio})
        lines = group_lines(name, high, at, other, other_at)
        for start in range(1, high + 1, RANGE):
            end = start + RANGE - 1
            chunks = []
            for c in range(start, min(end, high) + 1, CHUNK):
                last = min(c + CHUNK - 1, high)
                chunks.append((c, last, [x for n, x in lines if c <= n <= last]))
            w.write_range(name, start, end, chunks)
    w.write_groups(listing)
    return root


def test_a_removed_groups_crossposts_go_to_their_next_owner(scratch, tmp_path):
    root = crossed_corpus(tmp_path / "crossed")
    conn = scratch("removed")
    index(conn, root)
    assert conn.execute("SELECT sum(articles) FROM voyager.rule_counts WHERE rule = 'crosspost' AND key = %s",
                        (A,)).fetchone()[0] >= 55          # beta skipped alpha's crosspost (a number may be missing)
    owned = conn.execute("""SELECT g.name, r.name FROM voyager.releases r JOIN voyager.groups g ON g.id = r.group_id
                             JOIN voyager.group_sets s ON s.id = r.group_set_id
                            WHERE s.groups @> ARRAY[%s, %s]""", (A, B)).fetchall()
    assert owned == [(A, "Crossed.Upload.2024.1080p.WEB.x264-GRP")]
    before, alpha = catalog(conn, B), catalog(conn, A)

    conn.execute("SELECT voyager.set_group_active(%s, false)", (A,))
    planned = conn.execute("SELECT g.name FROM voyager.recoveries x JOIN voyager.groups g ON g.id = x.group_id "
                           "WHERE x.rule = 'crosspost' AND x.key = %s AND x.done_at IS NULL", (A,)).fetchall()
    assert planned == [(B,)]
    stats = recover_from_corpus(conn, root)
    assert (stats["recoveries"], stats["added"]) == (1, 1)

    ref = scratch("removed_ref")
    index(ref, crossed_corpus(tmp_path / "beta-alone", with_a=False))
    after = catalog(conn, B)
    assert after == catalog(ref, B)                     # as if alpha had never owned it
    assert after[0] > before[0] and after[1] == before[1]
    assert catalog(conn, A) == alpha                    # the removed group's catalog stays
    assert conn.execute("""SELECT count(*) FROM voyager.releases r JOIN voyager.groups g ON g.id = r.group_id
                            WHERE g.name = %s AND r.name = 'Crossed.Upload.2024.1080p.WEB.x264-GRP'""",
                        (B,)).fetchone()[0] == 1        # the crosspost, indexed by its new owner
    assert all(n == 0 for _k, n in conn.execute("SELECT * FROM voyager.check_catalog()"))
