"""A spot's description as text: Spotnet writes line breaks as [br] and
formats with UBB tags ([b], [i], [u], [url=…]…[/url], [img=…], [quote],
[size=…], [color=…], [center], [list], [*]), and its XML escapes HTML
entities (&#223;)."""
from __future__ import annotations

import html
import re

MAX_TEXT = 64 << 10
_URL = re.compile(r"\[url=([^\]\s]{1,500})\]([^\[]{0,500})\[/url\]", re.IGNORECASE)
_TAG = re.compile(r"\[/?(?:b|i|u|s|quote|center|left|right|list|\*|code|"
                  r"(?:url|img|size|color|colour|font)(?:=[^\]]{0,500})?)\]", re.IGNORECASE)
_BR = re.compile(r"\[br\]", re.IGNORECASE)
_SPACES = re.compile(r"[ \t]+\n")


def text(markup: str) -> str:
    """The plain text of a spot's description (or title)."""
    s = html.unescape(markup[:MAX_TEXT])
    s = _BR.sub("\n", s)
    s = _URL.sub(lambda m: m.group(2).strip() or m.group(1), s)
    s = _TAG.sub("", s)
    s = s.replace("\r\n", "\n").replace("\r", "\n")
    return _SPACES.sub("\n", s).strip()
