"""Rule sets from the database: a lease fixes the rule set its window runs with
(voyager.lease_rules) and the ranges it hands out record that version; a new
rule set applies from the next lease; `voyager rules` shows and adds them, a
rule set the window would not understand refused before any worker sees it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.helpers import finish_range, lease, next_range, plan, set_setting

ROOT = Path(__file__).resolve().parent.parent


def add_rule_set(conn, rules: dict, note: str = "") -> int:
    return conn.execute("SELECT voyager.add_rule_set(%s, %s)", (Jsonb(rules), note)).fetchone()[0]


def lease_rules(conn, token):
    return conn.execute("SELECT rule_version, rules, owners FROM voyager.lease_rules(%s)", (token,)).fetchone()


def range_versions(conn, handed: list[dict]) -> list:
    return [conn.execute("SELECT rule_version FROM voyager.ranges WHERE id = %s", (r["range_id"],)).fetchone()[0]
            for r in handed]


def test_a_range_records_the_rule_set_its_lease_loaded_and_a_new_one_applies_from_the_next_lease(conn):
    set_setting(conn, "range_articles", 1000)
    plan(conn, [{"name": "g.one", "low": 1, "high": 4000}])
    held = lease(conn)
    version, rules, owners = lease_rules(conn, held["token"])
    assert version == 1 and rules["dropped_posters"] == [] and owners == {"g.one": 1}
    first = next_range(conn, held["token"])
    assert first["rule_version"] == 1
    finish_range(conn, held["token"], first)

    # a rule set added while the lease runs: the lease keeps its own
    v2 = add_rule_set(conn, {"dropped_posters": ["spam@example.invalid"]}, "a spammer")
    assert lease_rules(conn, held["token"])[0] == 1
    second = next_range(conn, held["token"])
    assert second["rule_version"] == 1
    finish_range(conn, held["token"], second)
    # given back with its window (a snapshot where it stands): nothing is planned again
    conn.execute("SELECT voyager.release_group(%s, '\\x00', %s)", (held["token"], second["end_article"] + 1))

    # the next lease runs with the new one, whole: the keys not given are the last set's
    again = lease(conn)
    version, rules, _ = lease_rules(conn, again["token"])
    assert version == v2 and rules["dropped_posters"] == ["spam@example.invalid"]
    assert rules["stub_max_bytes"] == 100_000_000 and rules["garbage"] == []
    third = next_range(conn, again["token"])
    assert third["rule_version"] == v2
    assert range_versions(conn, [first, second, third]) == [1, 1, v2]


def test_a_lease_that_loaded_no_rule_set_records_none(conn):
    set_setting(conn, "range_articles", 1000)
    plan(conn, [{"name": "g.one", "low": 1, "high": 2000}])
    held = lease(conn)
    lease_rules(conn, held["token"])
    finish_range(conn, held["token"], next_range(conn, held["token"]))
    conn.execute("SELECT voyager.release_group(%s)", (held["token"],))
    # a new lease: the last lease's version is not this one's
    again = lease(conn)
    assert next_range(conn, again["token"])["rule_version"] is None


def test_the_owner_list_holds_active_groups_only(conn):
    plan(conn, [{"name": "g.a", "low": 1, "high": 100, "priority": 1},
                {"name": "g.b", "low": 1, "high": 100, "priority": 2},
                {"name": "g.c", "low": 1, "high": 100, "priority": 3}])
    conn.execute("SELECT voyager.set_group_active('g.a', false)")
    held = lease(conn)
    assert lease_rules(conn, held["token"])[2] == {"g.b": 2, "g.c": 3}


@pytest.mark.parametrize("rules, message", [
    ({"dropped_poster": ["x"]}, 'unknown key "dropped_poster"'),
    ({"dropped_posters": "x"}, '"dropped_posters" must be a JSON array, not string'),
    ({"dropped_posters": [1]}, '"dropped_posters" is a list of strings'),
    ({"garbage": [{"tool": "nyuu", "grup": "*"}]}, 'a "garbage" signature is'),
    ({"garbage": ["nyuu"]}, 'a "garbage" signature is'),
    ({"stub_max_bytes": "100"}, '"stub_max_bytes" must be a JSON number, not string'),
    ({"stub_max_bytes": -1}, '"stub_max_bytes" must be a whole number >= 0'),
    ({"sample_percent": 101}, '"sample_percent" must be a whole number >= 0 and <= 100'),
    ({"sample_percent": 1.5}, '"sample_percent" must be a whole number'),
])
def test_a_rule_set_the_window_would_not_understand_is_refused_with_its_reason(conn, rules, message):
    with pytest.raises(psycopg.errors.InvalidParameterValue) as e:
        add_rule_set(conn, rules)
    assert message in str(e.value)
    assert conn.execute("SELECT max(version) FROM voyager.rule_sets").fetchone()[0] == 1


def test_the_rule_set_keys_are_the_windows(conn):
    from ext.window import DEFAULT_RULES

    v = add_rule_set(conn, {"garbage": [{"tool": "nyuu", "group": "*"}], "sample_percent": 5})
    rules = conn.execute("SELECT (voyager.rule_set(%s)).rules", (v,)).fetchone()[0]
    assert set(rules) == set(DEFAULT_RULES)
    assert rules["garbage"] == [{"tool": "nyuu", "group": "*"}] and rules["sample_percent"] == 5


def rules_cli(db_dsn, *args, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOYAGER_")}
    env["VOYAGER_DSN"] = db_dsn
    return subprocess.run([sys.executable, "-m", "voyager.cli", "rules", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, input=stdin)


def test_voyager_rules_adds_lists_and_shows(conn, db_dsn, tmp_path):
    f = tmp_path / "rules.json"
    f.write_text(json.dumps({"dropped_posters": ["spam@example.invalid"]}))
    out = rules_cli(db_dsn, "add", str(f), "--note", "a spammer")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "2"
    shown = json.loads(rules_cli(db_dsn, "show").stdout)
    assert shown["dropped_posters"] == ["spam@example.invalid"]
    assert json.loads(rules_cli(db_dsn, "show", "1").stdout)["dropped_posters"] == []
    listed = [json.loads(x) for x in rules_cli(db_dsn, "list").stdout.splitlines()]
    assert [(x["version"], x["note"], x["ranges"]) for x in listed] == [
        (1, "default: the window's built-in rules", 0), (2, "a spammer", 0)]

    f.write_text(json.dumps({"dropped_posters": "spam@example.invalid"}))
    bad = rules_cli(db_dsn, "add", str(f))
    assert bad.returncode == 1 and '"dropped_posters" must be a JSON array' in bad.stderr
    f.write_text("{not json")
    bad = rules_cli(db_dsn, "add", str(f))
    assert bad.returncode == 1 and "not JSON" in bad.stderr
    missing = rules_cli(db_dsn, "show", "9")
    assert missing.returncode == 1 and "no rule set 9" in missing.stderr
    assert conn.execute("SELECT max(version) FROM voyager.rule_sets").fetchone()[0] == 2


def test_voyager_rules_retract_adds_the_set_without_the_entry(conn, db_dsn):
    add_rule_set(conn, {"dropped_posters": ["a@example.invalid", "b@example.invalid"],
                        "garbage": [{"tool": "nyuu", "group": "*"}]})
    out = rules_cli(db_dsn, "retract", "dropped-poster", "a@example.invalid")
    assert out.returncode == 0, out.stderr
    assert out.stdout == ""                    # no range counted its drops: nothing to recover
    rules = json.loads(rules_cli(db_dsn, "show").stdout)
    assert rules["dropped_posters"] == ["b@example.invalid"] and rules["garbage"] == [{"tool": "nyuu", "group": "*"}]
    assert rules_cli(db_dsn, "retract", "garbage", "nyuu").returncode == 0
    assert json.loads(rules_cli(db_dsn, "show").stdout)["garbage"] == []
    assert conn.execute("SELECT max(version) FROM voyager.rule_sets").fetchone()[0] == 4
    # retracted again: the set is as it should be, nothing added
    assert rules_cli(db_dsn, "retract", "garbage", "nyuu").returncode == 0
    assert conn.execute("SELECT max(version) FROM voyager.rule_sets").fetchone()[0] == 4
    assert rules_cli(db_dsn, "retract", "stub-archive", "AX").returncode == 2
