"""The batch store: window batches into the catalog under a group lease."""
from __future__ import annotations

import psycopg
import pytest

from ext.window import Window
from tests.ext.test_window import GROUP, Poster
from tests.helpers import lease, next_range, plan, set_setting
from workers.store import Store


def setup_range(conn, high: int):
    set_setting(conn, "range_articles", 1_000_000)
    plan(conn, [{"name": GROUP, "low": 1, "high": high}])
    held = lease(conn, "history", "w1")
    rng = next_range(conn, held["token"])
    return held["token"], rng


def lines_of(p: Poster) -> bytes:
    return b"\r\n".join(p.lines) + b"\r\n"


def an_upload():
    p = Poster()
    files = [("Stored.Show.S01E01.part01.rar", 4), ("Stored.Show.S01E01.part02.rar", 4),
             ("Stored.Show.S01E01.par2", 1)]
    t = p.upload(files, shape="name_first", release="Stored.Show.S01E01")
    p.pad(8000, t + 3600)                               # the frontier passes the window: it is finished
    return p


def test_a_batch_becomes_catalog_rows_and_is_refused_when_sent_again(conn):
    p = an_upload()
    token, rng = setup_range(conn, len(p.lines))
    w = Window(GROUP, {GROUP: 1})
    w.feed(lines_of(p), len(p.lines))
    batch = w.take_batch()
    store = Store(conn)
    done = store.store(token, rng["range_id"], 1, len(p.lines) + 1, len(p.lines), batch)
    assert done["status"] == "done" and done["releases"] >= 1
    row = conn.execute("""SELECT r.files, r.segments, r.complete, r.has_par2, r.source, r.settled_at IS NOT NULL,
                                 p.poster, gs.groups, c.chunk IS NOT NULL
                            FROM voyager.releases r JOIN voyager.posters p ON p.id = r.poster_id
                            JOIN voyager.group_sets gs ON gs.id = r.group_set_id
                            JOIN voyager.release_chunks c ON c.release_id = r.id
                           WHERE r.name = 'Stored.Show.S01E01'""").fetchone()
    assert row == (3, 9, True, True, 1, True, "up <up@example.com>", [GROUP], True)
    texts = conn.execute("""SELECT kind, text FROM voyager.release_texts t JOIN voyager.releases r ON r.id = t.release_id
                             WHERE r.name = 'Stored.Show.S01E01'""").fetchall()
    assert texts == [(1, "Stored.Show.S01E01")]
    kinds = {k for (k,) in conn.execute("""SELECT kind FROM voyager.probe_candidates c JOIN voyager.releases r
                                                ON r.id = c.release_id WHERE r.name = 'Stored.Show.S01E01'""")}
    assert kinds == {"archive", "par2"}
    before = conn.execute("SELECT count(*), sum(segments) FROM voyager.releases").fetchone()
    with pytest.raises(psycopg.Error) as e:
        store.store(token, rng["range_id"], 1, len(p.lines) + 1, len(p.lines), batch)
    assert e.value.sqlstate in ("VY002", "VY003")
    assert conn.execute("SELECT count(*), sum(segments) FROM voyager.releases").fetchone() == before


def test_a_provisional_release_is_finished_by_the_continuation(conn):
    p = Poster()
    t = p.upload([("Open.Upload.part1.rar", 4), ("Open.Upload.part2.rar", 4)], shape="name_first",
                 release="Open.Upload")
    q = Poster(start_article=p.n)
    q.pad(8000, t + 3600)
    token, rng = setup_range(conn, q.n - 1)
    store = Store(conn)
    w = Window(GROUP, {GROUP: 1})
    w.feed(lines_of(p), p.n - 1)
    store.store(token, rng["range_id"], 1, p.n, p.n - 1, w.take_batch())
    for b in w.lease_end_batches():             # the lease ends: written provisionally, nothing moved
        store.store(token, rng["range_id"], p.n, p.n, 0, b)
    assert conn.execute("SELECT settled_at IS NULL, edge FROM voyager.releases WHERE name = 'Open.Upload'"
                        ).fetchone() == (True, True)
    w2 = Window.restore(w.snapshot())
    w2.feed(lines_of(q), q.n - 1)
    store.store(token, rng["range_id"], p.n, q.n, q.n - p.n, w2.take_batch())
    rows = conn.execute("""SELECT settled_at IS NOT NULL, edge, complete, segments,
                                  (SELECT count(*) FROM voyager.release_chunks c WHERE c.release_id = r.id)
                             FROM voyager.releases r WHERE name = 'Open.Upload'""").fetchall()
    assert rows == [(True, False, True, 8, 1)]


def test_a_malformed_batch_stores_nothing(conn):
    p = an_upload()
    token, rng = setup_range(conn, len(p.lines))
    w = Window(GROUP, {GROUP: 1})
    w.feed(lines_of(p), len(p.lines))
    batch = w.take_batch()
    batch["releases"][0]["release_key"] = b"short"
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="release key"):
        Store(conn).store(token, rng["range_id"], 1, len(p.lines) + 1, len(p.lines), batch)
    assert conn.execute("SELECT count(*) FROM voyager.releases").fetchone()[0] == 0
    assert conn.execute("SELECT next_article FROM voyager.ranges WHERE id = %s", (rng["range_id"],)).fetchone()[0] == 1


def test_counts_of_a_redone_batch_are_replaced(conn):
    p = an_upload()
    p.post("0123456789abcdef0123456789abcdef")          # a counterless line: counted
    token, rng = setup_range(conn, len(p.lines))
    w = Window(GROUP, {GROUP: 1})
    w.feed(lines_of(p), len(p.lines))
    batch = w.take_batch()
    Store(conn).store(token, rng["range_id"], 1, len(p.lines) + 1, len(p.lines), batch)
    assert conn.execute("SELECT articles FROM voyager.rule_counts WHERE rule = 'obfuscated-subject'").fetchone() == (1,)
    conn.execute("SELECT voyager.release_group(%s)", (token,))     # no snapshot: the range is planned again
    held = lease(conn, "history", "w2")
    rng2 = next_range(conn, held["token"])
    assert rng2["next_article"] == 1
    assert conn.execute("SELECT count(*) FROM voyager.rule_counts").fetchone()[0] == 0
    Store(conn).store(held["token"], rng2["range_id"], 1, len(p.lines) + 1, len(p.lines), batch)
    assert conn.execute("SELECT sum(articles) FROM voyager.rule_counts WHERE rule = 'obfuscated-subject'").fetchone() == (1,)
    assert conn.execute("SELECT count(*) FROM voyager.releases WHERE name = 'Stored.Show.S01E01'").fetchone() == (1,)


def test_the_nzb_of_a_stored_release_lists_what_the_window_saw(conn):
    import nzb as nzb_pkg

    from ext.window import segments_of

    p = an_upload()
    token, rng = setup_range(conn, len(p.lines))
    w = Window(GROUP, {GROUP: 1})
    w.feed(lines_of(p), len(p.lines))
    batch = w.take_batch()
    Store(conn).store(token, rng["range_id"], 1, len(p.lines) + 1, len(p.lines), batch)
    (rec,) = [r for r in batch["releases"] if r["name"] == "Stored.Show.S01E01"]
    rid = conn.execute("SELECT id FROM voyager.releases WHERE name = 'Stored.Show.S01E01'").fetchone()[0]
    text = conn.execute("SELECT voyager.nzb(%s)", (rid,)).fetchone()[0]
    parsed = nzb_pkg.Nzb.from_str(text)
    # the store categorised it from its name (an episode: TV), and the NZB names the category as Newznab does
    category = conn.execute("SELECT category FROM voyager.releases WHERE id = %s", (rid,)).fetchone()[0]
    assert category // 1000 == 5
    assert parsed.meta.category == conn.execute(
        "SELECT p.name || ' > ' || c.name FROM voyager.categories c JOIN voyager.categories p ON p.id = c.parent_id "
        "WHERE c.id = %s", (category,)).fetchone()[0]
    assert {f.name: [(s.number, s.message_id) for s in f.segments] for f in parsed.files} == \
        {f["name"]: [(q, m.decode()) for q, m, _b in segments_of(f["segs"])] for f in rec["file_list"]}
    assert conn.execute("SELECT voyager.nzb(-1)").fetchone()[0] is None


def test_a_corpus_through_the_database_matches_its_offline_replay(conn, tmp_path):
    from sim.generate import Options, generate
    from bench.replay import fidelity
    from workers.replay import catalog_fidelity, catalog_sizes, replay_into_db

    out = tmp_path / "c"
    generate(Options(out=out, seed=17, groups=3, lines=30_000, days=2, range_articles=10_000,
                     chunk_articles=3_000, bodies=False))
    done = replay_into_db(conn, out)
    assert done["headers"] > 29_000
    stored = catalog_fidelity(conn, out)
    assert stored == {k: v for k, v in fidelity(out).items() if k in stored}
    assert stored["release"] >= 0.995 and stored["album"] >= 0.995   # drops: the same as offline, above
    assert conn.execute("SELECT count(*) FROM voyager.ranges WHERE status NOT IN ('done', 'ancient')").fetchone()[0] == 0
    sizes = catalog_sizes(conn, done["headers"])
    assert sizes["chunk_share_of_zstd19_listing"] <= 0.9 and sizes["chunk_share_of_gzipped_nzb"] <= 0.6
