"""NZBs and file lists of releases, served by the web process.

The chunk is read with its release and decoded by the Cython codec
(ext.codec, the window's own; voyager_pl.codec is its Python twin), and the
NZB is rendered by voyager_pl.nzb.render, the code behind voyager.nzb(): the
bytes are the same as `SELECT voyager.nzb(id)`, without the database's Python
decoding a 100-file chunk per download (about 30 ms there). A download's
bytes come from ext.codec.decode_nzb, which writes the XML as it decodes the
chunk (a 5,000-segment release in about 0.25 ms); render_bytes(decode(...))
is its reference and its fallback.
"""
from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from voyager_pl.nzb import DOCTYPE, NAMESPACE, _text, render

try:
    from ext.codec import decode, decode_nzb
except ImportError:                     # the extension not built: the reference twin
    from voyager_pl.codec import decode
    decode_nzb = None
try:
    from ._nzbfast import segment_lines
except ImportError:                     # not built: render()'s own f-strings
    segment_lines = None

# the chunk is in the partition of its posting month (voyager.chunk_month); the
# release's id alone would read every partition's primary key
CHUNK_SQL = """
SELECT r.id, r.name, p.poster, extract(epoch FROM r.posted_at)::bigint AS posted, gs.groups,
       coalesce(r.category, 8010) AS category, pw.password, pw.status AS password_status,
       (SELECT coalesce(pc.name || ' > ', '') || cat.name FROM voyager.categories cat
          LEFT JOIN voyager.categories pc ON pc.id = cat.parent_id WHERE cat.id = r.category) AS nzb_category,
       (SELECT c.chunk FROM voyager.release_chunks c
         WHERE c.month = voyager.chunk_month(r.posted_at) AND c.release_id = r.id) AS chunk
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
    if out["chunk"] is None:            # filed under another month (a date corrected since)
        cur = await conn.execute(ANY_MONTH_SQL, (out["id"],))
        found = await cur.fetchone()
        out["chunk"] = found[0] if found else None
    return out


def nzb_text(rel: dict) -> str:
    """voyager.nzb()'s text for a release_chunk() row (the category as Newznab
    names it, "TV > HD"), with a known password in its meta."""
    cat = rel["nzb_category"]
    return render(decode(bytes(rel["chunk"])), rel["name"], rel["poster"], rel["posted"], rel["groups"],
                  str(cat) if cat is not None else None, rel["password"])


def _slow_mid(mid: bytes) -> str:
    return escape(_text(mid))


def _head(title: str, category: str | None, password: str | None) -> bytes:
    """The document up to </head>, without the newline after it."""
    head = ['<?xml version="1.0" encoding="UTF-8"?>', DOCTYPE, f'<nzb xmlns="{NAMESPACE}">', " <head>",
            f'  <meta type="title">{escape(title or "")}</meta>']
    if category:
        head.append(f'  <meta type="category">{escape(str(category))}</meta>')
    if password:
        head.append(f'  <meta type="password">{escape(password)}</meta>')
    head.append(" </head>")
    return "\n".join(head).encode("utf-8")


def render_bytes(files, title: str, poster: str, posted_at: int | None, groups: list,
                 category: str | None = None, password: str | None = None) -> bytes:
    """render(...).encode(), the segment lines written in C (web/_nzbfast.pyx)."""
    if segment_lines is None:
        return render(files, title, poster, posted_at, groups, category, password).encode("utf-8")
    out = [_head(title, category, password)]
    group_xml = "".join(f"<group>{escape(g)}</group>" for g in (groups or []))
    date = int(posted_at or 0)
    poster_attr = quoteattr(poster or "")
    for name, _size, segments in files:
        segments = sorted(segments)
        total = max((p for p, _m, _b in segments), default=0)
        subject = f'"{_text(name)}" yEnc (1/{total})'
        out.append(f" <file poster={poster_attr} date=\"{date}\" subject={quoteattr(subject)}>\n"
                   f"  <groups>{group_xml}</groups>\n  <segments>".encode("utf-8"))
        if segments:
            out.append(segment_lines(segments, _slow_mid))
        out.append(b"  </segments>\n </file>")
    out.append(b"</nzb>\n")
    return b"\n".join(out)


def chunk_nzb(chunk: bytes, title: str, poster: str, posted_at: int | None, groups: list,
              category: str | None = None, password: str | None = None) -> bytes:
    """render_bytes(decode(chunk), ...), in one pass in C when the codec is built
    (ValueError on a corrupt chunk either way)."""
    if decode_nzb is None:
        return render_bytes(decode(chunk), title, poster, posted_at, groups, category, password)
    group_xml = "".join([f"<group>{escape(g)}</group>" for g in (groups or [])])
    return decode_nzb(chunk, _head(title, category, password) + b"\n",
                      f" <file poster={quoteattr(poster or '')} date=\"{int(posted_at or 0)}\" subject=".encode(),
                      f">\n  <groups>{group_xml}</groups>\n  <segments>\n".encode())


def nzb_bytes(rel: dict) -> bytes:
    """nzb_text(rel) as UTF-8, the fast way."""
    cat = rel["nzb_category"]
    return chunk_nzb(rel["chunk"], rel["name"], rel["poster"], rel["posted"], rel["groups"],
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
