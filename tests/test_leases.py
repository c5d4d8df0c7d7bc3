"""Group leases in SQL: the claim, the order, real concurrent claimants,
next_range in article order, the resume point, snapshots, release, takeover."""
from __future__ import annotations

import datetime as dt
import threading

import psycopg
import pytest

from tests.helpers import advance, finish_range, lease, next_range, plan, ranges, set_setting

LEASE_LOST = "VY001"
NOT_CURSOR = "VY002"
BATCH_REFUSED = "VY003"
SNAPSHOT_REFUSED = "VY004"


def sqlstate_of(excinfo) -> str:
    return excinfo.value.sqlstate


@pytest.fixture
def three_groups(conn):
    set_setting(conn, "range_articles", 1000)
    plan(conn, [{"name": "g.big", "low": 1, "high": 5000},
                {"name": "g.mid", "low": 1, "high": 3000},
                {"name": "g.small", "low": 1, "high": 1000}])
    return conn


def age_heartbeat(conn, group: str, lane: str = "history", seconds: int = 3600) -> None:
    conn.execute("""UPDATE voyager.group_leases gl
                       SET heartbeat_at = now() - make_interval(secs => %(s)s),
                           expires_at = voyager.lease_expiry() - make_interval(secs => %(s)s)
                      FROM voyager.groups g WHERE g.id = gl.group_id AND g.name = %(g)s AND gl.lane = %(l)s""",
                 {"s": seconds, "g": group, "l": lane})


def test_a_heartbeat_keeps_the_lease_for_the_ttl_and_says_until_when(three_groups):
    conn = three_groups
    set_setting(conn, "lease_ttl_seconds", 120)
    held = lease(conn, "history", "n1")
    age_heartbeat(conn, held["group_name"], seconds=100)     # 20 seconds left
    until = conn.execute("SELECT voyager.heartbeat(%s)", (held["token"],)).fetchone()[0]
    left, stored = conn.execute("SELECT expires_at - now(), expires_at FROM voyager.group_leases WHERE token = %s",
                                (held["token"],)).fetchone()
    assert stored == until and dt.timedelta(seconds=110) < left <= dt.timedelta(seconds=120)
    other = lease(conn, "history", "n2")                    # held: another group, not this one
    assert other and other["group_name"] != held["group_name"]


def test_each_claim_gets_another_group_until_none_is_free(three_groups):
    conn = three_groups
    names = [lease(conn, "history", f"n{i}")["group_name"] for i in range(3)]
    assert sorted(names) == ["g.big", "g.mid", "g.small"]
    assert lease(conn, "history", "n4") is None


def test_the_order_alternates_biggest_backlog_and_longest_unheld(three_groups):
    conn = three_groups
    conn.execute("SELECT setval('voyager.group_lease_turns', 2)")   # next turn 3: biggest
    first = lease(conn, "history", "n1")
    assert first["group_name"] == "g.big"
    second = lease(conn, "history", "n2")   # turn 4: never held first, then priority
    assert second["group_name"] == "g.mid"
    conn.execute("SELECT voyager.release_group(%s)", (second["token"],))
    conn.execute("SELECT voyager.release_group(%s)", (first["token"],))
    # g.small was never held: on an unheld turn it goes before both released groups
    conn.execute("SELECT setval('voyager.group_lease_turns', 4)")   # next turn 5: biggest
    assert lease(conn, "history", "n3")["group_name"] == "g.big"
    assert lease(conn, "history", "n4")["group_name"] == "g.small"
    assert lease(conn, "history", "n5")["group_name"] == "g.mid"


def test_a_claim_in_progress_never_blocks_another_claimant(three_groups, connect):
    a = connect(autocommit=False)
    b = connect()
    b.execute("SET lock_timeout = '2s'")
    ga = lease(a, "history", "a")       # a's transaction holds its row lock
    gb = lease(b, "history", "b")       # SKIP LOCKED: b neither waits nor gets a's group
    assert ga and gb and ga["group_name"] != gb["group_name"]
    a.rollback()                        # a's claim never happened: the group is free again
    gc = lease(b, "history", "c")
    assert gc["group_name"] == ga["group_name"]


def test_racing_claimants_never_share_a_group(conn, connect):
    set_setting(conn, "range_articles", 100)
    plan(conn, [{"name": f"g.{i:02d}", "low": 1, "high": 100 + i} for i in range(12)])
    conns = [connect() for _ in range(8)]
    got: list[str] = []
    lock = threading.Lock()
    barrier = threading.Barrier(len(conns))

    def claim(c, i):
        barrier.wait()
        while (held := lease(c, "history", f"w{i}")) is not None:
            with lock:
                got.append(held["group_name"])

    threads = [threading.Thread(target=claim, args=(c, i)) for i, c in enumerate(conns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(got) == [f"g.{i:02d}" for i in range(12)]


def test_next_range_walks_the_group_in_article_order(three_groups):
    conn = three_groups
    held = lease(conn, "history", "n1", max_priority=100)
    group = held["group_name"]
    seen = []
    while (rng := next_range(conn, held["token"])) is not None:
        assert next_range(conn, held["token"])["range_id"] == rng["range_id"]   # unfinished: the same again
        finish_range(conn, held["token"], rng, batch=300)
        seen.append((rng["start_article"], rng["end_article"]))
    assert seen == [r[:2] for r in ranges(conn, group)]
    assert all(r[3] == "done" and r[5] == "history" for r in ranges(conn, group))


def test_a_batch_sent_twice_or_late_is_refused_and_changes_nothing(three_groups):
    conn = three_groups
    held = lease(conn, "history")
    rng = next_range(conn, held["token"])
    advance(conn, held["token"], rng, 1, 401, 400)
    for first, nxt in ((1, 401), (201, 601), (500, 700)):
        with pytest.raises(psycopg.Error) as e:
            advance(conn, held["token"], rng, first, nxt, 1)
        assert sqlstate_of(e) == BATCH_REFUSED
    assert conn.execute("SELECT next_article, headers FROM voyager.ranges WHERE id = %s",
                        (rng["range_id"],)).fetchone() == (401, 400)
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        advance(conn, held["token"], rng, 401, 5000)      # past the range's end
    other = conn.execute("SELECT id FROM voyager.ranges WHERE id <> %s AND status = 'planned' LIMIT 1",
                         (rng["range_id"],)).fetchone()[0]
    with pytest.raises(psycopg.Error) as e:
        advance(conn, held["token"], {"range_id": other}, 1, 2)
    assert sqlstate_of(e) == NOT_CURSOR


def test_release_with_a_snapshot_resumes_there_for_the_next_holder(three_groups):
    conn = three_groups
    held = lease(conn, "history", "n1")
    rng = next_range(conn, held["token"])
    start = rng["start_article"]
    advance(conn, held["token"], rng, start, start + 600)
    with pytest.raises(psycopg.Error) as e:    # not a resume point
        conn.execute("SELECT voyager.store_snapshot(%s, %s, %s)", (held["token"], start + 5, b"x"))
    assert sqlstate_of(e) == SNAPSHOT_REFUSED
    conn.execute("SELECT voyager.release_group(%s, %s, %s)", (held["token"], b"window-state", start + 600))
    again = lease(conn, "history", "n2", max_priority=100)
    while again["group_name"] != held["group_name"]:
        again = lease(conn, "history", "n2")
    assert again["snapshot_article"] == start + 600 and again["snapshot_bytes"] == len(b"window-state")
    snap = conn.execute("SELECT article, data FROM voyager.snapshot(%s)", (again["token"],)).fetchone()
    assert snap == (start + 600, b"window-state")
    resumed = next_range(conn, again["token"])
    assert resumed["range_id"] == rng["range_id"] and resumed["next_article"] == start + 600


def test_release_without_a_snapshot_plans_the_lane_again_since_the_last_one(three_groups):
    conn = three_groups
    held = lease(conn, "history")
    token, group = held["token"], held["group_name"]
    r1 = next_range(conn, token)
    finish_range(conn, token, r1, batch=250)
    conn.execute("SELECT voyager.store_snapshot(%s, %s, %s)", (token, r1["end_article"] + 1, b"s1"))
    r2 = next_range(conn, token)
    finish_range(conn, token, r2)
    r3 = next_range(conn, token)
    advance(conn, token, r3, r3["start_article"], r3["start_article"] + 10, 10)
    conn.execute("SELECT voyager.release_group(%s)", (token,))
    rows = ranges(conn, group)
    assert rows[0][3] == "done"
    assert [(r[2], r[3]) for r in rows[1:3]] == [(r2["start_article"], "planned"), (r3["start_article"], "planned")]
    assert conn.execute("""SELECT count(*) FROM voyager.range_batches b JOIN voyager.ranges r ON r.id = b.range_id
                            WHERE r.id IN (%s, %s)""", (r2["range_id"], r3["range_id"])).fetchone()[0] == 0


def test_a_silent_holder_is_taken_over_and_its_token_refused(three_groups, connect):
    conn = three_groups
    old_conn = connect()
    old = lease(old_conn, "history", "old")
    token = old["token"]
    r1 = next_range(old_conn, token)
    finish_range(old_conn, token, r1)
    old_conn.execute("SELECT voyager.store_snapshot(%s, %s, %s)", (token, r1["end_article"] + 1, b"w1"))
    r2 = next_range(old_conn, token)
    finish_range(old_conn, token, r2, batch=400)          # done after the snapshot: must be redone
    r3 = next_range(old_conn, token)
    advance(old_conn, token, r3, r3["start_article"], r3["start_article"] + 100)

    # still alive: nobody may take it
    new = [lease(conn, "history", "new") for _ in range(3)]
    assert old["group_name"] not in [n["group_name"] for n in new if n]
    for n in new:
        if n:
            conn.execute("SELECT voyager.release_group(%s)", (n["token"],))

    age_heartbeat(conn, old["group_name"])
    taken = None
    for _ in range(4):
        got = lease(conn, "history", "new")
        if got and got["group_name"] == old["group_name"]:
            taken = got
            break
    assert taken and taken["taken_over"] and taken["snapshot_article"] == r1["end_article"] + 1
    rows = {r[0]: r for r in ranges(conn, old["group_name"])}
    assert rows[r1["start_article"]][3] == "done"
    assert rows[r2["start_article"]][2:4] == (r2["start_article"], "planned")
    assert rows[r3["start_article"]][2:4] == (r3["start_article"], "planned")
    assert next_range(conn, taken["token"])["range_id"] == r2["range_id"]

    # the old holder wakes up: every call with its token is refused
    for call, args in (("next_range(%s)", (token,)), ("heartbeat(%s)", (token,)),
                       ("release_group(%s)", (token,)),
                       ("store_snapshot(%s, %s, %s)", (token, r3["start_article"] + 100, b"x")),
                       ("advance_range(%s, %s, %s, %s, 0)", (token, r3["range_id"], r3["start_article"] + 100,
                                                              r3["start_article"] + 200))):
        with pytest.raises(psycopg.Error) as e:
            old_conn.execute(f"SELECT * FROM voyager.{call}", args)
        assert sqlstate_of(e) == LEASE_LOST, call
    assert conn.execute("SELECT takeovers FROM voyager.status_leases WHERE group_name = %s",
                        (old["group_name"],)).fetchone()[0] == 1


def test_a_heartbeat_racing_a_takeover(three_groups, connect):
    """The old holder wakes while a claimant is taking its lease over: the
    heartbeat waits for the claimant's transaction, then is refused."""
    conn = three_groups
    old = lease(conn, "history", "old")
    age_heartbeat(conn, old["group_name"])
    claimant = connect(autocommit=False)
    taken = None
    while taken is None or taken["group_name"] != old["group_name"]:
        taken = lease(claimant, "history", "new")      # holds the row lock until commit
    result = {}

    def wake():
        waker = connect()
        try:
            waker.execute("SELECT voyager.heartbeat(%s)", (old["token"],))
            result["ok"] = True
        except psycopg.Error as e:
            result["sqlstate"] = e.sqlstate

    t = threading.Thread(target=wake)
    t.start()
    t.join(0.5)
    assert t.is_alive(), "the heartbeat must wait for the takeover's transaction"
    claimant.commit()
    t.join(10)
    assert result == {"sqlstate": LEASE_LOST}


def test_a_fresh_heartbeat_keeps_the_lease_from_a_claimant(three_groups, connect):
    conn = three_groups
    old = lease(conn, "history", "old")
    age_heartbeat(conn, old["group_name"])
    holder = connect(autocommit=False)
    holder.execute("SELECT voyager.heartbeat(%s)", (old["token"],))   # row locked, not yet committed
    claimant = connect()
    claimant.execute("SET lock_timeout = '2s'")
    got = [lease(claimant, "history", "new") for _ in range(3)]
    assert old["group_name"] not in [g["group_name"] for g in got if g]   # skipped, not waited for
    holder.commit()
    assert lease(claimant, "history", "new") is None


def test_the_tail_lane_takes_only_the_tail_and_history_never_does(conn):
    set_setting(conn, "range_articles", 1000)
    plan(conn, [{"name": "g.t", "low": 1, "high": 1500}])
    plan(conn, [{"name": "g.t", "low": 1, "high": 1800}])
    tail = lease(conn, "tail", "t")
    hist = lease(conn, "history", "h")
    assert tail["group_name"] == hist["group_name"] == "g.t"   # two lanes, two holders
    assert next_range(conn, tail["token"])["start_article"] == 1501
    assert next_range(conn, tail["token"])["start_article"] == 1501
    got = []
    while (rng := next_range(conn, hist["token"])) is not None:
        got.append(rng["start_article"])
        finish_range(conn, hist["token"], rng)
    assert got == [1, 1001]


def test_priority_bounds_and_capture_only(conn):
    set_setting(conn, "range_articles", 100)
    plan(conn, [{"name": "g.a", "low": 1, "high": 300}, {"name": "g.b", "low": 1, "high": 300}])
    conn.execute("""UPDATE voyager.ranges SET capture = true, priority = 0
                     WHERE start_article = 101 AND group_id = (SELECT id FROM voyager.groups WHERE name = 'g.b')""")
    held = lease(conn, "history", "c", capture_only=True)
    assert held["group_name"] == "g.b"
    assert next_range(conn, held["token"])["start_article"] == 101
    assert lease(conn, "history", "c", capture_only=True) is None
    assert lease(conn, "history", "p", min_priority=0, max_priority=0) is None   # g.b is held
    assert lease(conn, "history", "p", min_priority=0, max_priority=50) is None
    assert lease(conn, "history", "p")["group_name"] == "g.a"


def test_bad_lease_arguments_get_clear_errors(conn):
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="lane must be history or tail"):
        conn.execute("SELECT * FROM voyager.lease_group('sideways')")
    with pytest.raises(psycopg.Error) as e:
        conn.execute("SELECT * FROM voyager.next_range('00000000-0000-0000-0000-000000000000')")
    assert sqlstate_of(e) == LEASE_LOST


def test_leases_through_pgbouncer(pg_server, db_dsn):
    """Workers reach the database through pgbouncer in transaction pooling."""
    admin, cluster = pg_server
    if cluster is None:
        pytest.skip("pgbouncer is started with the project's own cluster")
    from psycopg.conninfo import conninfo_to_dict
    from tests.pgserver import free_port
    from voyager.cluster import Bouncer

    dbname = conninfo_to_dict(db_dsn)["dbname"]
    workdir = cluster.datadir.parent / f"bouncer-{dbname}"   # a folder the postgres user reaches
    bouncer = Bouncer(workdir=workdir, port=free_port(), pg_host=cluster.host, pg_port=cluster.port,
                      database=dbname, user=cluster.user)
    bouncer.start()
    try:
        dsn = f"postgresql://{cluster.user}@127.0.0.1:{bouncer.port}/{dbname}"
        with psycopg.connect(dsn, autocommit=True, prepare_threshold=None) as c:
            plan(c, [{"name": "g.pooled", "low": 1, "high": 10}])
            held = lease(c, "history", "pooled")
            assert held["group_name"] == "g.pooled"
            assert next_range(c, held["token"])["end_article"] == 10
            assert c.execute("SHOW port").fetchone()[0] == str(cluster.port)
    finally:
        bouncer.stop()


# -- takeover of a lane with nothing planned; the tail's hold; the seam ---------------------------

@pytest.fixture
def one_group(conn):
    set_setting(conn, "range_articles", 1000)
    plan(conn, [{"name": "g.one", "low": 1, "high": 3000}])
    return conn


def test_a_holder_killed_after_its_last_batch_is_taken_over(one_group, connect):
    """Every range done, the lease end (provisional writes, snapshot, release)
    never came: nothing is planned or leased, yet the silent lease is work."""
    conn = one_group
    old_conn = connect()
    old = lease(old_conn, "history", "old")
    token = old["token"]
    r1 = next_range(old_conn, token)
    finish_range(old_conn, token, r1)
    r2 = next_range(old_conn, token)
    advance(old_conn, token, r2, r2["start_article"], r2["start_article"] + 400, 400)
    old_conn.execute("SELECT voyager.store_snapshot(%s, %s, %s)", (token, r2["start_article"] + 400, b"w"))
    finish_range(old_conn, token, {**r2, "next_article": r2["start_article"] + 400})
    r3 = next_range(old_conn, token)
    finish_range(old_conn, token, r3)
    assert next_range(old_conn, token) is None          # ... and the holder dies here
    assert all(r[3] == "done" for r in ranges(conn, "g.one"))

    assert lease(conn, "history", "new") is None         # alive: nothing to take
    age_heartbeat(conn, "g.one")
    taken = lease(conn, "history", "new")
    assert taken and taken["group_name"] == "g.one" and taken["taken_over"]
    assert taken["snapshot_article"] == r2["start_article"] + 400
    rows = ranges(conn, "g.one")
    # the ranges since the snapshot are planned again, from its article
    assert [(r[2], r[3]) for r in rows] == [(r1["end_article"] + 1, "done"),
                                           (r2["start_article"] + 400, "planned"),
                                           (r3["start_article"], "planned")]
    assert next_range(conn, taken["token"])["next_article"] == r2["start_article"] + 400
    with pytest.raises(psycopg.Error) as e:
        old_conn.execute("SELECT voyager.heartbeat(%s)", (token,))
    assert sqlstate_of(e) == LEASE_LOST


def test_a_silent_holder_with_nothing_to_redo_is_taken_over_all_the_same(one_group):
    """A holder that wrote its lease end and snapshot and kept the group (the
    tail's hold) and died: taken over, nothing planned again."""
    conn = one_group
    held = lease(conn, "history", "old")
    while (rng := next_range(conn, held["token"])) is not None:
        finish_range(conn, held["token"], rng)
    conn.execute("SELECT voyager.store_snapshot(%s, %s, %s)", (held["token"], 3001, b"end"))
    age_heartbeat(conn, "g.one")
    taken = lease(conn, "history", "new")
    assert taken["taken_over"] and taken["snapshot_article"] == 3001
    assert all(r[3] == "done" for r in ranges(conn, "g.one"))
    assert next_range(conn, taken["token"]) is None
    conn.execute("SELECT voyager.release_group(%s)", (taken["token"],))
    assert lease(conn, "history", "new") is None         # released: no work, nothing to take


def test_lease_waiting_tells_a_tail_holder_another_group_waits(conn):
    set_setting(conn, "range_articles", 1000)
    rows = [{"name": "g.a", "low": 1, "high": 500}, {"name": "g.b", "low": 1, "high": 500}]
    plan(conn, rows)
    plan(conn, [{**r, "high": 600} for r in rows])        # a tail range each

    def waiting(token):
        return conn.execute("SELECT voyager.lease_waiting(%s)", (token,)).fetchone()[0]

    a = lease(conn, "tail", "a")
    assert waiting(a["token"])                            # the other group's tail is free
    b = lease(conn, "tail", "b")
    assert {a["group_name"], b["group_name"]} == {"g.a", "g.b"}
    assert not waiting(a["token"])                        # held by a live holder
    age_heartbeat(conn, b["group_name"], "tail")
    assert waiting(a["token"])                            # silent: waiting for a takeover
    conn.execute("SELECT voyager.heartbeat(%s)", (b["token"],))
    finish_range(conn, b["token"], next_range(conn, b["token"]))
    conn.execute("SELECT voyager.release_group(%s, %s, %s)", (b["token"], b"w", 601))
    assert not waiting(a["token"])                        # free, but nothing to do


@pytest.fixture
def seam(conn):
    """g.s: history 1..1500 planned first, then a tail range 1501..1800."""
    set_setting(conn, "range_articles", 1000)
    plan(conn, [{"name": "g.s", "low": 1, "high": 1500}])
    plan(conn, [{"name": "g.s", "low": 1, "high": 1800}])
    return conn


def history_to_the_seam(conn, node="h"):
    held = lease(conn, "history", node)
    while (rng := next_range(conn, held["token"])) is not None:
        finish_range(conn, held["token"], rng)
    return held


def test_the_tail_continues_a_caught_up_history_window_at_the_seam(seam):
    conn = seam
    hist = history_to_the_seam(conn)
    assert conn.execute("SELECT voyager.lane_end(%s)", (hist["token"],)).fetchone()[0] == "provisional"
    # writing its lease end: the tail waits for the window it is to continue
    assert lease(conn, "tail", "t") is None
    conn.execute("SELECT voyager.release_group(%s, %s, %s)", (hist["token"], b"history-window", 1501))
    tail = lease(conn, "tail", "t")
    assert tail["group_name"] == "g.s" and tail["snapshot_article"] == 1501
    assert conn.execute("SELECT article, data FROM voyager.snapshot(%s)", (tail["token"],)).fetchone() == \
        (1501, b"history-window")
    assert next_range(conn, tail["token"])["next_article"] == 1501
    assert conn.execute("SELECT voyager.lane_end(%s)", (tail["token"],)).fetchone()[0] == "provisional"


def test_a_tail_that_started_first_has_its_own_window_and_the_history_ends_at_the_seam(seam):
    conn = seam
    tail = lease(conn, "tail", "t")                         # the history is still to do: tail first
    assert tail["snapshot_article"] is None
    finish_range(conn, tail["token"], next_range(conn, tail["token"]))
    conn.execute("SELECT voyager.release_group(%s, %s, %s)", (tail["token"], b"tail-window", 1801))
    hist = history_to_the_seam(conn)
    assert conn.execute("SELECT voyager.lane_end(%s)", (hist["token"],)).fetchone()[0] == "final"
    conn.execute("SELECT voyager.release_group(%s, %s, %s)", (hist["token"], b"history-window", 1501))
    plan(conn, [{"name": "g.s", "low": 1, "high": 1900}])
    again = lease(conn, "tail", "t")
    assert again["snapshot_article"] == 1801               # its own window, not the history's
    assert conn.execute("SELECT data FROM voyager.snapshot(%s)", (again["token"],)).fetchone()[0] == b"tail-window"


def test_a_tail_claimant_in_the_middle_of_its_lease_counts_as_started(seam, connect):
    conn = seam
    hist = history_to_the_seam(conn)
    claimant = connect(autocommit=False)
    claimant.execute("SELECT 1 FROM voyager.group_leases WHERE lane = 'tail' FOR UPDATE")
    assert conn.execute("SELECT voyager.lane_end(%s)", (hist["token"],)).fetchone()[0] == "final"
    claimant.rollback()
    assert conn.execute("SELECT voyager.lane_end(%s)", (hist["token"],)).fetchone()[0] == "provisional"


def test_history_left_outside_the_bounds_is_not_the_seam(seam):
    conn = seam
    conn.execute("""UPDATE voyager.ranges SET priority = 50 WHERE start_article = 1001""")
    held = lease(conn, "history", "h", min_priority=100, max_priority=100)
    finish_range(conn, held["token"], next_range(conn, held["token"]))
    assert next_range(conn, held["token"]) is None
    tail = lease(conn, "tail", "t")                          # not caught up: the tail starts its own window
    assert tail["snapshot_article"] is None
    assert conn.execute("SELECT voyager.lane_end(%s)", (held["token"],)).fetchone()[0] == "provisional"


def idle(conn, lane: str, **bounds) -> bool:
    return conn.execute("SELECT voyager.lane_idle(%s, %s, %s, %s)",
                        (lane, bounds.get("min_priority"), bounds.get("max_priority"),
                         bounds.get("capture_only"))).fetchone()[0]


def test_a_lane_is_idle_when_lease_group_has_nothing_left_and_nothing_is_held(conn):
    """lane_idle asks within the band lease_group leases in: planned ranges in
    it, ranges leased to the lane, leases of the lane held."""
    set_setting(conn, "range_articles", 100)
    plan(conn, [{"name": "g.a", "low": 1, "high": 200}])
    assert not idle(conn, "history") and idle(conn, "tail")
    assert idle(conn, "history", capture_only=True), "no capture range: nothing a capture-only claimant takes"
    held = lease(conn, "history", "h")
    while (rng := next_range(conn, held["token"])) is not None:
        assert not idle(conn, "history")
        finish_range(conn, held["token"], rng)
    assert not idle(conn, "history"), "a lease of the lane is held: its lease end may still come"
    conn.execute("SELECT voyager.release_group(%s, 'window', 201)", (held["token"],))
    assert idle(conn, "history")
    plan(conn, [{"name": "g.a", "low": 1, "high": 260}])              # the tail planner's range
    assert idle(conn, "history") and not idle(conn, "tail")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="lane must be history or tail"):
        idle(conn, "sideways")


def test_ranges_ahead_are_what_next_range_hands_out_next(conn):
    """ranges_ahead: the lease's planned ranges after its cursor, in its band
    (capture-only included), in article order; nothing leased by asking."""
    set_setting(conn, "range_articles", 100)
    plan(conn, [{"name": "g.a", "low": 1, "high": 600}])
    conn.execute("UPDATE voyager.ranges SET capture = true WHERE start_article IN (1, 201, 301, 501)")
    held = lease(conn, "history", "c", capture_only=True)
    rng = next_range(conn, held["token"])
    ahead = conn.execute("SELECT range_id, start_article, end_article, next_article "
                         "FROM voyager.ranges_ahead(%s, 2)", (held["token"],)).fetchall()
    assert rng["start_article"] == 1 and [a[1] for a in ahead] == [201, 301]
    assert [r[3] for r in ranges(conn, "g.a") if r[0] > 1] == ["planned"] * 5
    finish_range(conn, held["token"], rng)
    assert next_range(conn, held["token"])["range_id"] == ahead[0][0]
    assert next_range(conn, held["token"])["range_id"] == ahead[0][0]       # the cursor again, unfinished
    conn.execute("SELECT voyager.release_group(%s)", (held["token"],))
    assert not conn.execute("SELECT * FROM voyager.ranges_ahead(%s)", (held["token"],)).fetchall()


def test_a_partial_replay_sets_the_ranges_outside_its_articles_aside(conn):
    set_setting(conn, "range_articles", 100)
    plan(conn, [{"name": "g.a", "low": 1, "high": 500}])
    assert conn.execute("SELECT voyager.set_aside_ranges(150, 320)").fetchone()[0] == 2
    assert [(r[0], r[3]) for r in ranges(conn, "g.a")] == \
        [(1, "ancient"), (101, "planned"), (201, "planned"), (301, "planned"), (401, "ancient")]


def test_the_most_urgent_range_decides_between_groups(three_groups):
    """A raised priority or a capture window goes first, whatever the
    alternation's turn; within one priority the alternation is as before."""
    conn = three_groups
    conn.execute("""UPDATE voyager.ranges SET priority = 5 WHERE start_article = 2001
                     AND group_id = (SELECT id FROM voyager.groups WHERE name = 'g.mid')""")
    conn.execute("""UPDATE voyager.ranges SET priority = 2, capture = true WHERE start_article = 1
                     AND group_id = (SELECT id FROM voyager.groups WHERE name = 'g.small')""")
    for turn in (2, 3):         # a biggest-backlog turn and a longest-unheld turn alike
        conn.execute("SELECT setval('voyager.group_lease_turns', %s)", (turn,))
        first = lease(conn, "history", "n1")
        assert first["group_name"] == "g.small"     # the capture window at 2
        second = lease(conn, "history", "n2")
        assert second["group_name"] == "g.mid"      # the raised range at 5
        third = lease(conn, "history", "n3")
        assert third["group_name"] == "g.big"
        for h in (first, second, third):
            conn.execute("SELECT voyager.release_group(%s)", (h["token"],))
    # the raised range done, g.mid is back at the history's priority: the alternation decides
    conn.execute("UPDATE voyager.ranges SET priority = 100, capture = false")
    conn.execute("SELECT setval('voyager.group_lease_turns', 2)")   # next turn 3: biggest
    assert lease(conn, "history", "n4")["group_name"] == "g.big"


def fail(conn, token, range_id, error="refused"):
    return conn.execute("SELECT voyager.fail_range(%s, %s, %s)", (token, range_id, error)).fetchone()[0]


def test_a_failed_range_stops_its_lane_until_retried(three_groups):
    """fail_range: the range failed with its error, the lane given back with its
    snapshot, never leased while the range is failed (the carried window must not
    skip it), not work left for lane_idle; retry_ranges frees it."""
    conn = three_groups
    conn.execute("SELECT setval('voyager.group_lease_turns', 2)")   # next turn 3: biggest
    held = lease(conn, "history", "n1")
    assert held["group_name"] == "g.big"
    rng = next_range(conn, held["token"])
    finish_range(conn, held["token"], rng)
    conn.execute("SELECT voyager.store_snapshot(%s, 1001, 'window')", (held["token"],))
    rng = next_range(conn, held["token"])
    advance(conn, held["token"], rng, 1001, 1501, 500)
    assert fail(conn, held["token"], rng["range_id"], "store_batch: invalid byte sequence") is True
    with pytest.raises(psycopg.Error) as e:                     # the lease went back
        next_range(conn, held["token"])
    assert sqlstate_of(e) == LEASE_LOST
    # the range failed, its resume point back at the snapshot; the lane is free
    assert ranges(conn, "g.big")[:3] == [(1, 1000, 1001, "done", 100, "history"),
                                          (1001, 2000, 1001, "failed", 100, "history"),
                                          (2001, 3000, 2001, "planned", 100, None)]
    assert conn.execute("SELECT token FROM voyager.group_leases gl JOIN voyager.groups g ON g.id = gl.group_id "
                        "WHERE g.name = 'g.big' AND gl.lane = 'history'").fetchone()[0] is None
    failed = conn.execute("SELECT group_name, lane::text, start_article, error FROM voyager.status_failed").fetchall()
    assert failed == [("g.big", "history", 1001, "store_batch: invalid byte sequence")]
    bands = conn.execute("SELECT sum(failed) FROM voyager.status_bands").fetchone()[0]
    assert bands == 1
    # the other groups are leased, g.big never; the tail lane is not stopped by it
    names = {lease(conn, "history", f"m{i}")["group_name"] for i in range(2)}
    assert names == {"g.mid", "g.small"}
    assert lease(conn, "history", "m3") is None
    conn.execute("UPDATE voyager.group_leases SET token = NULL, holder = NULL")
    conn.execute("UPDATE voyager.ranges SET status = 'done' FROM voyager.groups g "
                 "WHERE g.id = group_id AND g.name <> 'g.big' AND status = 'planned'")
    assert idle(conn, "history"), "g.big's planned ranges wait behind the failed one: not work left"
    # retry: planned again, the lane leasable, the next holder starts at the snapshot
    assert conn.execute("SELECT voyager.retry_ranges('g.big')").fetchone()[0] == 1
    assert not idle(conn, "history")
    held = lease(conn, "history", "n2")
    assert held["group_name"] == "g.big" and held["snapshot_article"] == 1001
    rng = next_range(conn, held["token"])
    assert (rng["start_article"], rng["next_article"]) == (1001, 1001)
    assert conn.execute("SELECT error FROM voyager.ranges WHERE id = %s", (rng["range_id"],)).fetchone()[0] is None
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="no group named"):
        conn.execute("SELECT voyager.retry_ranges('g.nope')")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="not one the lease"):
        fail(conn, held["token"], 999999)
