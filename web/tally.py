"""The API's counts a web that reads from replicas holds for the primary.

A hot standby refuses every write, so such a web judges each API request on
a replica without counting it: voyager.api_use with `held`, what this
process has served or is serving and has not written yet (a request counts
from before its statement: requests of one key at once see each other), and
`sent`, each write of its counts with the WAL position it ended at
(`sent_lsn`), counted where the server has not reached that position (a
replica that has not replayed it; a write still under way counts
everywhere). Every `interval` seconds one call on the primary,
voyager.api_tally, writes what is held: the request's round trip to the
primary and the standbys' replay of a write per request become one
statement for all the requests of the interval.

A key's quota is exact for one web process. Several processes can together
serve past it by what each serves before the others see it written (an
interval and a replica's lag). Counts the primary does not take (it is
down, a statement failed) are held for the next call: none is lost while
the process runs, and the last are written as it stops.
"""
from __future__ import annotations

import collections
import logging
import time
from dataclasses import dataclass, field

log = logging.getLogger("voyager.web.tally")

# a write under way: every server counts it (none has reached this position)
IN_FLIGHT = "FFFFFFFF/FFFFFFFF"

# voyager.api_use's last three arguments when it is to count (on the primary)
COUNTED = {"held": None, "sent": None, "sent_lsn": None}


@dataclass
class Sent:
    """One write of a key's counts: until when a server may not have it."""
    requests: int
    downloads: int
    lsn: str
    at: float

    def position(self) -> int | None:
        """The WAL position as bytes (None while the write is under way)."""
        if self.lsn == IN_FLIGHT:
            return None
        hi, lo = self.lsn.split("/")
        return (int(hi, 16) << 32) + int(lo, 16)


@dataclass
class Held:
    """One key's counts of the day not on the primary yet, and its writes."""
    user_id: int | None = None
    requests: int = 0              # served, to be written
    downloads: int = 0
    asked_requests: int = 0        # judged now, their statements under way
    asked_downloads: int = 0
    sent: list[Sent] = field(default_factory=list)


class Tally:
    def __init__(self, keep_sent: float):
        self.keys: dict[str, Held] = {}
        self.grabs: collections.Counter[int] = collections.Counter()
        # after this long every replica read from has replayed a write (one
        # further behind is skipped): its counts are no longer passed
        self.keep_sent = keep_sent
        self.calls = 0
        self.failed = 0

    def _sent(self, h: Held, now: float) -> list[Sent]:
        h.sent = [s for s in h.sent if now - s.at <= self.keep_sent]
        return h.sent

    def params(self, key: str, kind: str) -> dict:
        """voyager.api_use's last three arguments for the key's request of `kind`."""
        h = self.keys.get(key)
        if h is None:
            return {"held": 0, "sent": [], "sent_lsn": []}
        sent = [s for s in self._sent(h, time.monotonic()) if (s.downloads if kind == "download" else s.requests)]
        held = h.downloads + h.asked_downloads if kind == "download" else h.requests + h.asked_requests
        return {"held": held, "sent": [s.downloads if kind == "download" else s.requests for s in sent],
                "sent_lsn": [s.lsn for s in sent]}

    def ask(self, key: str, kind: str, n: int) -> None:
        """A request of `kind` judged (n = 1) or answered (n = -1): the
        requests of the key under way count in each other's judgement."""
        h = self.keys.setdefault(key, Held())
        if kind == "download":
            h.asked_downloads += n
        else:
            h.asked_requests += n

    def add(self, key: str, user_id: int, kind: str, release_id: int | None = None) -> None:
        """A request of `kind` the key's check allowed: held to be written."""
        h = self.keys.setdefault(key, Held())
        if h.user_id != user_id:
            if h.user_id is not None and (h.requests or h.downloads):
                log.warning("web: a key's user changed with counts held; written as the new user's")
            h.user_id = user_id
        if kind == "download":
            h.downloads += 1
            if release_id is not None:
                self.grabs[release_id] += 1
        else:
            h.requests += 1

    def replayed(self, position: int) -> None:
        """Every replica has replayed the WAL to `position`: the writes before
        it count nowhere any more (each request would pass them for nothing)."""
        for h in self.keys.values():
            h.sent = [s for s in h.sent if (pos := s.position()) is None or pos > position]

    def pending(self) -> int:
        return sum(h.requests + h.downloads for h in self.keys.values())

    async def flush(self, db) -> None:
        """What is held, written on the primary in one call; held again when
        the call did not write it."""
        now = time.monotonic()
        batch = [(h, Sent(h.requests, h.downloads, IN_FLIGHT, now)) for h in self.keys.values()
                 if (h.requests or h.downloads) and h.user_id is not None]
        grabs = dict(self.grabs)
        if batch or grabs:
            self.grabs.clear()
            for h, s in batch:
                # sent from now (a write under way): a request judged while it is out counts them still
                h.requests, h.downloads = h.requests - s.requests, h.downloads - s.downloads
                h.sent.append(s)
            per: dict[int, list[int]] = {}
            for h, s in batch:
                counts = per.setdefault(h.user_id, [0, 0])
                counts[0] += s.requests
                counts[1] += s.downloads
            ids = sorted(per)
            written = False
            try:
                async with db.primary() as conn:
                    await conn.execute("SELECT voyager.api_tally(%s, %s, %s, %s, %s)",
                                       (ids, [per[u][0] for u in ids], [per[u][1] for u in ids],
                                        list(grabs), list(grabs.values())))
                    written = True
                    # the call's commit is at or before this: a replica past it has the counts
                    cur = await conn.execute("SELECT pg_current_wal_insert_lsn()::text")
                    lsn = (await cur.fetchone())[0]
            except BaseException as e:
                if not written:
                    self.failed += 1
                    for h, s in batch:
                        h.requests, h.downloads = h.requests + s.requests, h.downloads + s.downloads
                        h.sent.remove(s)
                    self.grabs.update(grabs)
                # (written, its position unknown: counted everywhere until it is kept no longer)
                for _h, s in batch:
                    s.at = time.monotonic()
                if not isinstance(e, Exception):
                    raise
                log.warning("web: the API's counts were %s (%s: %s)",
                            "written, their position not read" if written else "not written; held for the next call",
                            type(e).__name__, str(e).strip()[:200])
                return
            self.calls += 1
            for _h, s in batch:
                s.lsn, s.at = lsn, time.monotonic()
        # keys with nothing held, under way or sent are forgotten
        for key in [k for k, h in self.keys.items() if not (h.requests or h.downloads or h.asked_requests
                                                            or h.asked_downloads or self._sent(h, now))]:
            del self.keys[key]
