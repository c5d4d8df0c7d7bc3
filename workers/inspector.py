"""`voyager spots inspect`: the spot inspector. For the newest verified spots
not inspected yet, their compressed NZB's articles from alt.binaries.ftd (by
the message-ids the spot lists, BODY on a connection of its own under the
budget's `spots` role), decoded by workers.spots.decode_spot_nzb under a cap
on articles and segments; each NZB's files as what matching needs (the
window's release identity of each file, its first and last segments'
message-ids) and as one release chunk (ext.codec, the window's codec), handed
to voyager.store_spot_nzb, which notes the spot's state (read, placeholder,
gone: an article the server no longer has, unreadable) and matches it to its
release (voyager.match_spots). The pass ends with voyager.settle_spots: the
unmatched due again, the day-old ones standing alone."""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import struct

import psycopg

from ext.codec import encode_packed
from ext.window import FileAgg, identity_of, subject_identity
from workers import claimant, claimant_arguments
from workers.nntp import NntpBodyTooLarge, NntpConfig, NntpConnection
from workers.spots import decode_spot_nzb
from workers.spots.nzb import MAX_COMPRESSED

ROLE = "spots"
_PAR2 = re.compile(r"\.par2\b", re.I)


def _setting(conn, name: str, default: int) -> int:
    row = conn.execute("SELECT value FROM voyager.settings WHERE name = %s", (name,)).fetchone()
    return int(row[0]) if row and row[0] not in (None, "") else default


def file_identity(subject: str, poster: str) -> tuple[bytes, bytes, int]:
    """(the file's name as the window reads it from its subject, its release
    identity's key as the window computes it, the counter total): the window's
    own reading (ext.window.subject_identity), so a spot names the release the
    header pass built. A subject without a part counter, of which the window
    keeps no file, is its own name."""
    raw = subject.encode("utf-8", "surrogateescape")
    poster_b = poster.encode("utf-8", "surrogateescape")
    found = subject_identity(raw, poster_b)
    if found is None:
        f = FileAgg()
        f.poster, f.name, f.rel, f.N = poster_b, raw.strip().strip(b'"'), b"", -1
        found = (f.name, identity_of(f), -1)
    name, identity, total = found
    return name, hashlib.sha1(identity).digest(), total


def _packed(segments) -> bytes:
    """A file's segments as the window packs them (part, bytes, message-id)."""
    out = bytearray()
    for number, nbytes, mid in segments:
        m = mid.encode("utf-8", "surrogateescape")
        if number is None or not 1 <= number < 1 << 32 or len(m) > 255:
            continue
        out += struct.pack("<IIB", number, max(0, min(nbytes or 0, (1 << 32) - 1)), len(m)) + m
    return bytes(out)


def nzb_facts(decoded: dict) -> tuple[dict, bytes | None]:
    """A decoded NZB as store_spot_nzb's facts and its release chunk."""
    if decoded["error"] == "placeholder":
        return {"state": "placeholder", "error": None}, None
    if decoded["error"]:
        return {"state": "unreadable", "error": decoded["error"]}, None
    files, keys, mids, groups, chunk_files = decoded["files"], [], [], [], []
    segments = nbytes = 0
    for f in files:
        segs = sorted(s for s in f["segments"] if s[0] is not None)
        if not segs:
            continue
        name, key, _n = file_identity(f["subject"], f["poster"])
        if key not in keys:
            keys.append(key)
        mids += [segs[0][2]] + ([segs[-1][2]] if len(segs) > 1 else [])
        groups += [g for g in f["groups"] if g not in groups]
        size = sum(s[1] or 0 for s in segs)
        segments, nbytes = segments + len(segs), nbytes + size
        chunk_files.append((name, size, _packed(segs)))
    if not chunk_files:
        return {"state": "placeholder", "error": None}, None
    facts = {"state": "read", "error": None, "files": len(chunk_files), "segments": segments, "bytes": nbytes,
             "has_par2": any(_PAR2.search(f["subject"]) for f in files),
             "poster": next((f["poster"] for f in files if f["poster"]), None),
             "groups": sorted(groups), "identity_keys": [k.hex() for k in keys], "message_ids": mids}
    return facts, encode_packed(chunk_files)


def read_nzb(nn: NntpConnection, message_ids: list[str], max_articles: int, max_segments: int) -> tuple[dict, bytes | None]:
    """A spot's NZB from its articles: (store_spot_nzb's facts, the chunk)."""
    if not message_ids:
        return {"state": "none", "error": "no nzb"}, None
    if len(message_ids) > max_articles:
        return {"state": "unreadable", "error": "too-many-articles"}, None
    bodies = []
    for mid in message_ids:
        try:
            body = nn.body(mid, cap=MAX_COMPRESSED)
        except NntpBodyTooLarge:
            return {"state": "unreadable", "error": "too-large"}, None
        if body is None:
            return {"state": "gone", "error": f"430 {mid}"}, None
        bodies.append(body)
    return nzb_facts(decode_spot_nzb(bodies, max_segments=max_segments))


def inspect_spots(dsn, node: str, nntp: NntpConfig | None = None, limit: int | None = None) -> dict:
    """One pass, newest first: what was read and matched. dsn: a DSN or an open
    autocommit connection (the tick's job inspects on its own)."""
    if isinstance(dsn, psycopg.Connection):
        return _inspect(dsn, node, nntp, limit)
    with psycopg.connect(dsn, autocommit=True, prepare_threshold=None) as conn:
        return _inspect(conn, node, nntp, limit)


def _inspect(conn, node: str, nntp: NntpConfig | None, limit: int | None) -> dict:
    nntp = nntp or NntpConfig.from_env()
    stats = {"inspected": 0, "read": 0, "placeholder": 0, "gone": 0, "unreadable": 0, "none": 0, "matched": 0}
    limit = limit or _setting(conn, "spots_inspect_batch", 200)
    max_articles = _setting(conn, "spots_nzb_articles", 64)
    max_segments = _setting(conn, "spots_nzb_segments", 100_000)
    due = conn.execute(
        """SELECT s.message_id, s.nzb FROM voyager.spots s
            WHERE s.verified AND s.disposed_at IS NULL AND coalesce(s.facts ->> 'command', '') = ''
              AND NOT EXISTS (SELECT FROM voyager.spot_nzbs n WHERE n.spot_id = s.message_id)
            ORDER BY s.posted_at DESC NULLS LAST, s.message_id LIMIT %s""", (limit,)).fetchall()
    if due:
        granted = conn.execute("SELECT voyager.nntp_claim(%s, %s, 1, %s)", (node, ROLE, nntp.connections)).fetchone()[0]
        if granted < 1:
            return {**stats, "error": "no connection granted for spots"}
        try:
            with NntpConnection(nntp) as nn:
                for spot, mids in due:
                    conn.execute("SELECT voyager.nntp_claim(%s, %s, 1, %s, 1)", (node, ROLE, nntp.connections))
                    facts, chunk = read_nzb(nn, list(mids), max_articles, max_segments)
                    out = conn.execute("SELECT voyager.store_spot_nzb(%s, %s::jsonb, %s)",
                                       (spot, json.dumps(facts), chunk)).fetchone()[0]
                    stats["inspected"] += 1
                    stats[facts["state"]] += 1
                    stats["matched"] += out["matched"]
        finally:
            conn.execute("SELECT voyager.nntp_release(%s, %s)", (node, ROLE))
    stats["settled"] = conn.execute("SELECT voyager.settle_spots()").fetchone()[0]
    return stats


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="voyager spots inspect", description=__doc__.split("\n\n")[0])
    p.add_argument("--limit", type=int, default=None, help="spots read at most (default: spots_inspect_batch)")
    claimant_arguments(p)
    a = p.parse_args(argv)
    dsn, node = claimant(a, "inspect")      # a node of its own: its connection beside the spotter's
    print(json.dumps(inspect_spots(dsn, node, limit=a.limit), default=str))
    return 0
