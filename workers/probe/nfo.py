"""NFO: the scene's text file, cp437 as NFOs are written: its title line,
the media ids of the sites it links to and a password written in it."""
from __future__ import annotations

import re

from .errors import ProbeError

MAX_TEXT = 256 << 10            # an NFO is a few KiB; more is not one
MAX_IDS = 20
TITLE_MAX = 255
# bytes no text file holds (tab, line ends, form feed and DOS's end-of-file aside)
_CONTROL = bytes(c for c in range(32) if c not in (9, 10, 12, 13, 26))

# a release name: no spaces, words joined by dots, dashes or underscores
_RELEASE = re.compile(r"[A-Za-z0-9][\w()&'+\[\]]*(?:[.\-_][\w()&'+\[\]]+){2,}")
_WORDS = re.compile(r"[A-Za-z0-9]")
_LABEL = re.compile(r"^\W*(?:release|title|name|titel)\W*\s*[:.]+\s*(\S.*?)\s*$", re.IGNORECASE)
_SITES = (
    ("imdb", re.compile(r"imdb\.[a-z.]{2,6}/(?:[a-z]{2}/)?title/(tt\d{5,10})", re.IGNORECASE)),
    ("tvmaze", re.compile(r"tvmaze\.com/shows/(\d{1,9})", re.IGNORECASE)),
    ("tvdb", re.compile(r"thetvdb\.com/\S{0,200}?[?&](?:series)?id=(\d{1,9})", re.IGNORECASE)),
    ("tvdb", re.compile(r"thetvdb\.com/(?:dereferrer/)?series/([\w\-]{1,100})", re.IGNORECASE)),
    ("tmdb", re.compile(r"themoviedb\.org/(movie|tv)/(\d{1,9})", re.IGNORECASE)),
)
_PASSWORD = (
    re.compile(r"^[^\w\n]*(?:password|passwort|passwd|pass|pw|wachtwoord)\s*[:=]\s*(\S[^\r\n]{0,120}?)\s*$",
               re.IGNORECASE | re.MULTILINE),
    re.compile(r"\{\{([^{}\r\n]{1,120})\}\}"),
)
_NO_PASSWORD = {"none", "no", "n/a", "na", "-", "--", "nope", "nil", "null", "keins", "geen",
                "not needed", "no password", "not required"}


def text_of(data: bytes) -> str:
    """The text of an NFO, or ProbeError nfo-binary for bytes that are not one."""
    data = data[:MAX_TEXT]
    if not data.strip():
        raise ProbeError("nfo-empty")
    if b"\x00" in data or sum(data.count(c) for c in _CONTROL[1:]) > len(data) // 50:
        raise ProbeError("nfo-binary")
    try:
        text = data.decode("utf-8")     # some are; cp437 would turn their accents to art
    except UnicodeDecodeError:
        text = data.decode("cp437")
    return text.replace("\r\n", "\n").rstrip("\x1a")


def title_of(text: str) -> str | None:
    """The line naming the release: a labelled one, else the first release
    name in the text, else the first line that reads as words."""
    lines = [line.strip()[:TITLE_MAX] for line in text.split("\n", 400)[:400]]
    for line in lines:
        label = _LABEL.match(line)
        if label and _RELEASE.fullmatch(label.group(1)):
            return label.group(1)[:TITLE_MAX]
    for line in lines:
        found = _RELEASE.search(line)
        if found and len(found.group(0)) >= 8:
            return found.group(0)[:TITLE_MAX]
    for line in lines:
        dense = line.replace(" ", "")
        if len(_WORDS.findall(line)) >= 4 and len(_WORDS.findall(line)) * 2 >= len(dense):
            return line[:TITLE_MAX]
    return None


def media_ids(text: str) -> list[dict]:
    seen, out = set(), []
    for site, pattern in _SITES:
        for m in pattern.finditer(text):
            ident = "/".join(m.groups()).lower() if site == "tmdb" else m.group(1)
            if (site, ident) not in seen and len(out) < MAX_IDS:
                seen.add((site, ident))
                out.append({"site": site, "id": ident})
    return out


def password_of(text: str) -> str | None:
    for pattern in _PASSWORD:
        for m in pattern.finditer(text):
            value = m.group(1).strip()
            if value.startswith("{{") and value.endswith("}}"):
                value = value[2:-2].strip()
            if value and value.lower().strip(".!") not in _NO_PASSWORD:
                return value
    return None


def read(data: bytes) -> dict:
    """{text, title, media_ids, password} of an NFO's bytes."""
    text = text_of(data)
    return {"text": text, "title": title_of(text), "media_ids": media_ids(text),
            "password": password_of(text)}
