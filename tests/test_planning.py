"""Planning in SQL: groups from LIST ACTIVE, the tiling from article 1, the
ancient range, the tail planner, removed groups, refusal of bad rows."""
from __future__ import annotations

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import lease, next_range, plan, ranges, set_setting


def test_new_groups_get_priorities_by_size_then_after_the_known_ones(conn):
    plan(conn, [{"name": "a.small", "low": 1, "high": 10},
                {"name": "a.big", "low": 1, "high": 1000},
                {"name": "a.mid", "low": 1, "high": 100}])
    plan(conn, [{"name": "a.later", "low": 1, "high": 10_000}])
    prios = dict(conn.execute("SELECT name, priority FROM voyager.groups").fetchall())
    assert prios == {"a.big": 1, "a.mid": 2, "a.small": 3, "a.later": 4}


def test_priority_from_the_corpus_is_kept_and_fixed(conn):
    plan(conn, [{"name": "a.x", "low": 1, "high": 10, "priority": 7},
                {"name": "a.y", "low": 1, "high": 99, "priority": 3}])
    # a later listing cannot renumber a known group
    plan(conn, [{"name": "a.x", "low": 1, "high": 20, "priority": 1}])
    prios = dict(conn.execute("SELECT name, priority FROM voyager.groups").fetchall())
    assert prios == {"a.x": 7, "a.y": 3}


def test_a_new_group_is_tiled_from_article_one(conn):
    set_setting(conn, "range_articles", 1000)
    plan(conn, [{"name": "a.b", "low": 2501, "high": 5200}])
    # the grid from article 1: cells 1-1000, 1001-2000, ...; the first planned range ends with its cell
    assert ranges(conn, "a.b") == [
        (1, 2500, 1, "ancient", 100, None),
        (2501, 3000, 2501, "planned", 100, None),
        (3001, 4000, 3001, "planned", 100, None),
        (4001, 5000, 4001, "planned", 100, None),
        (5001, 5200, 5001, "planned", 100, None),
    ]


def test_the_tail_grows_its_open_range_before_adding_rows(conn):
    set_setting(conn, "range_articles", 1000)
    plan(conn, [{"name": "a.t", "low": 1, "high": 1500}])
    for high in (1600, 1700, 2400, 2700):
        plan(conn, [{"name": "a.t", "low": 1, "high": high}])
    assert ranges(conn, "a.t") == [
        (1, 1000, 1, "planned", 100, None),
        (1001, 1500, 1001, "planned", 100, None),
        # 1600 and 1700 grew one open tail range, 2400 filled its cell and opened the
        # next, 2700 grew that one
        (1501, 2000, 1501, "planned", -1, None),
        (2001, 2700, 2001, "planned", -1, None),
    ]


def test_a_tail_range_taken_by_the_tail_lane_is_not_grown(conn):
    set_setting(conn, "range_articles", 1000)
    plan(conn, [{"name": "a.t", "low": 1, "high": 100}])
    plan(conn, [{"name": "a.t", "low": 1, "high": 150}])
    held = lease(conn, "tail")
    rng = next_range(conn, held["token"])
    assert (rng["start_article"], rng["end_article"]) == (101, 150)
    plan(conn, [{"name": "a.t", "low": 1, "high": 180}])
    assert [r[:2] for r in ranges(conn, "a.t")] == [(1, 100), (101, 150), (151, 180)]


def test_a_removed_group_gets_no_ranges_and_no_leases(conn):
    plan(conn, [{"name": "a.gone", "low": 1, "high": 100}])
    conn.execute("SELECT voyager.set_group_active('a.gone', false)")
    plan(conn, [{"name": "a.gone", "low": 1, "high": 5_000_000}])
    assert [r[:2] for r in ranges(conn, "a.gone")] == [(1, 100)]
    assert conn.execute("SELECT high FROM voyager.groups WHERE name = 'a.gone'").fetchone()[0] == 5_000_000
    assert lease(conn, "history") is None
    conn.execute("SELECT voyager.set_group_active('a.gone', true)")
    assert lease(conn, "history")["group_name"] == "a.gone"


def test_an_empty_group_is_planned_without_ranges_to_fetch(conn):
    plan(conn, [{"name": "a.empty", "low": 51, "high": 50}, {"name": "a.zero", "low": 0, "high": 0}])
    assert ranges(conn, "a.empty") == [(1, 50, 1, "ancient", 100, None)]
    assert ranges(conn, "a.zero") == []
    assert lease(conn, "history") is None


def test_the_wildmat_selects_groups(conn):
    rows = plan(conn, [{"name": "alt.binaries.a", "low": 1, "high": 5},
                       {"name": "alt.binaries.a.d", "low": 1, "high": 5},
                       {"name": "comp.lang.c", "low": 1, "high": 5}], "alt.binaries.*,!*.d")
    assert [r[0] for r in rows] == ["alt.binaries.a"]
    assert conn.execute("SELECT array_agg(name) FROM voyager.groups").fetchone()[0] == ["alt.binaries.a"]


@pytest.mark.parametrize("listing,message", [
    ([{"name": "", "low": 1, "high": 10}], "non-empty string"),
    ([{"name": "a b", "low": 1, "high": 10}], "without spaces"),
    ([{"low": 1, "high": 10}], "non-empty string"),
    ([{"name": "a.b", "low": "1", "high": 10}], "low must be a whole number"),
    ([{"name": "a.b", "low": 1.5, "high": 10}], "low must be a whole number"),
    ([{"name": "a.b", "low": 1, "high": 10}, {"name": "a.b", "low": 1, "high": 11}], "more than once"),
    ([{"name": "a.b", "low": 1, "high": 10, "priority": "x"}], "priority must be an integer"),
    ({"name": "a.b"}, "JSON array"),
    (["a.b 1 10 y"], "not an object"),
])
def test_a_malformed_listing_is_refused_and_nothing_changes(conn, listing, message):
    plan(conn, [{"name": "a.ok", "low": 1, "high": 10}])
    before = conn.execute("SELECT count(*), sum(end_article) FROM voyager.ranges").fetchone()
    # the good row before the bad one must not be planned either
    bad = ([{"name": "a.good", "low": 1, "high": 99}] + listing) if isinstance(listing, list) else listing
    with pytest.raises(psycopg.errors.InvalidParameterValue, match=message):
        from psycopg.types.json import Jsonb
        conn.execute("SELECT * FROM voyager.plan_groups(%s)", (Jsonb(bad),))
    assert conn.execute("SELECT count(*), sum(end_article) FROM voyager.ranges").fetchone() == before
    assert conn.execute("SELECT count(*) FROM voyager.groups").fetchone()[0] == 1


@pytest.mark.parametrize("row,reason", [
    ({"name": "a.huge", "low": 1, "high": 2 ** 62}, "absurd watermark"),
    ({"name": "a.huge", "low": 2 ** 64, "high": 2 ** 64 + 5}, "absurd watermark"),
    ({"name": "a.huge", "low": -5, "high": 10}, "negative watermark"),
    ({"name": "a.huge", "low": 100, "high": 10}, "reversed watermarks"),
])
def test_a_row_with_absurd_watermarks_is_refused_alone_with_its_name(conn, row, reason):
    """A provider's bug in one group's row: that row is refused and named (not
    billions of ranges), the other rows are planned; a known group keeps what it had."""
    set_setting(conn, "range_articles", 1000)
    plan(conn, [{"name": "a.huge", "low": 1, "high": 1500}])
    before = ranges(conn, "a.huge")
    rows = plan(conn, [{"name": "a.fine", "low": 1, "high": 2500}, row])
    refused = {r[0]: r[6] for r in rows if r[6] is not None}
    assert list(refused) == ["a.huge"] and reason in refused["a.huge"]
    assert ranges(conn, "a.huge") == before
    assert conn.execute("SELECT high FROM voyager.groups WHERE name = 'a.huge'").fetchone()[0] == 1500
    assert [r[:2] for r in ranges(conn, "a.fine")] == [(1, 1000), (1001, 2000), (2001, 2500)]
    # the bound is a setting
    set_setting(conn, "listing_max_article", 2000)
    rows = plan(conn, [{"name": "a.fine", "low": 1, "high": 2600}])
    assert rows[0][6] is not None and "above listing_max_article 2000" in rows[0][6]


def test_a_priority_number_already_taken_is_refused(conn):
    plan(conn, [{"name": "a.one", "low": 1, "high": 10, "priority": 1}])
    with pytest.raises(psycopg.errors.UniqueViolation, match="already another group"):
        plan(conn, [{"name": "a.two", "low": 1, "high": 10, "priority": 1}])


# -- the tiling, whatever the sequence of LIST ACTIVE updates ----------------

RANGE = 50

listing_steps = st.lists(
    st.tuples(st.integers(0, 400), st.integers(0, 400), st.booleans()),  # low, growth, take the tail
    min_size=1, max_size=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=listing_steps)
def test_tiling_covers_every_article_exactly_once(conn, steps):
    with conn.transaction(force_rollback=True):
        set_setting(conn, "range_articles", RANGE)
        high = 0
        top = 0
        for low, growth, take in steps:
            high += growth
            low = min(low, high + 1)   # a server's low is at most high + 1
            plan(conn, [{"name": "a.prop", "low": low, "high": high}])
            top = max(top, high)
            if take:
                held = lease(conn, "tail")
                if held:
                    next_range(conn, held["token"])
                    conn.execute("SELECT voyager.release_group(%s)", (held["token"],))
        rows = ranges(conn, "a.prop")
        # every article 1..top in exactly one range
        expect = 1
        for start, end, nxt, status, prio, lane in rows:
            assert start == expect
            assert end >= start
            if status != "ancient":   # within one cell of the grid tiled from 1
                assert (start - 1) // RANGE == (end - 1) // RANGE
            expect = end + 1
        assert expect - 1 == top
        assert [r[3] for r in rows].count("ancient") <= 1
