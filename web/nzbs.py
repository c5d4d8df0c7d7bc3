"""NZBs and file lists of releases, served by the web process.

The chunk is read with its release and decoded by the Cython codec
(ext.codec, the window's own; voyager_pl.codec is its Python twin), and the
NZB is rendered by voyager_pl.nzb.render, the code behind voyager.nzb(): the
bytes are the same as `SELECT voyager.nzb(id)`, without the database's Python
decoding a 100-file chunk per download (about 30 ms there, 3 ms here).
"""
from __future__ import annotations

from voyager_pl.nzb import _text, render

try:
    from ext.codec import decode
except ImportError:                     # the extension not built: the reference twin
    from voyager_pl.codec import decode

# the chunk is in the partition of its posting month (store_batch's expression);
# the release's id alone would read every partition's primary key
CHUNK_SQL = """
SELECT r.id, r.name, p.poster, extract(epoch FROM r.posted_at)::bigint AS posted, gs.groups,
       coalesce(r.category, 8010) AS category, r.category AS nzb_category, pw.password, pw.status AS password_status,
       (SELECT c.chunk FROM voyager.release_chunks c
         WHERE c.month = coalesce(date_trunc('month', r.posted_at)::date, date '1970-01-01')
           AND c.release_id = r.id) AS chunk
  FROM voyager.releases r
  JOIN voyager.posters p ON p.id = r.poster_id
  JOIN voyager.group_sets gs ON gs.id = r.group_set_id
  LEFT JOIN voyager.release_passwords pw ON pw.release_id = r.id
 WHERE r.id = ({find})"""

ANY_MONTH_SQL = "SELECT chunk FROM voyager.release_chunks WHERE release_id = %s"


async def release_chunk(conn, release_id: int | None = None, *, find: str = "%s", arg=None) -> dict | None:
    """The release with its chunk: by id, or by a query `find` for its id with one parameter."""
    if release_id is not None:
        find, arg = "%s", release_id
    cur = await conn.execute(CHUNK_SQL.format(find=find), (arg,))
    row = await cur.fetchone()
    if row is None:
        return None
    out = dict(zip([c.name for c in cur.description], row))
    if out["chunk"] is None:            # a month written in another time zone
        cur = await conn.execute(ANY_MONTH_SQL, (out["id"],))
        found = await cur.fetchone()
        out["chunk"] = found[0] if found else None
    return out


def nzb_text(rel: dict) -> str:
    """voyager.nzb_from_chunk()'s text for a release_chunk() row: voyager.nzb()'s,
    with a known password in its meta."""
    cat = rel["nzb_category"]
    return render(decode(bytes(rel["chunk"])), rel["name"], rel["poster"], rel["posted"], rel["groups"],
                  str(cat) if cat is not None else None, rel["password"])


def file_list(chunk: bytes) -> list[dict]:
    """A release page's files: name, bytes, segments, the part numbers' span."""
    out = []
    for name, size, segments in decode(bytes(chunk)):
        parts = [p for p, _m, _b in segments]
        out.append({"name": _text(name), "bytes": size, "segments": len(segments),
                    "article_bytes": sum(b for _p, _m, b in segments),
                    "parts": (min(parts), max(parts)) if parts else None})
    out.sort(key=lambda f: f["name"].lower())
    return out
