"""A window batch into the catalog: one call of voyager.store_batch with
arrays of composite rows (no call per release)."""
from __future__ import annotations

import psycopg
from psycopg.types.composite import CompositeInfo, register_composite
from psycopg.types.json import Jsonb

from ext.window import segments_of


class Store:
    """Adapts window batches to voyager.store_batch on one connection."""

    def __init__(self, conn: psycopg.Connection):
        self.conn = conn
        self.types = {}
        for name in ("release_in", "pending_in", "count_in", "sample_in"):
            info = CompositeInfo.fetch(conn, f"voyager.{name}")
            register_composite(info, conn)
            self.types[name] = info.python_type

    def release_row(self, r: dict):
        """One window release record as a voyager.release_in."""
        return self.types["release_in"](
            r["release_key"], r["identity_key"], r["name"], r["source"], r["poster"], sorted(set(r["groups"])),
            r["posted_at"], r["last_posted_at"], r["first_article"], r["last_article"], r["files"],
            r["segments"], r["bytes"], r["file_total"], r["complete"], r["has_par2"], r["finished"],
            r["edge"], r["chunk"], _members(r.get("members")),
            [str(x) if not isinstance(x, bytes) else x.decode("utf-8", "replace")
             for c in r["candidates"] for x in c], r.get("readable", True))

    def rows(self, batch: dict) -> tuple[list, list, list, list, list]:
        P, C, S = (self.types[n] for n in ("pending_in", "count_in", "sample_in"))
        releases = [self.release_row(r) for r in batch["releases"]]
        pending = [P(r["release_key"], r["identity_key"], r["name"], r["poster"], r["tool"], r["posted_at"],
                     r["last_posted_at"], r["first_article"], r["last_article"], r["files"], r["segments"],
                     r["bytes"], r["file_total"], r["complete"], r["finished"],
                     Jsonb([[k, m.decode("utf-8", "replace"), i] for k, m, i in r["candidates"]]))
                   for r in batch["pending"]]
        counts = [C(rule, key, a, f, n) for rule, key, a, f, n in batch["counts"]]
        samples = [S(s["release_key"], s["rule"], s["rule_key"], Jsonb(_sample(s))) for s in batch["samples"]]
        return releases, pending, counts, samples, list(batch.get("retracted", ()))

    def store(self, token, range_id: int, first_article: int, next_article: int, headers: int,
              batch: dict) -> dict:
        releases, pending, counts, samples, retracted = self.rows(batch)
        return self.conn.execute(
            "SELECT voyager.store_batch(%s, %s, %s, %s, %s, %b, %b, %b, %b, %b)",
            (token, range_id, first_article, next_article, headers, releases, pending, counts, samples,
             retracted),
        ).fetchone()[0]


def _members(members) -> str:
    """An album's first 20 member names, a line each: one text row, one set of trigrams."""
    return "\n".join(m[:255].replace("\n", " ") for m in (members or [])[:20])


def _sample(rec: dict) -> dict:
    return {"name": rec.get("name"), "poster": rec["poster"], "groups": rec["groups"],
            "posted_at": rec["posted_at"], "files": [
                {"name": f["name"], "bytes": f["bytes"],
                 "segments": [[p, m.decode("utf-8", "replace"), b] for p, m, b in segments_of(f["segs"])]}
                for f in rec["file_list"]]}
