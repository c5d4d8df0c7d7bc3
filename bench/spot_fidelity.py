"""`voyager bench spot-fidelity`: the spotter scored by the corpus's spots truth.

A corpus of the phase2 profile (obfuscated uploads among the rest) with N
spots (bench.spots.corpus_dir, generated once under
$VOYAGER_HOME/bench/spots-corpus-phase2-SEED-N) has its upload groups replayed into a
scratch database (voyager_spot_fidelity_scratch), is served by `voyager sim
serve`, and free.pt is read by workers.spotter trusting the simulator's keys,
twice (the second pass must read nothing new), then its spots inspected
(workers.inspector: their NZBs read and matched), the pending releases
they named moved by the namer, and the spots' pass run again now and a day
on (the unmatched standing alone). Prints one JSON line: sim.spot_truth's
score (every spot read, verified or refused as its truth says, forged ones
never trusted, disposes honoured, counts per kind, the disagreements), the
matching to releases (sim.spot_truth.score_matches over spot_links: each
upload's spot linked to the releases holding its articles, or standing
alone, its password on them, the disposed one's taken back), check_catalog
and the search counts, and exits 1 when any of it disagrees.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import psycopg

from bench.phase2_fidelity import run_jobs
from bench.probe import serve
from bench.spots import corpus_dir, trust_simulator
from voyager.config import Config
from voyager.db import fresh_database

UPLOAD_GROUPS = "*,!free.pt,!alt.binaries.ftd"      # the spots' own groups are the spotter's, not the window's


def spot_rows(conn: psycopg.Connection) -> dict[str, dict]:
    """voyager.spots by message-id as sim.spot_truth scores them."""
    return {mid: {"verified": verified, "trusted": trusted, "disposed": disposed, "title": title,
                  "nzb": list(nzb), "command": command, "target": target, "newznab": newznab}
            for mid, verified, trusted, disposed, title, nzb, command, target, newznab in conn.execute("""
                SELECT message_id, verified, trusted, disposed_at IS NOT NULL, title, nzb,
                       facts->>'command', facts->>'target', newznab
                  FROM voyager.spots""")}


def spot_links(conn: psycopg.Connection) -> dict[str, list[int]]:
    """Spot message-id -> the catalog release ids the spot inspector linked it
    to (voyager.spot_matches; a link to a pending release the namer has not
    moved yet has no release id and counts as unmatched here)."""
    out: dict[str, list[int]] = {}
    for spot, release in conn.execute(
            "SELECT spot_id, release_id FROM voyager.spot_matches WHERE release_id IS NOT NULL"):
        out.setdefault(spot, []).append(release)
    return out


def posted_nzb_articles(corpus: Path) -> set[str]:
    """The message-ids the simulator posted in alt.binaries.ftd."""
    from sim import spotfeed
    out = set()
    with open(corpus / "spots" / "articles.jsonl") as fh:
        for line in fh:
            article = json.loads(line)
            if article["group"] == spotfeed.NZB_GROUP:
                out.add(article["message_id"])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="voyager bench spot-fidelity", description=__doc__.split("\n\n")[0])
    ap.add_argument("--spots", type=int, default=100, help="spots of the generated corpus")
    ap.add_argument("--seed", type=int, default=5)
    a = ap.parse_args(argv)
    cfg = Config.from_env()
    corpus = corpus_dir(cfg.home, a.seed, a.spots, profile="phase2")
    dsn = fresh_database(cfg.dsn, "voyager_spot_fidelity_scratch")
    from sim.spot_truth import score_matches, score_spots
    from voyager.corpus import Corpus
    from workers.nntp import NntpConfig
    from workers.replay import catalog_releases, replay_into_db
    from workers.inspector import inspect_spots
    from workers.namer import Namer
    from workers.spotter import read_spots
    t0 = time.monotonic()
    truth = json.loads((corpus / "spots" / "truth.json").read_text())
    uploads = list(Corpus(corpus).truth())
    with psycopg.connect(dsn, autocommit=True) as conn:
        replayed = replay_into_db(conn, corpus, groups=UPLOAD_GROUPS)
        trust_simulator(conn, corpus)
        server, port = serve(corpus)
        try:
            nntp = NntpConfig(host="127.0.0.1", port=port, connections=2)
            first = read_spots(dsn, "bench/spot-fidelity", nntp)
            again = read_spots(dsn, "bench/spot-fidelity", nntp)
            inspected = inspect_spots(dsn, "bench/spot-fidelity", nntp)
            # the pending releases spots named, moved into the catalog by the namer
            jobs = run_jobs(conn, lambda: Namer(dsn, "bench/namer", until_idle=True, corpus=corpus, nntp=nntp).run())
        finally:
            server.terminate()
            server.wait(10)
        settled = conn.execute("SELECT voyager.settle_spots(now())").fetchone()[0]
        # a day on: the spots still unmatched stand alone, releases of their own
        a_day_on = conn.execute("SELECT voyager.settle_spots(now() + interval '25 hours')").fetchone()[0]
        rows = spot_rows(conn)
        score = score_spots(truth, rows, uploads, posted_nzb_articles(corpus))
        alone = {s for (s,) in conn.execute("SELECT spot_id FROM voyager.spot_matches WHERE via = 'alone'")}
        passwords = dict(conn.execute("SELECT release_id, password FROM voyager.release_passwords"))
        matches = score_matches(truth, uploads, catalog_releases(conn), spot_links(conn), alone, passwords)
        sound = [p for p, n in conn.execute("SELECT * FROM voyager.check_catalog()") if n]
        conn.execute("SELECT voyager.fold_search_counts()")
        counts_off = conn.execute("SELECT count(*) FROM voyager.check_search_counts()").fetchone()[0]
    by_newznab: dict[str, int] = {}
    for row in rows.values():
        if row["command"] is None:
            key = str(row["newznab"])
            by_newznab[key] = by_newznab.get(key, 0) + 1
    rereads = again.get("articles", 0)
    ok = (score["all_agree"] and rereads == 0 and not first.get("error") and matches["all_right"]
          and not sound and counts_off == 0)
    print(json.dumps({"bench": "spot-fidelity", "corpus": str(corpus), "seconds": round(time.monotonic() - t0, 1),
                      "headers_replayed": replayed["headers"], "read": first, "read_again": again, "inspected": inspected,
                      "score": score, "spots_by_newznab": by_newznab,
                      "jobs": {k: len(v) for k, v in jobs.items()}, "settled": settled, "a_day_on": a_day_on,
                      "matches": matches, "check_catalog": sound, "search_counts_off": counts_off,
                      "all_agree": ok}), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
