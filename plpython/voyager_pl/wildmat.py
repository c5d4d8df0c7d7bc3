"""RFC 3977 wildmat: `alt.binaries.*,!alt.binaries.*.d` style group patterns.

A wildmat is a comma-separated list of patterns, each optionally negated by a
leading `!`; `*` matches any run of characters, `?` one character, and INN's
character classes `[...]` are accepted too. The last pattern that matches
decides: a plain one accepts, a negated one rejects; no match rejects.
"""
from __future__ import annotations

import re
from functools import lru_cache


def _translate(pattern: str) -> str:
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "[":
            j = pattern.find("]", i + 2 if pattern[i + 1:i + 2] in ("!", "^", "]") else i + 1)
            if j < 0:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1:j]
                if body[:1] in ("!", "^"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j
        elif c == "\\" and i + 1 < len(pattern):
            i += 1
            out.append(re.escape(pattern[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@lru_cache(maxsize=256)
def compile_wildmat(wildmat: str) -> list[tuple[bool, re.Pattern[str]]]:
    parts = []
    for raw in wildmat.split(","):
        raw = raw.strip()
        if not raw:
            continue
        negated = raw.startswith("!")
        if negated:
            raw = raw[1:]
        parts.append((negated, re.compile(_translate(raw), re.DOTALL)))
    return parts


def match(wildmat: str, name: str) -> bool:
    """True when the group name is accepted by the wildmat."""
    accepted = False
    for negated, rx in compile_wildmat(wildmat):
        if rx.fullmatch(name):
            accepted = not negated
    return accepted
