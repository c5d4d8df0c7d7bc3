"""`voyager bench judge-fidelity`: the junk judge scored by the corpus's truth.

A corpus of the junk profile (generated once under
$VOYAGER_HOME/bench/junk-corpus-SEED-LINES) goes through what
phase2-fidelity runs (bench.phase2_fidelity: replay, `voyager sim serve`, the
prober until idle, phase 2's jobs and the namer), then the judge: its dirty
queue (`judge`) until empty, then voyager.judge_releases over every surviving
release as of a day and an hour on, so the unusable rule's day has passed.
Prints one JSON line: sim.junk_truth's score (per rule junk uploads, judged
right, otherwise, missed; the verdicts on real content, bar 0), phase 2's
named-whole share, check_catalog and the search counts off; and the corpus's
own checks: whether each junk upload reached the catalog and its probe facts
show what its rule reads.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import psycopg

from bench.phase2_fidelity import run_jobs
from bench.probe import corpus_dir, replay, serve
from voyager.config import Config
from voyager.corpus import truth_message_ids
from voyager.db import fresh_database

PROGRAM_EXTS = (".exe", ".scr", ".com", ".bat", ".msi", ".cmd", ".pif")


def run_judge(conn: psycopg.Connection) -> dict:
    """The judge's dirty queue until empty, then every surviving release as of
    25 hours on."""
    runs = []
    for _ in range(100):                      # bounded batches: again until the queue is empty
        runs.append(conn.execute("SELECT voyager.run_sql_job('judge')").fetchone()[0])
        if not conn.execute("SELECT EXISTS (SELECT FROM voyager.judge_queue)").fetchone()[0]:
            break
    daily = conn.execute("SELECT voyager.judge_releases(ARRAY(SELECT id FROM voyager.releases "
                         "WHERE merged_into IS NULL), now() + interval '25 hours')").fetchone()[0]
    return {"runs": len(runs), "last": runs[-1] if runs else None, "judge_releases": daily}


def release_facts(conn: psycopg.Connection) -> dict[int, dict]:
    """Per catalog release what the junk rules read: readable, its probed
    articles' status and facts, its file starts' share across releases."""
    out: dict[int, dict] = {}
    for rid, readable in conn.execute("SELECT id, readable FROM voyager.releases"):
        out[rid] = {"readable": readable, "probes": [], "shared": []}
    for rid, kind, status, facts in conn.execute("""
            SELECT pc.release_id, pc.kind, c.status, c.facts
              FROM voyager.probe_candidates pc JOIN voyager.probe_cache c ON c.message_id = pc.message_id
             WHERE pc.release_id IS NOT NULL"""):
        if rid in out:
            out[rid]["probes"].append((kind, status, facts or {}))
    for rid, n in conn.execute("""
            SELECT h.release_id, (SELECT count(DISTINCT o.release_id) FROM voyager.file_hashes o
                                   WHERE o.md5_16k = h.md5_16k AND o.size = h.size)
              FROM voyager.file_hashes h WHERE h.release_id IS NOT NULL"""):
        if rid in out:
            out[rid]["shared"].append(n)
    return out


def shows(rule: str, f: dict) -> bool:
    """Whether a release's facts show what the rule needs."""
    probes = f["probes"]
    if rule == "dead":
        return bool(probes) and all(s == 1 for _k, s, _f in probes)
    if rule == "fake":
        entries = [e for _k, s, x in probes if s == 0 for e in ((x.get("archive") or {}).get("entries") or [])]
        if entries and all(str(e.get("name", "")).lower().endswith(PROGRAM_EXTS) for e in entries):
            return True
        return any((x.get("media") or {}).get("executable") for _k, s, x in probes if s == 0)
    if rule == "locked":
        return any((a := x.get("archive") or {}).get("encrypted_headers")
                   or any(e.get("encrypted") for e in a.get("entries") or [])
                   for _k, s, x in probes if s == 0)
    if rule == "repeated":
        return bool(f["shared"]) and min(f["shared"]) >= 20
    if rule == "unusable":
        return f["readable"] is False
    return False


def corpus_checks(truth: list[dict], releases: list[dict], facts: dict[int, dict]) -> dict:
    """Per rule: junk uploads, in the catalog, showing what the rule needs; examples of the others."""
    survivor = {m: rel.get("merged_into") or rel["id"] for rel in releases for m in rel["message_ids"]}
    out: dict[str, dict] = {}
    for rec in truth:
        rule = rec.get("junk")
        if not rule:
            continue
        t = out.setdefault(rule, {"uploads": 0, "in_catalog": 0, "shows_rule": 0, "examples": []})
        t["uploads"] += 1
        held = {survivor[m] for m in truth_message_ids(rec) if m in survivor}
        t["in_catalog"] += bool(held)
        ok = bool(held) and all(shows(rule, facts.get(rid, {"readable": None, "probes": [], "shared": []}))
                                for rid in held)
        t["shows_rule"] += ok
        if not ok and len(t["examples"]) < 10:
            t["examples"].append({"upload": rec["upload"], "name": rec["name"], "shapes": rec.get("shapes"),
                                  "releases": sorted(held)})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="voyager bench judge-fidelity", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--lines", type=int, default=200_000, help="overview lines of the generated corpus")
    ap.add_argument("--threads", type=int, default=4)
    a = ap.parse_args(argv)
    cfg = Config.from_env()
    corpus = corpus_dir(cfg.home, a.seed, a.lines, profile="junk", days=3)
    dsn = fresh_database(cfg.dsn, "voyager_judge_fidelity_scratch")
    from sim.junk_truth import score_junk
    from sim.phase2_truth import score_phase2
    from voyager.corpus import Corpus
    from workers.namer import Namer
    from workers.nntp import NntpConfig
    from workers.prober import Prober
    from workers.replay import catalog_releases
    t0 = time.monotonic()
    truth = list(Corpus(corpus).truth())
    with psycopg.connect(dsn, autocommit=True) as conn:
        replay(conn, corpus)
        server, port = serve(corpus)
        try:
            nntp = NntpConfig(host="127.0.0.1", port=port, connections=a.threads)
            probed = Prober(dsn, "bench/judge", threads=a.threads, until_idle=True, nntp=nntp,
                            poll_seconds=0.2).run()
            jobs = run_jobs(conn, lambda: Namer(dsn, "bench/namer", until_idle=True, corpus=corpus, nntp=nntp).run())
        finally:
            server.terminate()
            server.wait(10)
        releases = catalog_releases(conn)
        checks = corpus_checks(truth, releases, release_facts(conn))
        judge = run_judge(conn)
        judgements = [{"release_id": r, "verdict": v, "hidden": h}
                      for r, v, h in conn.execute("SELECT release_id, verdict, hidden FROM voyager.release_judgements")]
        releases = catalog_releases(conn)
        score = score_junk(truth, releases, judgements)
        named = score_phase2(truth, releases)["named"]
        sound = [p for p, n in conn.execute("SELECT * FROM voyager.check_catalog()") if n]
        counts = conn.execute("SELECT count(*) FROM voyager.check_search_counts()").fetchone()[0]
    print(json.dumps({"bench": "judge-fidelity", "corpus": str(corpus), "seconds": round(time.monotonic() - t0, 1),
                      "probed": {k: probed[k] for k in ("fetched", "stored", "dead", "failed") if k in probed},
                      "jobs": {k: len(v) for k, v in jobs.items()},
                      "judge": judge,
                      "score": score, "corpus_checks": checks,
                      "named_whole_share": round(named["whole"] / named["uploads"], 4) if named["uploads"] else None,
                      "check_catalog": sound, "search_counts_off": counts,
                      "bars": {"junk_right_share": 1.0, "verdicts_on_real_content": 0}},
                     default=str), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
