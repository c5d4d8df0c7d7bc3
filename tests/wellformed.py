"""Strict XML: every NZB, feed and API document a test makes is parsed by
expat (xml.etree.ElementTree), which refuses what is not well-formed XML 1.0
(control characters, U+FFFE/U+FFFF, bad UTF-8, unescaped markup)."""
from __future__ import annotations

import xml.etree.ElementTree as ET


def parse(doc: bytes | str) -> ET.Element:
    """The document's root element; AssertionError, with where, when it is not XML 1.0."""
    data = doc.encode("utf-8") if isinstance(doc, str) else bytes(doc)
    try:
        return ET.fromstring(data)
    except ET.ParseError as e:
        line, col = e.position
        lines = data.split(b"\n")
        near = lines[line - 1][max(0, col - 40):col + 40] if 0 < line <= len(lines) else b""
        raise AssertionError(f"not well-formed XML 1.0: {e} near {near!r}") from None


XML_TYPES = ("application/xml", "text/xml", "application/rss+xml", "application/atom+xml", "application/x-nzb")


def check_response(content_type: str | None, body: bytes) -> None:
    """An HTTP answer's body parsed when its type is an XML one (RSS, NZB, errors, caps)."""
    if content_type and content_type.split(";")[0].strip().lower() in XML_TYPES and body:
        parse(body)
