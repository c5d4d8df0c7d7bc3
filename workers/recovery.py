"""`voyager rules recover`: the recoveries of retracted rules (voyager.recoveries).

A recovery lease (voyager.lease_recovery: the group's recovery lane) replays a
group's done ranges through one window with the rule set the rule is gone from
(voyager.lease_rules), to the last range whose counts show the rule's drops.
The window is the kept snapshot voyager.plan_recovery chose (the latest at or
before the first range with drops: voyager.snapshot gives it to the recovery
lease), restored as a takeover restores one, and the replay reads on from its
article; only without one old enough it is a fresh window at the lead-in.
Every chunk is fed, and the batches of the ranges with drops go to
voyager.store_recovered, which keeps only what the rule had dropped (the rest
is in the catalog already). With
--flush-at-end, a recovery whose last range is where the group's data ends
finishes what is open there as the lane did (a fixed corpus's end). The
chunks come from the corpus, the spool or the news server, as the worker's.
"""
from __future__ import annotations

import gc
import logging

from psycopg.types.json import Jsonb

from workers.nntp import chunk_requests
from workers.worker import GroupLost, LaneWorker

log = logging.getLogger("voyager.recovery")


class RecoveryLane(LaneWorker):
    """The worker's process (connections, the budget, the spool, the keeper's
    heartbeats) working recovery leases instead of a lane's."""

    def __init__(self, node: str, until_idle: bool = True, flush_at_end: bool = False, cfg=None):
        super().__init__("recovery", node, until_idle, flush_at_end, cfg)
        self.stats.update(recoveries=0, added=0)

    def loop(self) -> None:
        while not self.stopping:
            held = self.conn.execute("SELECT token, recovery_id, group_name, rule, key "
                                     "FROM voyager.lease_recovery(%s)", (self.node,)).fetchone()
            if held is None:
                if self.until_idle:
                    return
                self.wait(30, held=False)
                continue
            token, rid, name, rule, key = held
            self.keeper.lost = False
            self.keeper.token = token
            try:
                self.recover(token, name)
                log.info("%s: recovery %d of %s %s done", name, rid, rule, key)
            except GroupLost as e:
                log.warning("%s: %s", name, e)
            finally:
                self.keeper.token = None

    def recover(self, token, name: str) -> None:
        window, restored = self.lease_window(token, name)   # with the rule set the rule is gone from
        self.stats["from_snapshot"] = self.stats.get("from_snapshot", 0) + int(restored)
        rows = self.call("SELECT range_id, start_article, end_article, resume, stale, group_end "
                         "FROM voyager.recovery_ranges(%s)", (token,)).fetchall()
        for n, (range_id, start, end, resume, stale, _end) in enumerate(rows):
            for s, r, e in [(start, resume, end)] + [(x[1], x[3], x[2]) for x in rows[n + 1:n + 2]]:
                if not self.in_corpus(name, s, e):       # this range's chunks and the next one's, fetched ahead
                    for a, b in chunk_requests(r, e, self.chunk_articles):
                        self.fetcher.ensure(name, a, b)
            for a, b, data in self.chunks(name, start, end, resume):
                gc.disable()
                try:
                    window.feed(data, b, a)      # as the lane fed it: a line outside a..b is skipped
                    batch = window.take_batch()
                finally:
                    gc.enable()
                if stale:
                    self.store_recovered(token, range_id, batch)
            if self.stopping or self.keeper.lost:
                raise GroupLost("stopped before the recovery's end: its next holder replays it again")
            for a, b in chunk_requests(resume, end, self.chunk_articles):
                self.fetcher.forget(name, a, b)
            self.stats["ranges"] += 1
        range_id, _s, _e, _r, stale, group_end = rows[-1]
        if self.flush_at_end and stale and group_end:
            for batch in window.flush_batches(self.flush_releases):
                self.store_recovered(token, range_id, batch)
        self.stats["added"] += self.call("SELECT voyager.finish_recovery(%s)", (token,)).fetchone()[0]
        self.stats["recoveries"] += 1

    def store_recovered(self, token, range_id: int, batch: dict) -> None:
        releases, pending, _counts, _samples, _retracted = self.store.rows(batch)
        self.call("SELECT voyager.store_recovered(%s, %s, %b, %b, %s, %s)",
                  (token, range_id, releases, pending, [r["tool"] for r in batch["releases"]],
                   Jsonb([sorted(set(p["groups"])) for p in batch["pending"]])))
        self.stats["batches"] += 1


def _corpus_recovery():
    from workers.replay import CorpusLane

    class CorpusRecovery(RecoveryLane, CorpusLane):
        """The recoveries over a corpus folder on the caller's connection, as
        `voyager replay` indexes it (CorpusLane), with the lease's owner list:
        a removed group owns nothing in a recovery."""

        def __init__(self, conn, root, node: str = "recovery", flush_at_end: bool = True):
            CorpusLane.__init__(self, conn, root, node)
            self.lane, self.flush_at_end = "recovery", flush_at_end
            self.stats.update(recoveries=0, added=0)

        priorities = LaneWorker.priorities

    return CorpusRecovery


def recover_from_corpus(conn, root, node: str = "recovery", flush_at_end: bool = True) -> dict:
    """Every open recovery, its chunks read from a corpus folder (a replay's database)."""
    return _corpus_recovery()(conn, root, node, flush_at_end).run()
