"""The news account's connection budget: voyager.nntp_claim / nntp_release."""
from __future__ import annotations

import random
import threading

import psycopg
import pytest

from tests.helpers import set_setting


def claim(conn, node, want, limit, role="headers"):
    return conn.execute("SELECT voyager.nntp_claim(%s, %s, %s, %s)", (node, role, want, limit)).fetchone()[0]


def held(conn) -> int:
    return conn.execute("SELECT coalesce(sum(connections), 0) FROM voyager.nntp_claims "
                        "WHERE expires_at >= now()").fetchone()[0]


def test_claims_split_the_limit_and_grow_only_into_what_others_closed(conn):
    set_setting(conn, "nntp_reserve", 0)
    assert claim(conn, "a", 8, 10) == 8
    assert claim(conn, "b", 8, 10) == 2          # only what is left
    assert held(conn) == 10
    assert claim(conn, "a", 8, 10) == 5          # b is starved: a renews down to its fair share
    assert claim(conn, "b", 8, 10) == 5
    assert conn.execute("SELECT voyager.nntp_release('a')").fetchone()[0] == 5
    assert claim(conn, "b", 8, 10) == 8          # grows into what a closed
    assert claim(conn, "b", 0, 10) == 0          # wanting nothing gives it back
    assert held(conn) == 0


def test_a_roles_minimum_is_guaranteed_and_priority_orders_growth(conn):
    set_setting(conn, "nntp_reserve", 0)
    conn.execute("UPDATE voyager.nntp_shares SET min_connections = 2 WHERE role = 'probes'")
    assert claim(conn, "h", 10, 6) == 4          # two are kept for the probes' minimum
    assert claim(conn, "p", 5, 6, role="probes") == 2
    conn.execute("SELECT voyager.nntp_release('p')")
    assert claim(conn, "h", 10, 6) == 4          # still reserved, though nobody probes now
    conn.execute("UPDATE voyager.nntp_shares SET min_connections = 0 WHERE role = 'probes'")
    assert claim(conn, "p", 5, 6, role="probes") == 0   # headers (ahead in priority) still want more
    assert claim(conn, "h", 10, 6) == 6
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="no connection share"):
        claim(conn, "x", 1, 6, role="nope")


def test_a_dead_claim_expires(conn):
    set_setting(conn, "nntp_reserve", 0)
    conn.execute("UPDATE voyager.settings SET value = '1' WHERE name = 'nntp_claim_ttl_seconds'")
    assert claim(conn, "dead", 10, 10) == 10
    assert claim(conn, "live", 10, 10) == 0
    conn.execute("UPDATE voyager.nntp_claims SET expires_at = now() - interval '1 s' WHERE node = 'dead'")
    assert claim(conn, "live", 10, 10) == 10


def test_headers_and_probes_leave_the_reserve_to_the_others(conn):
    """nntp_reserve (5) is for the spotter, the spot inspector, the plain
    connection and reconnects: headers and probes together never take it."""
    assert claim(conn, "h1", 20, 20) == 15
    assert claim(conn, "p1", 5, 20, role="probes") == 0      # the reserve is not theirs
    assert claim(conn, "s1", 1, 20, role="spots") == 1       # it is the spotter's
    assert claim(conn, "l1", 1, 20, role="plain") == 1       # and the plain connection's
    assert claim(conn, "l2", 5, 20, role="plain") == 1       # within the role's maximum
    assert claim(conn, "h2", 10, 20) <= 1                    # a second headers process shares the 15
    assert claim(conn, "h1", 20, 20) <= 15
    bulk = conn.execute("SELECT sum(connections) FROM voyager.nntp_claims "
                        "WHERE role IN ('headers', 'probes')").fetchone()[0]
    assert bulk <= 15 and held(conn) <= 20
    # a small account keeps half of itself
    conn.execute("DELETE FROM voyager.nntp_claims")
    assert claim(conn, "h1", 8, 8) == 4
    assert claim(conn, "h1", 4, 4) == 2
    assert claim(conn, "h1", 1, 1) == 1
    # two processes of a small account share what the reserve leaves: the starved one gets its part
    conn.execute("DELETE FROM voyager.nntp_claims")
    assert claim(conn, "a", 2, 4) == 2
    assert claim(conn, "b", 2, 4) == 0
    assert claim(conn, "a", 2, 4) == 1
    assert claim(conn, "b", 2, 4) == 1
    set_setting(conn, "nntp_reserve", 0)
    conn.execute("DELETE FROM voyager.nntp_claims")
    assert claim(conn, "h1", 8, 8) == 8


def test_concurrent_claimants_never_oversubscribe(db_dsn):
    """Many processes' threads claim, renew and release at once; a watcher
    reading the live sum (and every answer summed per moment) never sees more
    than the limit, nor headers and probes more than the limit less the reserve."""
    limit, threads, rounds = 12, 16, 40
    errors: list[BaseException] = []
    seen_max = [0]
    stop = threading.Event()

    def claimant(i: int) -> None:
        rng = random.Random(i)
        try:
            with psycopg.connect(db_dsn, autocommit=True) as c:
                for _ in range(rounds):
                    role = rng.choice(["headers", "headers", "probes", "spots", "plain"])
                    got = claim(c, f"n{i}", rng.randint(0, 8), limit, role=role)
                    assert 0 <= got <= limit
                    if rng.random() < 0.2:
                        c.execute("SELECT voyager.nntp_release(%s)", (f"n{i}",))
        except BaseException as e:          # pragma: no cover - reported below
            errors.append(e)

    seen_bulk = [0]

    def watcher() -> None:
        with psycopg.connect(db_dsn, autocommit=True) as c:
            while not stop.is_set():
                seen_max[0] = max(seen_max[0], held(c))
                seen_bulk[0] = max(seen_bulk[0], c.execute(
                    "SELECT coalesce(sum(connections), 0) FROM voyager.nntp_claims "
                    "WHERE expires_at >= now() AND role IN ('headers', 'probes')").fetchone()[0])

    w = threading.Thread(target=watcher)
    w.start()
    ts = [threading.Thread(target=claimant, args=(i,)) for i in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    stop.set()
    w.join()
    assert not errors, errors[0]
    assert 0 < seen_max[0] <= limit
    assert 0 < seen_bulk[0] <= limit - 5
    with psycopg.connect(db_dsn, autocommit=True) as c:
        assert held(c) <= limit
        per_role = dict(c.execute("SELECT role, sum(connections) FROM voyager.nntp_claims GROUP BY role").fetchall())
        maxes = dict(c.execute("SELECT role, max_connections FROM voyager.nntp_shares").fetchall())
        assert all(per_role[r] <= maxes[r] for r in per_role)
