"""Names, posters, posting tools and subject shapes of the simulated Usenet.

Each helper takes the generator's `random.Random` so a corpus is the same
bytes for the same seed. The shapes follow what real
alt.binaries.* overview data shows.
"""
from __future__ import annotations

import codecs
import random
import string

class Random(random.Random):
    """random.Random with randbytes drawn from a pooled buffer: the same bytes
    for the same seed, without a Python-level getrandbits per byte string
    (the generator asks for millions of message-id tokens)."""

    def seed(self, *args, **kwargs):
        super().seed(*args, **kwargs)
        self._pool = b""
        self._at = 0

    def randbytes(self, n: int) -> bytes:
        if self._at + n > len(self._pool):
            self._pool = self.getrandbits(1 << 19).to_bytes(1 << 16, "little")
            self._at = 0
            if n > len(self._pool):
                return self.getrandbits(n * 8).to_bytes(n, "little")
        at = self._at
        self._at = at + n
        return self._pool[at:at + n]


ALNUM = string.ascii_letters + string.digits
LOWER = string.ascii_lowercase + string.digits

# -- release names -------------------------------------------------------------

_WORDS = (
    "Silent Harbor Winter Echo Crimson River Last Frontier Shadow Kingdom Broken Arrow "
    "Golden Hour Night Train Iron Sky Hidden Valley Lost City Cold Case Blue Planet "
    "Dark Matter Wild Card Paper Moon Summer Storm Deep Water Black Mirror Open Road "
    "Glass House Red Line Burning Bridge Quiet Storm Northern Lights Second Chance "
    "Eternal Sunshine Falling Star Silver Lining Steel City Royal Flush Hollow Point"
).split()
_GROUPS = "NTb FLUX SMURF GGEZ CAKES EDITH KOGi SiGMA RARBG NOGRP TEPES playWEB HONE BAE PHOENiX".split()
_ARTISTS = "Aurora Moonlit Skies|The Velvet Echo|DJ Kestrel|Nina Hart|Cold Harbour|Los Relojes|Amon Dahl|Sister Vale".split("|")
_AUTHORS = "Jane Austen|Terry Pratchett|Ursula K. Le Guin|Isaac Asimov|Agatha Christie|Stephen King|Mary Beard".split("|")
_SOFT = "Adobe.Photoshop|Microsoft.Office|AutoCAD|Windows.11|CorelDRAW|Nero.Platinum|VMware.Workstation|Ableton.Live".split("|")


def _title(rng: random.Random, words: int) -> list[str]:
    return [rng.choice(_WORDS) for _ in range(words)]


def tv_name(rng: random.Random) -> str:
    t = ".".join(_title(rng, rng.randint(1, 3)))
    res = rng.choice(["720p", "1080p", "1080p", "2160p"])
    src = rng.choice(["WEB", "WEB-DL", "WEBRip", "HDTV", "BluRay"])
    codec = rng.choice(["x264", "h264", "x265", "HEVC"])
    return f"{t}.S{rng.randint(1, 12):02d}E{rng.randint(1, 24):02d}.{res}.{src}.{codec}-{rng.choice(_GROUPS)}"


def movie_name(rng: random.Random) -> str:
    t = ".".join(_title(rng, rng.randint(1, 3)))
    res = rng.choice(["720p", "1080p", "1080p", "2160p"])
    src = rng.choice(["WEB-DL", "BluRay", "UHD.BluRay", "WEBRip", "REMUX"])
    codec = rng.choice(["x264", "x265", "H.264", "HEVC", "AV1"])
    return f"{t}.{rng.randint(1970, 2026)}.{res}.{src}.{codec}-{rng.choice(_GROUPS)}"


def music_name(rng: random.Random) -> str:
    fmt = rng.choice(["FLAC", "MP3 320", "MP3 V0", "WEB FLAC"])
    return f"{rng.choice(_ARTISTS)} - {' '.join(_title(rng, 2))} ({rng.randint(1965, 2026)}) [{fmt}]"


def book_name(rng: random.Random) -> str:
    return f"{rng.choice(_AUTHORS)} - {' '.join(_title(rng, rng.randint(2, 4)))} ({rng.randint(1950, 2026)})"


def software_name(rng: random.Random) -> str:
    return f"{rng.choice(_SOFT)}.{rng.randint(2015, 2026)}.v{rng.randint(1, 30)}.{rng.randint(0, 9)}.x64-{rng.choice(_GROUPS)}"


def hex32(rng: random.Random) -> str:
    """A random 32-hex token: the commonest obfuscated name."""
    return rng.randbytes(16).hex()


def private_hash(rng: random.Random) -> str:
    """A `[PRiVATE]` style hash subject (no counter)."""
    return f"[PRiVATE] {rng.randbytes(20).hex()}"


# 256 byte values onto 62 letters and digits (a slight bias is harmless here):
# one randbytes call instead of a choice per character.
_ALNUM_TABLE = bytes(ord(ALNUM[i % 62]) for i in range(256))


def scrambled(rng: random.Random, n: int) -> str:
    """n random letters and digits."""
    return rng.randbytes(n).translate(_ALNUM_TABLE).decode()


def rot13(s: str) -> str:
    return codecs.encode(s, "rot13")


# -- posters and posting tools --------------------------------------------------
# A tool is recognisable by its Message-ID (and often its poster). The window
# reads the tool from these shapes; keep them in step with ext/.

WEBMAIL = ("gmail.com", "hotmail.com", "yahoo.com", "outlook.com", "gmx.de", "web.de")


def poster_for(tool: str, rng: random.Random) -> str:
    if tool == "powerpost":
        return rng.choice(["Yenc@power-post.org (Yenc-PP-GPG)", "Yenc@power-post.org (Yenc-PP-A&A)",
                           f"{scrambled(rng, 8)}@power-post.org (Yenc-PP)"])
    if tool == "nyuu":
        return f"{scrambled(rng, 8)} <{scrambled(rng, 8).lower()}@{scrambled(rng, 6).lower()}.com>"
    if tool == "ngpost":
        return f"{scrambled(rng, 10)}@ngPost.com"
    if tool == "jbinup":
        return "JBinUp <jbinup@jbinup.local>"
    if tool == "newsmangler":
        return f"{rng.choice(['uploader', 'poster', 'anon'])}{rng.randint(1, 999)} <{rng.choice(['up', 'x'])}@news.mangler>"
    if tool == "gopoststuff":
        return f"{scrambled(rng, 12)} <gps@gopoststuff.local>"
    if tool == "webmail":
        name = rng.choice(["John", "Maria", "Peter", "Anna", "Mike", "Lisa"])
        return f"{name} <{name.lower()}{rng.randint(10, 9999)}@{rng.choice(WEBMAIL)}>"
    raise ValueError(tool)


class MessageIds:
    """Message-IDs in each tool's own format (without the angle brackets)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.serial = 0

    def __call__(self, tool: str, part: int, parts: int, t: float = 0.0) -> str:
        rng = self.rng
        self.serial += 1
        if tool == "powerpost":
            return f"part{part}of{parts}.{scrambled(rng, 20)}@powerpost2000AA.local"
        if tool == "nyuu":
            return f"{scrambled(rng, 24)}-{rng.randint(1_600_000_000_000, 1_790_000_000_000)}@nyuu"
        if tool == "ngpost":
            return f"{rng.randbytes(16).hex()}@ngPost"
        if tool == "jbinup":
            return f"part{part}of{parts}.{scrambled(rng, 16)}@JBinUp.local"
        if tool == "newsmangler":
            return f"{rng.randint(1_600_000_000, 1_790_000_000)}.{rng.randint(100000, 999999)}.{part}@{scrambled(rng, 6).lower()}.newsmangler"
        if tool == "gopoststuff":
            return f"{rng.randbytes(8).hex()}-{rng.randbytes(4).hex()}@gopoststuff"
        if tool == "webmail":
            return f"{rng.randbytes(6).hex()}.{self.serial}@{rng.choice(WEBMAIL)}"
        raise ValueError(tool)


# -- subject shapes -------------------------------------------------------------
# A subject template holds `%(part)d` for the yEnc part counter; everything else
# is fixed per file. The shapes are the common ones on alt.binaries.*.

SHAPES = ("counter_first", "name_first", "quoted_only", "parens_name", "dash_name", "sized", "unquoted", "wtfnzb")


def subject_template(shape: str, release: str, fname: str, i: int, n: int, parts: int, size: int) -> str:
    fc = f"[{i:0{len(str(n))}d}/{n}]"
    yc = f"yEnc (%(part)d/{parts})"
    if shape == "counter_first":
        return f'{fc} - "{fname}" {yc}'
    if shape == "name_first":
        return f'{release} {fc} - "{fname}" {yc}'
    if shape == "quoted_only":
        return f'"{fname}" {yc}'
    if shape == "parens_name":
        return f'({release}) {fc} - "{fname}" {yc}'
    if shape == "dash_name":
        return f'{release} - {fc} - "{fname}" {yc}'
    if shape == "sized":
        return f'{fc} - "{fname}" - {size / 1048576:.2f} MB {yc}'
    if shape == "unquoted":
        return f"{release} - {fname} {yc}"
    if shape == "wtfnzb":
        return f'[PRiVATE]-[WtFnZb]-[{release}/{fname}]-[{i}/{n}] - "" yEnc {size} (%(part)d/{parts})'
    raise ValueError(shape)


def random_name(rng: random.Random) -> str:
    """A file name an obfuscating poster gives each file of its own: 32 hex,
    or 20-40 letters and digits, mostly without an extension."""
    roll = rng.random()
    if roll < 0.5:
        return hex32(rng)
    name = scrambled(rng, rng.randint(20, 40))
    return name + ".bin" if roll > 0.9 else name


def scene_name(release: str) -> str:
    """A release's short scene file name (`grp-silentharbors01e02-720p`): what
    its files are often called before a poster renames them after the release."""
    title, _, group = release.rpartition("-")
    words = title.split(".")
    res = next((w for w in words if w.endswith("p") and w[:-1].isdigit()), "")
    head = "".join(w.lower() for w in words[:4] if w != res)[:24]
    return "-".join(p for p in (group.lower(), head, res) if p)
