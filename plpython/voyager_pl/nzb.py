"""NZB 1.1 from a release chunk, in the database's own Python (voyager.nzb_from_chunk).

render() takes decoded files, so that the web process, which decodes with the
Cython codec, serves the same bytes as voyager.nzb()."""
from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

try:                     # the compiled codec, when the set-up could install it (scripts/setup.sh)
    from voyager_pl_ext.codec import decode
except ImportError:      # the pure-Python twin: same chunks, slower
    from .codec import decode

DOCTYPE = ('<!DOCTYPE nzb PUBLIC "-//newzBin//DTD NZB 1.1//EN" '
           '"http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd">')
NAMESPACE = "http://www.newzbin.com/DTD/2003/nzb"


def _text(b: bytes) -> str:
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b.decode("latin-1")


def build(chunk: bytes, title: str, poster: str, posted_at: int | None, groups: list,
          category: str | None = None, password: str | None = None) -> str:
    """The NZB of one release: a <file> per file of the chunk with its poster,
    date, subject, groups and segments in part order; <meta> for the title,
    the category and a known password."""
    return render(decode(bytes(chunk)), title, poster, posted_at, groups, category, password)


def render(files, title: str, poster: str, posted_at: int | None, groups: list,
           category: str | None = None, password: str | None = None) -> str:
    """build() from the files the codec decoded: (name, bytes, [(part, message-id, bytes)])."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', DOCTYPE, f'<nzb xmlns="{NAMESPACE}">', " <head>"]
    out.append(f'  <meta type="title">{escape(title or "")}</meta>')
    if category:
        out.append(f'  <meta type="category">{escape(str(category))}</meta>')
    if password:
        out.append(f'  <meta type="password">{escape(password)}</meta>')
    out.append(" </head>")
    group_xml = "".join(f"<group>{escape(g)}</group>" for g in (groups or []))
    date = int(posted_at or 0)
    poster_attr = quoteattr(poster or "")
    for name, _size, segments in files:
        segments = sorted(segments)
        total = max((p for p, _m, _b in segments), default=0)
        subject = f'"{_text(name)}" yEnc (1/{total})'
        out.append(f" <file poster={poster_attr} date=\"{date}\" subject={quoteattr(subject)}>")
        out.append(f"  <groups>{group_xml}</groups>")
        out.append("  <segments>")
        mids = b"\n".join(m for _p, m, _b in segments)
        # message-ids are ASCII without markup almost always: one check a file, not one a segment
        plain = mids.isascii() and not (b"&" in mids or b"<" in mids or b">" in mids)
        texts = mids.decode("ascii").split("\n") if plain else []
        if len(texts) != len(segments):
            texts = [escape(_text(m)) for _p, m, _b in segments]
        out.extend([f'   <segment bytes="{nbytes}" number="{part}">{mid}</segment>'
                    for (part, _m, nbytes), mid in zip(segments, texts)])
        out.append("  </segments>")
        out.append(" </file>")
    out.append("</nzb>")
    return "\n".join(out) + "\n"
