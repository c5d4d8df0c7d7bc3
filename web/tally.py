"""The API's counts a web that reads from replicas holds for the primary.

A hot standby refuses every write, so such a web judges each API request on
a replica without counting it: voyager.api_use with `held`, the day's counts
the replica has plus what this process served and has not written yet
(`held`), plus what it wrote and the replica may not have replayed yet
(`sent`, until the replica's replay passes `sent_lsn`). Every `interval`
seconds one call on the primary, voyager.api_tally, writes what is held:
the request's round trip to the primary and the standbys' replay of a
write per request become one statement for all the requests of the interval.

A key's quota is exact for one web process. Several processes can together
serve past it by what each serves before the others see it written (an
interval and a replica's lag). Counts the primary does not take (it is
down, a statement failed) are held for the next call: none is lost while
the process runs.
"""
from __future__ import annotations

import collections
import logging
import time
from dataclasses import dataclass

log = logging.getLogger("voyager.web.tally")

# what the primary replays no later than this: a sent count still in flight
IN_FLIGHT = "FFFFFFFF/FFFFFFFF"

# voyager.api_use's last three arguments when it is to count (on the primary)
COUNTED = {"held": None, "sent": 0, "sent_lsn": None}


@dataclass
class Held:
    """One key's counts of the day not on the primary yet, and those sent."""
    user_id: int
    requests: int = 0
    downloads: int = 0
    sent_requests: int = 0
    sent_downloads: int = 0
    sent_lsn: str | None = None
    sent_at: float = 0.0


class Tally:
    def __init__(self, keep_sent: float):
        self.keys: dict[str, Held] = {}
        self.grabs: collections.Counter[int] = collections.Counter()
        # after this long every replica read from has replayed a call (one
        # further behind is skipped): its counts are no longer added
        self.keep_sent = keep_sent
        self.calls = 0
        self.failed = 0

    def params(self, key: str, kind: str) -> dict:
        """voyager.api_use's last three arguments for the key's request of `kind`."""
        h = self.keys.get(key)
        if h is None:
            return {"held": 0, "sent": 0, "sent_lsn": None}
        if h.sent_lsn is not None and time.monotonic() - h.sent_at > self.keep_sent:
            h.sent_requests = h.sent_downloads = 0
            h.sent_lsn = None
        if kind == "download":
            return {"held": h.downloads, "sent": h.sent_downloads, "sent_lsn": h.sent_lsn}
        return {"held": h.requests, "sent": h.sent_requests, "sent_lsn": h.sent_lsn}

    def add(self, key: str, user_id: int, kind: str, release_id: int | None = None) -> None:
        """A request of `kind` the key's check allowed: held to be written."""
        h = self.keys.get(key)
        if h is None or h.user_id != user_id:
            h = self.keys[key] = Held(user_id)
        if kind == "download":
            h.downloads += 1
            if release_id is not None:
                self.grabs[release_id] += 1
        else:
            h.requests += 1

    def pending(self) -> int:
        return sum(h.requests + h.downloads for h in self.keys.values())

    async def flush(self, db) -> None:
        """What is held, written on the primary in one call; held again when it fails."""
        now = time.monotonic()
        batch = [(h, h.requests, h.downloads) for h in self.keys.values() if h.requests or h.downloads]
        grabs = dict(self.grabs)
        if batch or grabs:
            self.grabs.clear()
            for h, r, d in batch:
                # sent from now: a request judged while the call is out counts them still
                h.requests, h.downloads = h.requests - r, h.downloads - d
                if h.sent_lsn is None or now - h.sent_at > self.keep_sent:
                    h.sent_requests = h.sent_downloads = 0
                h.sent_requests, h.sent_downloads = h.sent_requests + r, h.sent_downloads + d
                h.sent_lsn, h.sent_at = IN_FLIGHT, now
            per: dict[int, list[int]] = {}
            for h, r, d in batch:
                counts = per.setdefault(h.user_id, [0, 0])
                counts[0] += r
                counts[1] += d
            ids = sorted(per)
            try:
                async with db.primary() as conn:
                    await conn.execute("SELECT voyager.api_tally(%s, %s, %s, %s, %s)",
                                       (ids, [per[u][0] for u in ids], [per[u][1] for u in ids],
                                        list(grabs), list(grabs.values())))
                    # the call's commit is at or before this: a replica past it has the counts
                    cur = await conn.execute("SELECT pg_current_wal_insert_lsn()::text")
                    lsn = (await cur.fetchone())[0]
            except Exception as e:
                self.failed += 1
                for h, r, d in batch:
                    h.requests, h.downloads = h.requests + r, h.downloads + d
                    h.sent_requests, h.sent_downloads = h.sent_requests - r, h.sent_downloads - d
                    if not h.sent_requests and not h.sent_downloads:
                        h.sent_lsn = None
                self.grabs.update(grabs)
                log.warning("web: the API's counts were not written (%s: %s); held for the next call",
                            type(e).__name__, str(e).strip()[:200])
                return
            self.calls += 1
            for h, _r, _d in batch:
                if h.sent_at == now:
                    h.sent_lsn = lsn
        # keys with nothing held or in flight are forgotten
        for key in [k for k, h in self.keys.items() if not h.requests and not h.downloads
                    and (h.sent_lsn is None or now - h.sent_at > self.keep_sent)]:
            del self.keys[key]

    def figures(self) -> dict:
        return {"held": self.pending(), "keys": len(self.keys), "calls": self.calls, "failed_calls": self.failed}
