"""`bench api --compare M --rounds K`: a round's ratio pairs the two catalogs'
runs of that round, so a host that slows down through the sitting moves
both halves of each pair alike and not the ratio; the figures are the
rounds' medians, and a failed request in any round counts. Beside each run,
the host's speed, measured before and after."""
from __future__ import annotations

from bench.api import medians, paired_ratios


def _fig(web: float, pg: float, p95: float, errors: int = 0) -> dict:
    return {"requests": 100, "errors": errors, "web_cpu_ms": web, "postgres_cpu_ms": pg, "p95_ms": p95,
            "note": "text is not a figure"}


def test_a_drifting_host_leaves_the_paired_ratios_alone():
    # the host a fifth slower each round; the larger catalog 10% dearer in the database throughout
    slow = [1.0, 1.2, 1.44]
    small = [_fig(1.0 * s, 2.0 * s, 40 * s) for s in slow]
    large = [_fig(1.0 * s, 2.2 * s, 44 * s) for s in slow]
    by_round = paired_ratios("search_word", small, large)
    assert [r["postgres_cpu_ms"] for r in by_round] == [1.1, 1.1, 1.1]
    assert medians(by_round)["postgres_cpu_ms"] == 1.1
    assert medians(by_round)["web_cpu_ms"] == 1.0
    # what two sittings would have said, the smaller catalog's first round against the larger's last
    assert round(large[2]["postgres_cpu_ms"] / small[0]["postgres_cpu_ms"], 2) == 1.58


def test_the_rounds_figures_are_medians_and_every_failure_counts():
    got = medians([_fig(1.0, 3.0, 50, errors=0), _fig(1.4, 2.0, 70, errors=2), _fig(1.2, 2.5, 60, errors=1)])
    assert got == {"requests": 300, "errors": 3, "web_cpu_ms": 1.2, "postgres_cpu_ms": 2.5, "p95_ms": 60}


def test_the_hosts_speed_is_measured_in_both_processes(db_dsn):
    """Beside each bench api run: fixed work's CPU in this process and in a
    backend, so that two sittings' absolute figures can be set side by side."""
    from bench.cpu import host_speed

    got = host_speed(db_dsn, repeats=1)
    assert set(got) == {"python_ms", "postgres_ms"}
    # two million loop turns and a count of three million rows: tens of milliseconds at least
    assert got["python_ms"] >= 10 and got["postgres_ms"] >= 10, got
