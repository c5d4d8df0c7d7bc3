"""NZB 1.1 of decoded files in plain Python: the oracle the compiled writer
(ext.codec.nzb, behind voyager.nzb() and t=get) is held to byte for byte."""
from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

DOCTYPE = ('<!DOCTYPE nzb PUBLIC "-//newzBin//DTD NZB 1.1//EN" '
           '"http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd">')
NAMESPACE = "http://www.newzbin.com/DTD/2003/nzb"


# what XML 1.0 forbids: control characters but TAB, LF and CR, lone
# surrogates, U+FFFE and U+FFFF (each replaced by U+FFFD, as the feeds do)
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(s: str) -> str:
    return NOT_XML.sub("\ufffd", s)


def _text(b: bytes) -> str:
    try:
        s = b.decode("utf-8")
    except UnicodeDecodeError:
        s = b.decode("latin-1")
    return _xml(s)


def render(files, title: str, poster: str, posted_at: int | None, groups: list,
           category: str | None = None, password: str | None = None) -> str:
    """The NZB of a release from the files the codec decoded, (name, bytes,
    [(part, message-id, bytes)]) in order: <meta> for the title, the category
    and a known password; a <file> per file with its segments in part order."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', DOCTYPE, f'<nzb xmlns="{NAMESPACE}">', " <head>"]
    out.append(f'  <meta type="title">{escape(_xml(title or ""))}</meta>')
    if category:
        out.append(f'  <meta type="category">{escape(_xml(str(category)))}</meta>')
    if password:
        out.append(f'  <meta type="password">{escape(_xml(password))}</meta>')
    out.append(" </head>")
    group_xml = "".join(f"<group>{escape(_xml(g))}</group>" for g in (groups or []))
    date = int(posted_at or 0)
    poster_attr = quoteattr(_xml(poster or ""))
    for name, _size, segments in files:
        segments = sorted(segments)
        total = max((p for p, _m, _b in segments), default=0)
        subject = f'"{_text(name)}" yEnc (1/{total})'
        out.append(f" <file poster={poster_attr} date=\"{date}\" subject={quoteattr(subject)}>")
        out.append(f"  <groups>{group_xml}</groups>")
        out.append("  <segments>")
        out.extend([f'   <segment bytes="{nbytes}" number="{part}">{escape(_text(mid))}</segment>'
                    for part, mid, nbytes in segments])
        out.append("  </segments>")
        out.append(" </file>")
    out.append("</nzb>")
    return "\n".join(out) + "\n"
