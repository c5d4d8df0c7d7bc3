"""`voyager judge run`: the judge job (voyager.judge_dirty) until no dirty mark
is left; `voyager judge daily`: the daily pass's runs (voyager.judge_daily)
until it has judged the whole catalog; both print their totals as JSON.

`voyager judge --dry-run [--rules FILE.json | --version N] [--samples 5]`:
what a rule set's judge section would hide over the whole catalog, counted
per rule with sample names, against what is hidden now; it writes nothing
(voyager.judge_verdicts, in batches by id). FILE.json is a rule set object
(`{"judge": {...}}`, as `voyager rules add` takes) or a judge section alone;
the keys not given are the current section's."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import psycopg
from psycopg.types.json import Jsonb

VERDICTS = ("dead", "fake", "repeated", "locked", "unusable")
BATCH = 50_000


def _sum(into: dict, one: dict) -> dict:
    for k, v in one.items():
        if isinstance(v, int) and not isinstance(v, bool):
            into[k] = into.get(k, 0) + v
        else:
            into[k] = v
    return into


def _until(conn: psycopg.Connection, call: str, done, last: tuple = ()) -> dict:
    """One judge function called again until done(its last answer): the answers
    summed, but for the keys in `last` (a backlog), which keep the last one's."""
    out: dict = {"runs": 0}
    while True:
        one = conn.execute(f"SELECT voyager.{call}()").fetchone()[0]
        out["runs"] += 1
        _sum(out, {k: v for k, v in one.items() if k not in last})
        out.update({k: one[k] for k in last})
        if done(one):
            return out


def run(conn: psycopg.Connection) -> dict:
    """judge_dirty until the queue is empty (or what is left is another run's, locked)."""
    return _until(conn, "judge_dirty", lambda one: one["left"] == 0 or one["batches"] == 0,
                  last=("left",))


def daily(conn: psycopg.Connection) -> dict:
    """judge_daily's runs until its pass is done."""
    return _until(conn, "judge_daily", lambda one: one["done"])


def judge_section(conn: psycopg.Connection, rules_file: str | None, version: int | None) -> tuple[int | None, dict]:
    current = conn.execute("""SELECT rs.version, coalesce(rs.rules -> 'judge',
                                     (SELECT o.rules -> 'judge' FROM voyager.rule_sets o WHERE o.version = 1))
                                FROM voyager.rule_set(%s) rs""", (version,)).fetchone()
    if current is None or current[0] is None:
        raise ValueError(f"no rule set {version}")
    if rules_file is None:
        return current[0], current[1]
    try:
        given = json.loads(Path(rules_file).read_text())
    except json.JSONDecodeError as e:
        raise ValueError(f"{rules_file}: not JSON: {e}") from None
    if not isinstance(given, dict):
        raise ValueError(f"{rules_file}: a rule set is a JSON object")
    section = given["judge"] if "judge" in given else given if set(given) <= set(current[1]) else None
    if not isinstance(section, dict):
        raise ValueError(f"{rules_file}: no judge section (a rule set with \"judge\", or the section alone)")
    return None, {**current[1], **section}


def dry_run(conn: psycopg.Connection, rules: dict, version: int | None, samples: int) -> dict:
    would = {v: 0 for v in VERDICTS}
    picked: dict[str, list] = {v: [] for v in VERDICTS}
    releases = new = show_again = 0
    at = 0
    while True:
        ids = [i for (i,) in conn.execute(
            "SELECT id FROM voyager.releases WHERE id > %s AND merged_into IS NULL ORDER BY id LIMIT %s",
            (at, BATCH))]
        if not ids:
            break
        at = ids[-1]
        releases += len(ids)
        rows = conn.execute(
            """SELECT v.release_id, v.verdict, v.detail, r.name, j.verdict
                 FROM voyager.judge_verdicts(%s, %s, now()) v
                 JOIN voyager.releases r ON r.id = v.release_id
                 LEFT JOIN voyager.release_judgements j ON j.release_id = v.release_id
                ORDER BY v.release_id""", (ids, Jsonb(rules))).fetchall()
        for rid, verdict, detail, name, now in rows:
            would[verdict] += 1
            new += now is None
            if len(picked[verdict]) < samples:
                picked[verdict].append({"id": rid, "name": name, "detail": detail})
        matched = [r[0] for r in rows]
        show_again += conn.execute(
            """SELECT count(*) FROM voyager.release_judgements j
                WHERE j.release_id = ANY (%s) AND j.verdict = ANY (%s) AND NOT j.release_id = ANY (%s)""",
            (ids, list(VERDICTS), matched)).fetchone()[0]
    hidden_now = dict(conn.execute(
        """SELECT verdict, count(*) FROM voyager.release_judgements WHERE verdict = ANY (%s)
            GROUP BY verdict ORDER BY verdict""", (list(VERDICTS),)).fetchall())
    return {"rule_version": version, "releases": releases,
            "would_hide": {v: n for v, n in would.items() if n},
            "samples": {v: s for v, s in picked.items() if s},
            "hidden_now": hidden_now, "would_hide_new": new, "would_show_again": show_again,
            "judge": rules}


def main(argv: list[str], dsn: str) -> int:
    p = argparse.ArgumentParser(prog="voyager judge", description="The junk judge")
    p.add_argument("action", nargs="?", choices=["run", "daily"],
                   help="run: the dirty releases until none is left; daily: one whole daily pass")
    p.add_argument("--dry-run", action="store_true",
                   help="what a rule set would hide over the catalog, per rule with samples, against now; no writes")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--rules", metavar="FILE.json", help="a rule set (or a judge section) to try")
    g.add_argument("--version", type=int, help="a stored rule set to try (default: the current one)")
    p.add_argument("--samples", type=int, default=5, help="sample releases per rule")
    args = p.parse_args(argv)
    if args.dry_run == (args.action is not None):
        p.error("give run, daily or --dry-run")
    with psycopg.connect(dsn, autocommit=True) as conn:
        if args.action == "run":
            out = run(conn)
        elif args.action == "daily":
            out = daily(conn)
        else:
            version, rules = judge_section(conn, args.rules, args.version)
            with conn.transaction():
                conn.execute("SET TRANSACTION READ ONLY")
                out = dry_run(conn, rules, version, args.samples)
    print(json.dumps(out, default=str))
    return 0
