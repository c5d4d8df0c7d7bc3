"""NZBs and file lists of releases, served by the web process.

voyager.nzb_source() hands a release's head and chunks to the compiled
codec's one NZB writer (ext.codec.nzb), which writes the XML as it decodes
the chunks (a 5,000-segment release in about 0.25 ms): the bytes are those
of `SELECT voyager.nzb(id)`, which calls the same writer in the server,
without the database decoding a 100-file chunk per download.
"""
from __future__ import annotations

from ext.codec import decode, nzb, text_of

# the release's id from a FROM item, not a sub-select in the call: an
# argument with a sub-select keeps the planner from inlining nzb_source (it
# would be planned afresh as a function of its own at every call); inlined,
# the chunk is read from its posting month's partition
CHUNK_SQL = ("SELECT s.* FROM (SELECT %s::bigint) f(id) CROSS JOIN LATERAL voyager.nzb_source(f.id) s "
             "ORDER BY s.chunk_no")


def release_of_rows(cols: list[str], rows: list) -> dict | None:
    """The release of nzb_source's rows (a row per chunk, in file order): its
    head, and `chunks` the list of its chunks (None when it has none)."""
    if not rows:
        return None
    rel = dict(zip(cols, rows[0]))
    k = cols.index("chunk")
    chunks = [row[k] for row in rows if row[k] is not None]
    del rel["chunk"], rel["chunk_no"]
    rel["chunks"] = chunks or None
    return rel


async def release_chunk(conn, release_id: int) -> dict | None:
    """The release with its chunks, by id."""
    # binary: the chunks as they are stored, not in hex to be read back
    cur = await conn.execute(CHUNK_SQL, (release_id,), binary=True)
    return release_of_rows([c.name for c in cur.description], await cur.fetchall())


def nzb_bytes(rel: dict) -> bytes:
    """voyager.nzb()'s bytes for a release_chunk() row (the category as Newznab
    names it, "TV > HD"), with a known password in its meta."""
    cat = rel["nzb_category"]
    return nzb(rel["chunks"], rel["name"], rel["poster"], rel["posted"], rel["groups"],
               str(cat) if cat is not None else None, rel["password"])


def file_list(chunks) -> list[dict]:
    """A release page's files: name, bytes, segments, the part numbers' span."""
    out = []
    for chunk in chunks:
        for name, size, segments in decode(bytes(chunk)):
            parts = [p for p, _m, _b in segments]
            out.append({"name": text_of(name), "bytes": size, "segments": len(segments),
                        "article_bytes": sum(b for _p, _m, b in segments),
                        "parts": (min(parts), max(parts)) if parts else None})
    out.sort(key=lambda f: f["name"].lower())
    return out
