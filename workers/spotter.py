"""`voyager spots read`: the spotter. Reads free.pt's overview after the last
article it read (the first time the last `spots_first_articles`), each new
spot's header by HEAD, reads and verifies it (workers.spots) and stores a
batch with one voyager.store_spots call; on one connection of the budget's
`spots` role. Trusted keys: the setting spots_trusted_keys (JSON {id:
modulus}), else Spotnet's moderator keys."""
from __future__ import annotations

import argparse
import json
import time

import psycopg

from workers import claim_connections, claimant, claimant_arguments
from workers.nntp import NntpConfig, NntpNoSuchGroup, NntpPool
from workers.spots import parse_head, read_spot, verify_spot

ROLE = "spots"
GROUP = "free.pt"
MAX_HEAD = 1 << 20          # a header past this is refused, never read whole


def _setting(conn, name: str, default: str) -> str:
    row = conn.execute("SELECT value FROM voyager.settings WHERE name = %s", (name,)).fetchone()
    return row[0] if row and row[0] != "" else default


def trusted_from(conn) -> dict[int, str] | None:
    text = _setting(conn, "spots_trusted_keys", "")
    return {int(k): v for k, v in json.loads(text).items()} if text else None


def _jsonable(facts: dict) -> dict:
    return {k: v for k, v in facts.items() if isinstance(v, (str, int, float, bool, list, dict, type(None)))}


def read_spots(dsn, node: str, nntp: NntpConfig | None = None, group: str = GROUP,
               trusted_keys: dict | None = None, cpu: dict | None = None) -> dict:
    """One pass: what was read and stored. dsn: a DSN, or an open autocommit
    connection (the tick's job reads on its own). `cpu`, when given, gathers
    this process's CPU seconds by part (nntp, read, verify, store: what the
    bench quotes)."""
    if isinstance(dsn, psycopg.Connection):
        return _read_spots(dsn, node, nntp, group, trusted_keys, cpu)
    with psycopg.connect(dsn, autocommit=True) as conn:
        return _read_spots(conn, node, nntp, group, trusted_keys, cpu)


def _read_spots(conn, node: str, nntp: NntpConfig | None, group: str, trusted_keys: dict | None,
                cpu: dict | None) -> dict:
    nntp = nntp or NntpConfig.from_env()
    cpu = {} if cpu is None else cpu
    clock = time.process_time
    stats = {"articles": 0, "stored": 0, "disposed": 0, "verified": 0, "failed": 0}
    with NntpPool(nntp, size=0) as pool:
        if not claim_connections(conn, pool, node, ROLE, 1, nntp.connections, 0):
            return {**stats, "error": "no connection granted for spots"}
        try:
            keys = trusted_keys if trusted_keys is not None else trusted_from(conn)
            batch_size = int(_setting(conn, "spots_batch", "500"))
            depth = int(_setting(conn, "spots_first_articles", "20000"))
            row = conn.execute("SELECT last_article FROM voyager.spot_reads WHERE group_name = %s",
                               (group,)).fetchone()
            with pool.connection(timeout=120) as nn:
                try:
                    info = nn.group(group)
                except NntpNoSuchGroup:
                    # a server that does not carry Spotnet: nothing to read, not a failure
                    return {**stats, "missing_group": group}
                first = row[0] + 1 if row else max(info.low, info.high - depth + 1)
                if first > info.high:
                    return stats
                t0 = clock()
                blob = nn.over(group, first, info.high)
                numbers = [int(l.split(b"\t", 1)[0]) for l in blob.split(b"\r\n") if l[:1].isdigit()]
                _count(cpu, "nntp", clock() - t0)
                batch = []
                for number in numbers:
                    stats["articles"] += 1
                    t0 = clock()
                    raw = nn.head_raw(group, number, MAX_HEAD)
                    t1 = clock()
                    _count(cpu, "nntp", t1 - t0)
                    if raw is None:
                        continue
                    headers = parse_head(raw)
                    facts = read_spot(headers)
                    t0 = clock()
                    _count(cpu, "read", t0 - t1)
                    verdict = verify_spot(headers, keys)
                    t1 = clock()
                    _count(cpu, "verify", t1 - t0)
                    stats["verified"] += bool(verdict.get("verified"))
                    batch.append({**_jsonable(facts), "article": number, "verified": bool(verdict.get("verified")),
                                  "trusted": bool(verdict.get("trusted")), "reason": verdict.get("reason")})
                    if len(batch) >= batch_size:
                        _store(conn, group, batch, stats)
                        batch = []
                    _count(cpu, "store", clock() - t1)
                t0 = clock()
                if batch or numbers:
                    _store(conn, group, batch or [{"article": numbers[-1]}], stats)
                _count(cpu, "store", clock() - t0)
        finally:
            conn.execute("SELECT voyager.nntp_release(%s, %s)", (node, ROLE))
    return stats


def _count(cpu: dict, part: str, seconds: float) -> None:
    cpu[part] = cpu.get(part, 0.0) + seconds


def _store(conn, group: str, batch: list[dict], stats: dict) -> None:
    out = conn.execute("SELECT voyager.store_spots(%s, %s::jsonb)",
                       (group, json.dumps(batch, default=str))).fetchone()[0]
    stats["stored"] += out["stored"]
    stats["disposed"] += out["disposed"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="voyager spots read", description=__doc__.split("\n\n")[0])
    claimant_arguments(p)
    a = p.parse_args(argv)
    dsn, node = claimant(a, ROLE)
    print(json.dumps(read_spots(dsn, node)))
    return 0
