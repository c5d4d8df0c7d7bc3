"""`voyager namer`: named pending releases into the catalog.

A pending release keeps no segments, so the one the ladder named (voyager.
pending_ladder: status 4, named awaiting the move) needs them back before it
can be a release with an NZB. The namer claims such releases, an upload's
pieces together (voyager.claim_named_pending: SKIP LOCKED, a token and a
lease each), reads their article spans again, near ones in one pass (an
upload posted one random-named file at a time is read once) — from the
corpus (VOYAGER_CORPUS) when a stored range holds the span, else by XOVER on one `headers` connection the
account's budget grants (voyager.nntp_claim) — through a window that keeps
only those releases' keys (Window.keep_only: each written as a release with
its chunk, though its files are random-named), and hands what it read to
voyager.store_named, which writes the catalog release under the name the
ladder decided. A span that gives the release no more (expired articles) is
handed over as nothing: the database ends it exhausted.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
import time
from pathlib import Path

import psycopg

from ext.window import DEFAULT_RULES, Window
from voyager.corpus import Corpus
from workers import claimant, claimant_arguments
from workers.nntp import NntpConfig, NntpConnection, fetch_overview
from workers.store import Store

log = logging.getLogger("voyager.namer")

ROLE = "headers"
CRLF = b"\r\n"


def connect(dsn: str) -> psycopg.Connection:
    """Autocommit, no server-side prepared statements (pgbouncer)."""
    return psycopg.connect(dsn, autocommit=True, prepare_threshold=None)


# claimed spans of a group this close are read as one: an upload posted one random-named
# file at a time is many pending releases side by side
READ_GAP = 10_000


def spans_to_read(rows) -> list[tuple]:
    """The claimed releases (claim, key, group, first, last, rules, owners) as the
    spans to read again: (group, first, last, [(claim, key, first, last)], rules,
    owners), a group's overlapping or near spans joined."""
    out: list[list] = []
    for claim, key, group, first, last, rules, owners in sorted(rows, key=lambda r: (r[2], r[3])):
        cur = out[-1] if out else None
        if cur is not None and cur[0] == group and first <= cur[2] + READ_GAP:
            cur[2] = max(cur[2], last)
            cur[3].append((claim, bytes(key), first, last))
        else:
            out.append([group, first, last, [(claim, bytes(key), first, last)], rules, owners])
    return [tuple(s) for s in out]


class Namer:
    def __init__(self, dsn: str, node: str, *, until_idle: bool = False, corpus: str | os.PathLike | None = None,
                 nntp: NntpConfig | None = None, batch: int = 10, poll_seconds: float = 30.0):
        self.dsn, self.node, self.until_idle, self.batch, self.poll = dsn, node, until_idle, batch, poll_seconds
        corpus = corpus if corpus is not None else os.environ.get("VOYAGER_CORPUS")
        self.corpus = Corpus(corpus) if corpus and Path(corpus).is_dir() else None
        self.nntp_config = nntp
        self.nntp: NntpConnection | None = None
        self.stopping = False
        self.stats = {"claimed": 0, "moved": 0, "gone": 0, "stale": 0, "from_corpus": 0, "from_server": 0,
                      "reads": 0, "headers": 0}

    def request_stop(self, *_a) -> None:
        self.stopping = True

    # -- the span's overview lines ---------------------------------------------------------
    def stored(self, group: str, first: int, last: int) -> bool:
        """Whether one of the corpus's complete ranges holds first..last."""
        return self.corpus is not None and any(r.start <= first and last <= r.end for r in self.corpus.ranges(group))

    def overview(self, conn, group: str, first: int, last: int) -> bytes:
        if self.stored(group, first, last):
            self.stats["from_corpus"] += 1
            lines = list(self.corpus.lines(group, first, last))
            return CRLF.join(lines) + CRLF if lines else b""
        self.stats["from_server"] += 1
        if self.nntp is None:
            cfg = self.nntp_config or NntpConfig.from_env()
            granted = conn.execute("SELECT voyager.nntp_claim(%s, %s, 1, %s)",
                                   (self.node, ROLE, cfg.connections)).fetchone()[0]
            if granted < 1:
                raise RuntimeError("no NNTP connection free in the budget")
            self.nntp = NntpConnection(cfg)
        else:        # renewed while it reads: a long run keeps its connection
            conn.execute("SELECT voyager.nntp_claim(%s, %s, 1, %s, 1)",
                         (self.node, ROLE, self.nntp.config.connections))
        return fetch_overview(self.nntp, group, first, last)

    # -- the move -----------------------------------------------------------------------------
    def move(self, conn, store: Store, group: str, first: int, last: int, claimed: list, rules, owners) -> None:
        """Reads first..last once for every claimed release in it (claim, key, first, last)."""
        window = Window(group, priorities=owners, rules=dict(DEFAULT_RULES, **(rules or {})), spool=False)
        window.keep_only([key for _c, key, _f, _l in claimed])
        text = self.overview(conn, group, first, last)
        window.feed(text, last, first)
        self.stats["headers"] += window.lines
        self.stats["reads"] += 1
        batch = window.flush()
        read = {r["release_key"]: r for r in (batch or {}).get("releases", ())}
        for claim, key, kfirst, klast in claimed:
            rec = read.get(key)
            rid = conn.execute("SELECT voyager.store_named(%s, %s)",
                               (claim, store.release_row(rec) if rec is not None else None)).fetchone()[0]
            if rid is not None:
                self.stats["moved"] += 1
            elif rec is None:
                self.stats["gone"] += 1
                log.warning("%s %d-%d: the pending release %s is not there any more", group, kfirst, klast, key.hex())
            else:
                self.stats["stale"] += 1       # its claim was taken over: the new holder moves it

    def run(self) -> dict:
        conn = connect(self.dsn)
        store = Store(conn)
        try:
            while not self.stopping:
                rows = conn.execute("SELECT claim, release_key, group_name, first_article, last_article, rules, "
                                    "owners FROM voyager.claim_named_pending(%s, %s)",
                                    (self.node, self.batch)).fetchall()
                if not rows:
                    if self.until_idle:
                        break
                    deadline = time.monotonic() + self.poll
                    while not self.stopping and time.monotonic() < deadline:
                        time.sleep(0.2)
                    continue
                self.stats["claimed"] += len(rows)
                for group, first, last, claimed, rules, owners in spans_to_read(rows):
                    if self.stopping:
                        break            # the rest come back when their lease runs out
                    self.move(conn, store, group, first, last, claimed, rules, owners)
        finally:
            if self.nntp is not None:
                self.nntp.close()
                conn.execute("SELECT voyager.nntp_release(%s, %s)", (self.node, ROLE))
            conn.close()
        return self.stats


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="voyager namer", description=__doc__.split("\n\n")[0])
    p.add_argument("--until-idle", action="store_true", help="exit once no named pending release is left to move")
    p.add_argument("--batch", type=int, default=10, help="pending releases a claim takes")
    claimant_arguments(p)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    dsn, node = claimant(args, "namer")
    n = Namer(dsn, node, until_idle=args.until_idle, batch=args.batch)
    signal.signal(signal.SIGTERM, n.request_stop)
    signal.signal(signal.SIGINT, n.request_stop)
    t0 = time.monotonic()
    stats = n.run()
    print(json.dumps({"node": node, **stats, "seconds": round(time.monotonic() - t0, 3)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
