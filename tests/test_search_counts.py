"""voyager.search_count(): the exact number of searchable releases per key
(all, a category, a word), kept by statement triggers as appended deltas.
Whatever the catalog's writers do, in any order and with folds between, the
counts equal a recount; concurrent writers never wait on each other for them;
the page plans of a word search agree with each other."""
from __future__ import annotations

import re
import threading

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import set_setting

WORDS = ["harbor", "silent", "moon", "x264", "1080p", "grp", "crème", "a"]


def _setup(conn) -> None:
    conn.execute("INSERT INTO voyager.groups (priority, name, low, high) VALUES (1, 'alt.binaries.test', 1, 10)")
    conn.execute("INSERT INTO voyager.group_sets (groups) VALUES ('{alt.binaries.test}')")
    conn.execute("INSERT INTO voyager.posters (poster) VALUES ('up <up@example.com>')")


def _release(conn, serial: int, name: str, category: int | None, day: int) -> int:
    key = serial.to_bytes(20, "big")
    return conn.execute(
        """INSERT INTO voyager.releases (posted_at, first_article, last_article, segments, bytes, group_id,
                                         group_set_id, poster_id, files, category, source, complete, has_par2,
                                         release_key, identity_key, name)
           SELECT timestamptz '2024-01-01 00:00+00' + make_interval(days => %s), %s, %s, 1, 100,
                  (SELECT id FROM voyager.groups), (SELECT id FROM voyager.group_sets),
                  (SELECT id FROM voyager.posters), 1, %s, 1, true, false, %s, %s, %s
           RETURNING id""", (day, serial, serial, category, key, key, name)).fetchone()[0]


def _recount_differs(conn) -> list:
    return conn.execute("SELECT * FROM voyager.check_search_counts()").fetchall()


name = st.lists(st.sampled_from(WORDS), min_size=0, max_size=4).map(".".join)
op = st.one_of(
    st.tuples(st.just("release"), name, st.sampled_from([None, 5040, 2040, 8010]), st.integers(0, 400)),
    st.tuples(st.just("text"), st.integers(0, 30), st.sampled_from([2, 3, 6]), name),
    st.tuples(st.just("rename"), st.integers(0, 30), name),
    st.tuples(st.just("recategorize"), st.integers(0, 30), st.sampled_from([None, 5030, 2040])),
    st.tuples(st.just("hide"), st.integers(0, 30), st.booleans()),
    st.tuples(st.just("unjudge"), st.integers(0, 30)),
    st.tuples(st.just("drop"), st.integers(0, 30)),
    st.tuples(st.just("redate"), st.integers(0, 30), st.integers(0, 800)),
    st.tuples(st.just("fold")),
    st.tuples(st.just("promote"), st.sampled_from(WORDS)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(op, min_size=1, max_size=40), batched=st.booleans(), tracked_min=st.integers(1, 3))
def test_the_counts_equal_a_recount_whatever_the_writers_do(db_dsn, ops, batched, tracked_min):
    with psycopg.connect(db_dsn, autocommit=True) as conn:
        set_setting(conn, "search_tracked_min", tracked_min)  # words tracked from 1 to 3 releases on
        conn.execute("TRUNCATE voyager.releases, voyager.release_texts, voyager.release_judgements, "
                     "voyager.groups, voyager.group_sets, voyager.posters CASCADE")
        _setup(conn)
        ids: list[int] = []
        tx = conn.transaction() if batched else None          # all of it one transaction, or each its own
        if tx:
            tx.__enter__()
        for o in ops:
            pick = (lambda i: ids[i % len(ids)]) if ids else None
            if o[0] == "release":
                rid = _release(conn, len(ids) + 1, o[1] or "empty", o[2], o[3])
                conn.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, 1, %s)",
                             (rid, o[1]))
                ids.append(rid)
            elif pick is None or o[0] == "fold":
                conn.execute("SELECT voyager.fold_search_counts()")
            elif o[0] == "promote":            # as a search does for a word it found common
                conn.execute("INSERT INTO voyager.search_promotions (key) VALUES (%s) ON CONFLICT DO NOTHING",
                             ("w:" + o[1],))
            elif o[0] == "text":
                conn.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, %s, %s)",
                             (pick(o[1]), o[2], o[3]))
            elif o[0] == "rename":
                conn.execute("UPDATE voyager.release_texts SET text = %s WHERE release_id = %s AND kind = 1",
                             (o[2], pick(o[1])))
            elif o[0] == "recategorize":
                conn.execute("UPDATE voyager.releases SET category = %s WHERE id = %s", (o[2], pick(o[1])))
            elif o[0] == "hide":
                conn.execute("INSERT INTO voyager.release_judgements (release_id, hidden, verdict) VALUES (%s, %s, 't') "
                             "ON CONFLICT (release_id) DO UPDATE SET hidden = excluded.hidden", (pick(o[1]), o[2]))
            elif o[0] == "unjudge":
                conn.execute("DELETE FROM voyager.release_judgements WHERE release_id = %s", (pick(o[1]),))
            elif o[0] == "drop":               # as a retraction does: the texts, then the row
                rid = pick(o[1])
                conn.execute("DELETE FROM voyager.release_texts WHERE release_id = %s", (rid,))
                conn.execute("DELETE FROM voyager.releases WHERE id = %s", (rid,))
            elif o[0] == "redate":
                conn.execute("UPDATE voyager.releases SET posted_at = timestamptz '2023-06-01 00:00+00' "
                             "+ make_interval(days => %s) WHERE id = %s", (o[2], pick(o[1])))
        if tx:
            tx.__exit__(None, None, None)
        assert _recount_differs(conn) == []
        # the texts' posting dates follow their release's
        assert conn.execute("SELECT count(*) FROM voyager.release_texts t JOIN voyager.releases r ON r.id = t.release_id "
                            "WHERE t.posted_at IS DISTINCT FROM r.posted_at").fetchone()[0] == 0
        conn.execute("SELECT voyager.fold_search_counts()")
        assert _recount_differs(conn) == []
        assert conn.execute("SELECT count(*) FROM voyager.search_count_deltas").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM voyager.search_promotions").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM voyager.search_counts WHERE releases = 0").fetchone()[0] == 0


def test_a_count_is_the_snapshots_own(conn, connect):
    _setup(conn)
    set_setting(conn, "search_tracked_min", 1)
    rid = _release(conn, 1, "Silent.Harbor", 5040, 1)
    conn.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, 1, 'Silent.Harbor')", (rid,))
    conn.execute("SELECT voyager.rebuild_search_counts()")
    other = connect()
    with other.transaction():
        other.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        assert other.execute("SELECT voyager.search_count('{w:harbor}')").fetchone()[0] == 1
        rid2 = _release(conn, 2, "Harbor.Lights", 5040, 2)
        conn.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, 1, 'Harbor.Lights')", (rid2,))
        conn.execute("SELECT voyager.fold_search_counts()")
        # the fold and the new release are after this snapshot: still one
        assert other.execute("SELECT voyager.search_count('{w:harbor}')").fetchone()[0] == 1
    assert other.execute("SELECT voyager.search_count('{w:harbor}')").fetchone()[0] == 2
    assert conn.execute("SELECT voyager.search_count(ARRAY['c:5040', 'c:2040'])").fetchone()[0] == 2


def test_concurrent_writers_do_not_wait_on_each_other_for_the_counts(conn, connect):
    """Two transactions adding releases with the same words and category both
    go through while the other is open: the counts only ever get appended rows."""
    _setup(conn)
    set_setting(conn, "search_tracked_min", 1)
    rid = _release(conn, 3, "Common", 5040, 3)
    conn.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, 1, 'Common')", (rid,))
    conn.execute("SELECT voyager.rebuild_search_counts()")               # 'common' tracked
    a, b = connect(), connect()
    b.execute("SET lock_timeout = '2s'")
    with a.transaction():
        rid = _release(a, 1, "Common.Word.1080p", 5040, 1)
        a.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, 1, 'Common.Word.1080p')", (rid,))
        with b.transaction():
            rid2 = _release(b, 2, "Common.Word.720p", 5040, 2)
            b.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, 1, 'Common.Word.720p')", (rid2,))
        # a fold meanwhile leaves a's uncommitted deltas for the next one
        assert conn.execute("SELECT voyager.fold_search_counts()").fetchone()[0] > 0
    assert conn.execute("SELECT voyager.search_count('{w:common}')").fetchone()[0] == 3
    assert _recount_differs(conn) == []


def test_a_fold_in_progress_makes_the_other_folder_step_aside(conn, connect):
    _setup(conn)
    rid = _release(conn, 1, "X", None, 1)
    conn.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, 1, 'x')", (rid,))
    other = connect()
    with other.transaction():
        assert other.execute("SELECT voyager.fold_search_counts()").fetchone()[0] > 0
        done = []
        t = threading.Thread(target=lambda: done.append(conn.execute("SELECT voyager.fold_search_counts()").fetchone()[0]))
        t.start()
        t.join(5)
        assert done == [0]                       # it did not wait: nothing folded twice
    assert _recount_differs(conn) == []
    assert conn.execute("SELECT voyager.search_count('{c:8010}')").fetchone()[0] == 1


@pytest.mark.parametrize("text", ["Silent.Harbor.S01E02.1080p.WEB.h264-GRP", "Artist - Album (2004) [FLAC]",
                                  "a__b  c--d a", "Crème.Brûlée.2020", ""])
def test_search_words_splits_plain_words_as_the_query_does(conn, text):
    """The query's plain words (ASCII letters and digits: the ones read from
    search_count and pre-checked with ILIKE) are the text's words in SQL."""
    from web.search import split_words

    PLAIN_WORD = re.compile(r"[a-z0-9]{1,64}")      # the words voyager.search_page pre-checks with ILIKE
    words = conn.execute("SELECT voyager.search_words(%s)", (text,)).fetchone()[0]
    plain = [w for w in split_words(text)[0] if PLAIN_WORD.fullmatch(w)]
    assert [w for w in dict.fromkeys(words) if PLAIN_WORD.fullmatch(w)] == plain


def test_a_long_run_is_cut_into_words_of_64_on_both_sides(conn):
    words = conn.execute("SELECT voyager.search_words(%s)", ("x" * 70 + ".mkv",)).fetchone()[0]
    assert words == ["x" * 64, "x" * 6, "mkv"]


def test_a_word_is_counted_by_its_search_until_it_is_common_then_tracked(conn):
    """Below search_tracked_min a word has no kept count (its search counts it
    with its page); a search that finds it past the mark asks for it, the
    fold counts it, and from then on its count moves with the catalog."""
    _setup(conn)
    set_setting(conn, "search_tracked_min", 3)
    for i in range(1, 3):
        rid = _release(conn, i, f"Rising.{i}", 5040, i)
        conn.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, 1, %s)", (rid, f"Rising.{i}"))

    def page():
        """The page, then the promotion when it asks for one (as the web does:
        the search itself writes nothing)."""
        rows = conn.execute("SELECT * FROM voyager.search_words_page('rising', 10, 0)").fetchall()
        if rows[0][3]:
            assert conn.execute("SELECT count(*) FROM voyager.search_promotions").fetchone()[0] == 0
            conn.execute("SELECT voyager.ask_search_promotion('rising')")
        return rows[0][0], [r[1] for r in rows if r[1] is not None]

    assert conn.execute("SELECT voyager.search_count('{w:rising}')").fetchone()[0] is None
    assert page()[0] == 2
    assert conn.execute("SELECT count(*) FROM voyager.search_promotions").fetchone()[0] == 0
    rid = _release(conn, 3, "Rising.3", 5040, 3)
    conn.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, 1, 'Rising.3')", (rid,))
    total, ids = page()
    assert total == 3 and ids == [rid, rid - 1, rid - 2]                 # newest first
    assert conn.execute("SELECT key FROM voyager.search_promotions").fetchall() == [("w:rising",)]
    conn.execute("SELECT voyager.fold_search_counts()")
    assert conn.execute("SELECT voyager.search_count('{w:rising}')").fetchone()[0] == 3
    rid = _release(conn, 4, "Rising.4", 5040, 4)
    conn.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, 1, 'Rising.4')", (rid,))
    assert conn.execute("SELECT voyager.search_count('{w:rising}')").fetchone()[0] == 4  # a delta now
    assert page()[0] == 4 and _recount_differs(conn) == []
    status = conn.execute("SELECT searchable_releases, tracked_words, deltas_waiting, promotions_waiting "
                          "FROM voyager.status_search").fetchone()
    assert status[0] == 4 and status[1] == 1 and status[2] > 0 and status[3] == 0
    conn.execute("SELECT voyager.fold_search_counts()")
    assert conn.execute("SELECT deltas_waiting FROM voyager.status_search").fetchone()[0] == 0


def test_a_rebuild_waits_for_a_store_in_progress_and_counts_after_it(conn, connect):
    """A rebuild while a writer is between its statements: it waits for the
    writer's commit (no deadlock, whatever the writer's next statement takes)
    and then counts what it wrote."""
    _setup(conn)
    set_setting(conn, "search_tracked_min", 1)
    writer, rebuilder = connect(), connect()
    rebuilder.execute("SET lock_timeout = '20s'")
    done: list = []
    with writer.transaction():
        rid = _release(writer, 1, "Store.In.Progress", 5040, 1)          # the releases trigger: deltas
        t = threading.Thread(target=lambda: done.append(
            rebuilder.execute("SELECT voyager.rebuild_search_counts()").fetchone()[0]))
        t.start()
        t.join(1)
        assert done == []                                                  # waiting for the writer
        writer.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, 1, 'Store.In.Progress')",
                       (rid,))                                             # the texts trigger: more deltas
    t.join(20)
    assert done and done[0] > 0
    assert conn.execute("SELECT voyager.search_count('{w:progress}')").fetchone()[0] == 1
    assert _recount_differs(conn) == []


# a join node over a transition table in an auto_explain plan, and that table's estimated rows
_TUPLESTORE = re.compile(r"Named Tuplestore Scan\s+\(cost=\S+ rows=(\d+)")
_JOIN = re.compile(r"Nested Loop|Hash Join|Merge Join")


def test_a_big_statement_after_an_empty_one_is_planned_for_its_own_rows(conn, connect):
    """The statement triggers join the transition tables (old and new rows, or either with a
    table): planned once a session, the plan of its first statement, an empty one's, would
    join a big update's rows by a nested loop, quadratic in them. Each statement's are
    planned for its rows, and the counts stay exact."""
    _setup(conn)
    n = 3000
    conn.execute(
        """INSERT INTO voyager.releases (posted_at, first_article, last_article, segments, bytes, group_id,
                                         group_set_id, poster_id, files, category, source, complete, has_par2,
                                         release_key, identity_key, name)
           SELECT timestamptz '2024-01-01 00:00+00' + make_interval(hours => i), i, i, 1, 100,
                  (SELECT id FROM voyager.groups), (SELECT id FROM voyager.group_sets),
                  (SELECT id FROM voyager.posters), 1, 5040, 1, true, false,
                  substring(sha256(i::text::bytea) FROM 1 FOR 20), substring(sha256(('i' || i)::bytea) FROM 1 FOR 20),
                  'Harbor.Moon.' || i
             FROM generate_series(1, %s) i""", (n,))
    conn.execute("INSERT INTO voyager.release_judgements (release_id, hidden, verdict) "
                 "SELECT id, false, 'ok' FROM voyager.releases")
    plans: list[str] = []
    with connect() as session:
        session.add_notice_handler(lambda d: plans.append(d.message_primary or ""))
        session.execute("LOAD 'auto_explain'")
        for s in ("auto_explain.log_min_duration = 0", "auto_explain.log_nested_statements = on",
                  "client_min_messages = log"):
            session.execute("SET " + s)
        for empty, big in (
                ("UPDATE voyager.releases SET name = name WHERE false",
                 "UPDATE voyager.releases SET name = name || '.x', category = 2040, "
                 "posted_at = posted_at + interval '1 day'"),
                ("UPDATE voyager.release_judgements SET hidden = hidden WHERE false",
                 "UPDATE voyager.release_judgements SET hidden = true, verdict = 'bad'")):
            session.execute(empty)
            plans.clear()
            session.execute(big)
            joined = [p for p in plans if _TUPLESTORE.search(p) and _JOIN.search(p)]
            assert joined, f"no join over the transition tables planned for {big!r}"
            estimates = [int(r) for p in joined for r in _TUPLESTORE.findall(p)]
            assert min(estimates) == n, (big, estimates)
    assert conn.execute("SELECT count(*) FROM voyager.releases WHERE name LIKE '%.x' AND category = 2040").fetchone()[0] == n
    assert _recount_differs(conn) == []
