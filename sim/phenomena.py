"""The uploads the simulated Usenet is made of: one function per phenomenon.

Each phenomenon returns one or more `Upload`s with their files and segments
(message-ids, sizes, posting times) and the ground truth kind:

- release: one catalog release holds exactly these segments
- album:   one catalog release (source album) holds exactly these files
- pending: every file random-named: a pending release, not the catalog
- drop:    no catalog release holds any of it; `rule` names the rule that counts it

Rule names (the window counts drops under the same names): stub-archive,
nonsense-piece, tiny-archive, bare-executable, obfuscated-subject (counterless
random subjects, one per article), counterless (a readable post without a yEnc
part counter), scrambled (a random subject and poster per article).
"""
from __future__ import annotations

import math
import random
from itertools import accumulate
from math import log
from dataclasses import dataclass, field

from . import names as N
from .bodyparts.text import shows_password

# Article payloads: a yEnc part of 716,800 bytes (128-char lines) is the common
# default; Power-Post's 250 kB parts trip the stub-archive rule's leg A.
PART_BYTES = (716_800, 716_800, 768_000, 640_000, 384_000)
POWERPOST_PART = 250_000     # Power-Post's 250 kB default: articles just under 256 KiB

# Groups whose communities post real single small archives (exempt from the
# single-archive rules), by a word in the group name.
EXEMPT_WORDS = ("sounds", "mp3", "music", "ebook", "e-book", "comics", "tabs", "fonts", "karaoke")


def is_exempt_group(group: str) -> bool:
    return any(w in group for w in EXEMPT_WORDS)


@dataclass
class File:
    name: str                 # as posted
    kind: str                 # content kind (sim.bodies)
    size: int                 # file bytes
    parts: int                # announced yEnc parts
    subject: str              # template with %(part)d
    segments: list = field(default_factory=list)   # [part, message-id, article bytes]
    times: list = field(default_factory=list)      # posting time of each posted segment
    posters: list | None = None                    # one poster per article (scrambled)
    # Per-article uploads (counterless, scrambled) are one File whose articles
    # each carry a subject and name of their own: a file each in the truth.
    subjects: list | None = None
    article_names: list | None = None
    volume: int = 1
    volumes: int = 1
    yenc_name: str | None = None
    members: list = field(default_factory=list)
    password: str | None = None
    seed: int = 0
    part_size: int = 716_800                       # bytes of the file per article (the last holds the rest)
    numbers: list | None = None                    # per segment: [(group, article number)], set when numbered
    release: str | None = None                     # the release its content belongs to, when not its upload's
    common: bool = False                           # the same small file inside many uploads (an advert)
    renamed_from: str | None = None                # the name its par2 knows it by, when posted under another
    gone: bool = False                             # the server answers its bodies 430 (taken down)


@dataclass
class Upload:
    kind: str                 # release | album | pending | drop
    groups: list              # posted to; the owner is the one with the lowest priority number
    poster: str
    tool: str
    name: str
    files: list
    rule: str | None = None
    complete: bool = True
    skew: float = 0.0         # seconds the poster's clock is off (Date headers only)
    latin1: bool = False      # the subject is Latin-1, not UTF-8
    phenomenon: str = ""
    # phase 2's truth (written only under a --profile): the shapes it has, what
    # can name it, the upload it is a piece of (posted apart) or repeats
    shapes: list = field(default_factory=list)
    named_by: str | None = None
    piece_of: "Upload | None" = None
    repost_of: "Upload | None" = None
    junk: str | None = None   # the judge's verdict it must get (the junk profile's truth key)

    @property
    def articles(self) -> int:
        return sum(len(f.segments) for f in self.files)


class Poster:
    """Hands out posting times: `speed` articles a second from `start`."""

    def __init__(self, start: float, speed: float):
        self.t = start
        self.speed = speed

    def next(self, rng: random.Random) -> float:
        self.t += rng.expovariate(self.speed)
        return self.t


def _article_bytes(part_size: int, rng: random.Random) -> int:
    # yEnc overhead ~2% plus 380-635 bytes of headers
    return int(part_size * 1.0235) + 380 + rng.getrandbits(8)


def make_file(ctx, name: str, kind: str, size: int, subject: str, part_size: int, clock: Poster,
              tool: str, **extra) -> File:
    rng = ctx.rng
    parts = max(1, math.ceil(size / part_size))
    f = File(name=name, kind=kind, size=size, parts=parts, subject=subject, seed=rng.getrandbits(48),
             part_size=part_size, **extra)
    rnd, bits, msgid = rng.random, rng.getrandbits, ctx.msgid
    mean = 1.0 / clock.speed
    # exponential gaps between articles (inlined expovariate: the same draws, no call each)
    f.times = list(accumulate([-log(1.0 - rnd()) * mean for _ in range(parts)], initial=clock.t))[1:]
    clock.t = f.times[-1]
    full = int(part_size * 1.0235) + 380     # yEnc overhead ~2% plus the headers
    f.segments = [[k, msgid(tool, k, parts), full + bits(8)] for k in range(1, parts + 1)]
    last = size - part_size * (parts - 1)
    f.segments[-1][2] = _article_bytes(last, rng)
    return f


def _subject(shape, release, fname, i, n, parts, size):
    return N.subject_template(shape, release, fname, i, n, parts, size)


def _tool(rng: random.Random) -> str:
    return rng.choices(["powerpost", "nyuu", "ngpost", "jbinup", "newsmangler", "gopoststuff"],
                       [25, 30, 20, 5, 10, 10])[0]


def _archive_set(rng: random.Random, stem: str, total: int) -> tuple[list[tuple[str, str, int]], str]:
    """Volume names of one archive set: new-style .partNN.rar, old-style .rar/.rNN, or .7z.NNN."""
    style = rng.choices(["part", "old", "7z"], [60, 25, 15])[0]
    rar_kind = "rar5" if rng.random() < 0.5 else "rar"   # one format for the whole set
    vols = max(1, math.ceil(total / rng.choice([50, 100, 250, 500]) / 1048576))
    width = max(2, len(str(vols)))
    out = []
    each = math.ceil(total / vols)
    for v in range(1, vols + 1):
        size = each if v < vols else total - each * (vols - 1)
        if style == "part":
            out.append((f"{stem}.part{v:0{width}d}.rar", rar_kind, size))
        elif style == "old":
            out.append((f"{stem}.rar" if v == 1 else f"{stem}.r{v - 2:02d}", "rar", size))
        else:
            out.append((f"{stem}.7z.{v:03d}", "7z", size))
    return out, style


def _par2_files(stem: str, total: int, rng: random.Random) -> list[tuple[str, str, int]]:
    out = [(f"{stem}.par2", "par2", rng.randint(20_000, 60_000))]
    blocks = 1
    for _ in range(rng.randint(2, 5)):
        out.append((f"{stem}.vol{blocks - 1:02d}+{blocks:02d}.par2", "par2vol", max(1, total // 400) * blocks))
        blocks *= 2
    return out


# -- phenomena ------------------------------------------------------------------

def multi_file(ctx, group: str, start: float) -> list[Upload]:
    """A readable multi-file upload: an archive set with par2 (and sometimes an
    .nfo, .sfv, an .nzb sidecar under another counter), in one subject shape;
    sometimes incomplete, reposted days later, or filled after the window."""
    rng = ctx.rng
    genre = ctx.profile_genre(group)
    release = {"tv": N.tv_name, "movie": N.movie_name, "music": N.music_name, "book": N.book_name,
               "software": N.software_name}[genre](rng)
    tool = _tool(rng)
    poster = N.poster_for(tool, rng)
    shape = rng.choices(N.SHAPES, [30, 20, 12, 6, 8, 8, 4, 6])[0]
    inner = {"tv": ".mkv", "movie": ".mkv", "music": ".flac", "book": ".epub", "software": ".iso"}[genre]
    total = int(rng.lognormvariate(math.log(1.2e9 if genre in ("tv", "movie") else 2.5e8), 0.9))
    total = max(5_000_000, min(total, 15_000_000_000, ctx.cap_bytes))
    if genre == "music" and rng.random() < 0.5:
        files = [(f"{i:02d} - {release.split(' - ')[0]} - Track {i}.flac", "flac", rng.randint(15, 60) * 1048576)
                 for i in range(1, rng.randint(6, 15))]
        files.append((f"{release}.nfo", "nfo", rng.randint(2000, 9000)))
        password = None
        # tracks have names of their own: only the subject's release name ties them together
        shape = rng.choice(["name_first", "dash_name", "parens_name"])
    else:
        files, _style = _archive_set(rng, release, total)
        password = "secret" if rng.random() < 0.03 else None
        files += _par2_files(release, total, rng)
        if rng.random() < 0.3:
            files.append((f"{release}.nfo", "nfo", rng.randint(2000, 9000)))
        if rng.random() < 0.15:
            files.append((f"{release}.sfv", "sfv", rng.randint(200, 3000)))
    members = [{"name": release + inner, "bytes": total}]
    part_size = rng.choice(PART_BYTES) if tool != "powerpost" else rng.choice([716_800, POWERPOST_PART])
    latin1 = rng.random() < 0.01
    if latin1:
        release = release.replace("Winter", "Wintér").replace("Echo", "Écho")
        files = [(f.replace("Winter", "Wintér").replace("Echo", "Écho"), k, s) for f, k, s in files]
    clock = Poster(start, rng.uniform(3, 40) if rng.random() < 0.8 else rng.uniform(0.05, 1.0))
    groups = ctx.crosspost(group, 0.05)
    up = Upload(kind="release", groups=groups, poster=poster, tool=tool, name=release, files=[],
                latin1=latin1, phenomenon="multi_file", skew=ctx.skew())
    n = len(files)
    for i, (fname, kind, size) in enumerate(files, 1):
        vol = i if kind in ("rar", "rar5", "7z") else 1
        nvol = sum(1 for _, k, _ in files if k in ("rar", "rar5", "7z")) if kind in ("rar", "rar5", "7z") else 1
        subj = _subject(shape, release, fname, i, n, math.ceil(size / part_size), size)
        f = make_file(ctx, fname, kind, size, subj, part_size, clock, tool, volume=vol, volumes=nvol,
                      members=members if kind in ("rar", "rar5", "7z") else [], password=password)
        up.files.append(f)
    _par2_members(up)
    out = [up]
    if rng.random() < 0.05:
        out += _make_incomplete(ctx, up)
    if rng.random() < 0.03:
        out.append(_repost(ctx, up, days=rng.uniform(2, 6)))
    if rng.random() < 0.03 and shape in ("counter_first", "name_first"):
        out.append(_nzb_sidecar(ctx, up, n, clock))
    return out


def _par2_members(up: Upload) -> None:
    """The par2 set protects the upload's other files (phase 2 matches them by their first 16 KiB)."""
    protected = [f for f in up.files if f.kind not in ("par2", "par2vol")]
    specs = [{"name": f.renamed_from or f.yenc_name or f.name, "bytes": f.size, "kind": f.kind, "volume": f.volume,
              "volumes": f.volumes, "release": f.release or up.name, "password": f.password, "seed": f.seed,
              "members": f.members, "part_size": f.part_size}
             for f in protected]
    for f in up.files:
        if f.kind in ("par2", "par2vol"):
            f.members = specs


def _make_incomplete(ctx, up: Upload) -> list[Upload]:
    """Some articles never arrive; sometimes a fill posts them days later,
    after the window: a release of its own."""
    rng = ctx.rng
    up.complete = False
    victims = [f for f in up.files if len(f.segments) > 3]
    if not victims:
        victims = up.files
    missing: list[tuple[File, list]] = []
    for f in rng.sample(victims, max(1, len(victims) // 4)):
        k = max(1, len(f.segments) // rng.randint(10, 40))
        idx = sorted(rng.sample(range(len(f.segments)), k))
        gone = [f.segments[i] for i in idx]
        keep = [i for i in range(len(f.segments)) if i not in set(idx)]
        f.segments = [f.segments[i] for i in keep]
        f.times = [f.times[i] for i in keep]
        missing.append((f, gone))
    if rng.random() < 0.35:
        start = max(t for f in up.files for t in f.times) + rng.uniform(1.5, 4) * 86400
        clock = Poster(start, rng.uniform(5, 20))
        fill = Upload(kind="release", groups=up.groups, poster=up.poster, tool=up.tool, name=up.name,
                      files=[], complete=False, phenomenon="fill", skew=up.skew, latin1=up.latin1,
                      shapes=up.shapes, named_by=up.named_by, piece_of=up)
        for f, gone in missing:
            g = File(name=f.name, kind=f.kind, size=f.size, parts=f.parts, subject=f.subject, volume=f.volume,
                     volumes=f.volumes, members=f.members, password=f.password, seed=f.seed,
                     part_size=f.part_size, release=f.release, common=f.common, renamed_from=f.renamed_from)
            for part, _mid, nbytes in gone:
                t = clock.next(rng)
                g.segments.append([part, ctx.msgid(up.tool, part, f.parts, t), nbytes])
                g.times.append(t)
            fill.files.append(g)
        return [fill]
    return []


def _repost(ctx, up: Upload, days: float) -> Upload:
    """The same upload posted again days later: a release of its own."""
    rng = ctx.rng
    start = max(t for f in up.files for t in f.times) + days * 86400
    clock = Poster(start, rng.uniform(5, 30))
    again = Upload(kind=up.kind, groups=up.groups, poster=up.poster, tool=up.tool, name=up.name, files=[],
                   phenomenon="repost", skew=up.skew, latin1=up.latin1, named_by=up.named_by, repost_of=up)
    for f in up.files:
        g = File(name=f.name, kind=f.kind, size=f.size, parts=f.parts, subject=f.subject, volume=f.volume,
                 volumes=f.volumes, members=f.members, password=f.password, seed=f.seed, part_size=f.part_size,
                 release=f.release, common=f.common, renamed_from=f.renamed_from)
        for k in range(1, f.parts + 1):
            t = clock.next(rng)
            g.segments.append([k, ctx.msgid(up.tool, k, f.parts, t), _article_bytes(f.size // f.parts, rng)])
            g.times.append(t)
        again.files.append(g)
    return again


def _nzb_sidecar(ctx, up: Upload, n: int, clock: Poster) -> Upload:
    """An .nzb posted beside the upload under another counter ([00/80] beside
    [01/94]): a release of its own until phase 2 folds it in."""
    rng = ctx.rng
    other = n + rng.randint(-14, -1) if n > 15 else n + rng.randint(1, 9)
    fname = f"{up.name}.nzb"
    subj = f'[00/{other}] - "{fname}" yEnc (%(part)d/1)'
    f = make_file(ctx, fname, "nzb", rng.randint(5000, 60000), subj, 716_800, clock, up.tool)
    return Upload(kind="release", groups=up.groups, poster=up.poster, tool=up.tool, name=fname, files=[f],
                  phenomenon="nzb_sidecar", skew=up.skew, piece_of=up)


def single_file(ctx, group: str, start: float) -> list[Upload]:
    """One readable file: a video, an e-book, a track (most releases have one file)."""
    rng = ctx.rng
    genre = ctx.profile_genre(group)
    if genre == "book":
        release, ext, kind, size = N.book_name(rng), rng.choice([".epub", ".pdf", ".mobi"]), "epub", rng.randint(300_000, 30_000_000)
    elif genre == "music":
        release, ext, kind, size = N.music_name(rng), ".mp3", "mp3", rng.randint(3, 15) * 1048576
    else:
        release, ext, kind, size = N.tv_name(rng), rng.choice([".mkv", ".mp4"]), "mkv", rng.randint(150, 4000) * 1048576
    if ext == ".mp4":
        kind = "mp4"
    elif ext == ".pdf":
        kind = "pdf"
    tool = _tool(rng)
    fname = release + ext
    shape = rng.choice(["counter_first", "quoted_only", "name_first"])
    part_size = rng.choice(PART_BYTES)
    clock = Poster(start, rng.uniform(3, 40))
    subj = _subject(shape, release, fname, 1, 1, math.ceil(size / part_size), size)
    f = make_file(ctx, fname, kind, size, subj, part_size, clock, tool)
    return [Upload(kind="release", groups=ctx.crosspost(group, 0.05), poster=N.poster_for(tool, rng), tool=tool,
                   name=release, files=[f], phenomenon="single_file", skew=ctx.skew())]


def obfuscated(ctx, group: str, start: float) -> list[Upload]:
    """An upload whose every file is random-named (32 hex), counters intact:
    a pending release until phase 2 names it."""
    rng = ctx.rng
    real = rng.choice([N.tv_name, N.movie_name])(rng)
    stem = N.hex32(rng)
    tool = rng.choice(["nyuu", "ngpost", "powerpost"])
    total = max(50_000_000, min(int(rng.lognormvariate(math.log(2e9), 0.8)), 15_000_000_000, ctx.cap_bytes))
    files, _ = _archive_set(rng, stem, total)
    files += _par2_files(stem, total, rng)
    part_size = rng.choice(PART_BYTES)
    clock = Poster(start, rng.uniform(5, 50))
    n = len(files)
    shape = rng.choice(["counter_first", "quoted_only", "name_first"])
    up = Upload(kind="pending", groups=ctx.crosspost(group, 0.04), poster=N.poster_for(tool, rng), tool=tool,
                name=real, files=[], phenomenon="obfuscated", skew=ctx.skew())
    locked = None               # one password a set, as an archiver writes it: its first volume's roll
    for i, (fname, kind, size) in enumerate(files, 1):
        subj = _subject(shape, stem, fname, i, n, math.ceil(size / part_size), size)
        roll = rng.random() < 0.2   # one roll a file still, so the corpus's other draws stay where they were
        archive = kind in ("rar", "rar5", "7z")
        if archive and locked is None:
            locked = roll
        up.files.append(make_file(ctx, fname, kind, size, subj, part_size, clock, tool,
                                  members=[{"name": real + ".mkv", "bytes": total}] if archive else [],
                                  volume=i if archive else 1,
                                  volumes=sum(1 for _, k, _ in files if k in ("rar", "rar5", "7z")) if archive else 1,
                                  password="hidden" if archive and locked else None))
    _par2_members(up)
    if rng.random() < 0.04:
        _make_incomplete(ctx, up)   # no fill for pending ones: keep the truth simple
        up.kind = "pending"
    return [up]


def counterless(ctx, group: str, start: float) -> list[Upload]:
    """Articles without a yEnc part counter: random 32-hex subjects (73%),
    [PRiVATE] hashes (27%), one per article; rarely a readable post. Counted,
    never indexed (phase 2 would need every body)."""
    rng = ctx.rng
    roll = rng.random()
    tool = rng.choice(["nyuu", "ngpost"])
    poster = N.poster_for(tool, rng)
    clock = Poster(start, rng.uniform(5, 60))
    n = rng.randint(40, 1500)
    if roll < 0.004:
        # a readable post without a counter: the subject names no file part
        name = N.movie_name(rng)
        up = Upload(kind="drop", rule="counterless", groups=ctx.crosspost(group, 0.02), poster=poster, tool=tool,
                    name=name, files=[], phenomenon="counterless_readable", skew=ctx.skew())
        subj = f"{name} - {name}.mkv"
        part_size = 716_800
        f = make_file(ctx, name + ".mkv", "mkv", part_size * min(n, 200), subj, part_size, clock, tool)
        up.files.append(f)
        return [up]
    hexes = roll < 0.73
    up = Upload(kind="drop", rule="obfuscated-subject", groups=ctx.crosspost(group, 0.02), poster=poster, tool=tool,
                name="", files=[], phenomenon="counterless_hex" if hexes else "counterless_private", skew=ctx.skew())
    up.files.append(_per_article(ctx, n, clock, tool,
                                 [N.hex32(rng) if hexes else N.private_hash(rng) for _ in range(n)]))
    return [up]


def _per_article(ctx, n: int, clock: Poster, tool: str, names: list, subjects: list | None = None) -> File:
    """n articles of one part each, every one its own file in the truth."""
    f = make_file(ctx, "", "bin", 716_800 * n, "", 716_800, clock, tool)
    for seg in f.segments:
        seg[0] = 1
    f.article_names = names
    f.subjects = subjects or names
    return f


def scrambled(ctx, group: str, start: float) -> list[Upload]:
    """A scrambled upload: a random subject and a random poster per article."""
    rng = ctx.rng
    tool = "nyuu"
    clock = Poster(start, rng.uniform(5, 40))
    up = Upload(kind="drop", rule="scrambled", groups=[group], poster="", tool=tool, name="", files=[],
                phenomenon="scrambled", skew=ctx.skew())
    n = rng.randint(30, 800)
    names = [N.scrambled(rng, rng.randint(14, 24)) for _ in range(n)]
    f = _per_article(ctx, n, clock, tool, names, [f'"{name}" yEnc (1/1)' for name in names])
    f.posters = [f"{N.scrambled(rng, 9)} <{N.scrambled(rng, 7).lower()}@{N.scrambled(rng, 5).lower()}.net>"
                 for _ in range(n)]
    up.files.append(f)
    return [up]


def album(ctx, group: str, start: float) -> list[Upload]:
    """A poster's numbered single files within hours (an image dump): one
    album release named by the shared template."""
    rng = ctx.rng
    tool = rng.choice(["powerpost", "nyuu", "gopoststuff"])
    # an album is one poster's: a poster name of its own (Power-Post's shared ones would join dumps)
    poster = N.poster_for("nyuu", rng) if tool == "powerpost" else N.poster_for(tool, rng)
    n = rng.randint(5, 400)
    style = rng.choice(["epoch", "img", "titled"])
    base = rng.randint(1_400_000_000_000, 1_700_000_000_000)
    first = rng.randint(1, 5000)
    title = " ".join(rng.choice(N._WORDS) for _ in range(2))
    clock = Poster(start, rng.uniform(0.05, 2))
    up = Upload(kind="album", groups=[group], poster=poster, tool=tool, name="", files=[], phenomenon="album",
                skew=ctx.skew())
    for i in range(n):
        if style == "epoch":
            fname = f"{base + i * rng.randint(1, 9)}_{i + 1}.jpg.data"
        elif style == "img":
            fname = f"IMG_{first + i:04d}.jpg"
        else:
            fname = f"{title} - {i + 1:03d}.jpg"
        size = rng.randint(80_000, 700_000)
        up.files.append(make_file(ctx, fname, "jpg", size, f'"{fname}" yEnc (%(part)d/1)', 716_800, clock, tool))
    up.name = {"epoch": "#_#.jpg.data", "img": "IMG_#.jpg", "titled": f"{title} - #.jpg"}[style]
    if n == 1:
        up.kind = "release"
    return [up]


def shogun(ctx, group: str, start: float) -> list[Upload]:
    """The subject parser's miss the album rule glues back together:
    `[n/60] Shogun I (1980) Shogun I (1980).avi.012`, a split file each."""
    rng = ctx.rng
    title = " ".join(rng.choice(N._WORDS) for _ in range(2))
    year = rng.randint(1970, 2010)
    tool = rng.choice(["powerpost", "newsmangler"])
    n = rng.randint(8, 60)
    clock = Poster(start, rng.uniform(3, 20))
    up = Upload(kind="album", groups=[group], poster=N.poster_for(tool, rng), tool=tool,
                name=f"{title} ({year}) {title} ({year}).avi.#", files=[], phenomenon="shogun", skew=ctx.skew())
    for i in range(1, n + 1):
        fname = f"{title} ({year}) {title} ({year}).avi.{i:03d}"
        size = 15_000_000 if i < n else rng.randint(1_000_000, 15_000_000)
        subj = f"[{i}/{n}] {fname} (%(part)d/{math.ceil(size / 716_800)})"
        up.files.append(make_file(ctx, fname, "avi" if i == 1 else "bin", size, subj, 716_800, clock, tool))
    return [up]


def batch_counter(ctx, group: str, start: float) -> list[Upload]:
    """Yenc-PP-A&A's [n/68067]: one poster's many different stems under one
    huge counter. Each stem is a release of its own, without a file total."""
    rng = ctx.rng
    tool = "powerpost"
    poster = "Yenc@power-post.org (Yenc-PP-A&A)"
    total = rng.choice([68067, 24310, 9120, 1500])
    at = rng.randint(1, max(1, total - 500))
    clock = Poster(start, rng.uniform(1, 10))
    out = []
    used = set()
    for i in range(rng.randint(25, 150)):
        stem = "_".join(rng.choice(N._WORDS).lower() for _ in range(3))
        while stem in used:                 # each stem is an upload of its own
            stem += "_" + rng.choice(N._WORDS).lower()
        used.add(stem)
        fname = f"{stem}.{rng.choice(['jpg', 'png', 'gif'])}"
        size = rng.randint(50_000, 900_000)
        subj = f'[{at + i}/{total}] - "{fname}" yEnc (%(part)d/{math.ceil(size / 716_800)})'
        f = make_file(ctx, fname, "jpg", size, subj, 716_800, clock, tool)
        out.append(Upload(kind="release", groups=[group], poster=poster, tool=tool, name=stem, files=[f],
                          phenomenon="batch_counter"))
    return out


# -- floods, and what must survive them ----------------------------------------------

def stub_archive(ctx, group: str, start: float) -> list[Upload]:
    """One unsplit zip/rar/7z under a film or software name, under 100 MB,
    crossposted to 2+ groups with small articles (A), to 4+ groups (X) or by a
    webmail poster (W): the exe-stub and recycled-installer floods."""
    rng = ctx.rng
    leg = rng.choice("AXW")
    name = rng.choice([N.movie_name, N.software_name, N.tv_name])(rng)
    ext, kind = rng.choice([(".zip", "zip"), (".rar", "rar"), (".7z", "7z")])
    # the fakes stop at ~90 MB; most are a few MB
    size = min(95_000_000, max(1_100_000, int(rng.lognormvariate(math.log(6e6), 0.9))))
    if leg == "A":
        tool, part_size, groups = "powerpost", POWERPOST_PART, ctx.flood_groups(group, 2, 3)
    elif leg == "X":
        tool, part_size, groups = rng.choice(["nyuu", "ngpost"]), 716_800, ctx.flood_groups(group, 4, 6)
    else:
        tool, part_size, groups = "webmail", 716_800, ctx.flood_groups(group, 2, 3)
    clock = Poster(start, rng.uniform(3, 30))
    subj = _subject(rng.choice(["counter_first", "quoted_only"]), name, name + ext, 1, 1,
                    math.ceil(size / part_size), size)
    f = make_file(ctx, name + ext, kind, size, subj, part_size, clock, tool,
                  members=[{"name": "setup.exe", "bytes": size - 2000}])
    return [Upload(kind="drop", rule="stub-archive", groups=groups, poster=N.poster_for(tool, rng), tool=tool,
                   name=name, files=[f], phenomenon=f"stub_archive_{leg}", skew=ctx.skew())]


def nonsense_piece(ctx, group: str, start: float) -> list[Upload]:
    """A single archive of one article, 100 kB-1 MB, under a release-like name
    without spaces (the newznzb pieces)."""
    rng = ctx.rng
    name = N.movie_name(rng) if rng.random() < 0.6 else f"{N.hex32(rng)[:20]}-{rng.choice(['XX', 'AB', 'QZ'])}"
    ext, kind = rng.choice([(".rar", "rar"), (".zip", "zip"), (".7z", "7z")])
    tool = rng.choice(["nyuu", "ngpost", "powerpost"])
    size = rng.randint(100_000, 700_000)
    clock = Poster(start, 5)
    f = make_file(ctx, name + ext, kind, size, f'"{name}{ext}" yEnc (%(part)d/1)', 716_800, clock, tool)
    return [Upload(kind="drop", rule="nonsense-piece", groups=[group], poster=N.poster_for(tool, rng), tool=tool,
                   name=name, files=[f], phenomenon="nonsense_piece", skew=ctx.skew())]


def tiny_archive(ctx, group: str, start: float) -> list[Upload]:
    """A single archive of one article, 2-100 kB, under a release-like name."""
    rng = ctx.rng
    name = rng.choice([N.movie_name(rng), " ".join(rng.choice(N._WORDS) for _ in range(3)) + " 2016"])
    ext, kind = rng.choice([(".rar", "rar"), (".zip", "zip")])
    tool = rng.choice(["nyuu", "powerpost"])
    size = rng.randint(2_000, 95_000)   # articles stay under 100 kB with the yEnc overhead
    clock = Poster(start, 5)
    f = make_file(ctx, name + ext, kind, size, f'"{name}{ext}" yEnc (%(part)d/1)', 716_800, clock, tool)
    return [Upload(kind="drop", rule="tiny-archive", groups=[group], poster=N.poster_for(tool, rng), tool=tool,
                   name=name, files=[f], phenomenon="tiny_archive", skew=ctx.skew())]


def bare_executable(ctx, group: str, start: float) -> list[Upload]:
    """A lone program under a film name."""
    rng = ctx.rng
    name = N.movie_name(rng)
    tool = rng.choice(["nyuu", "webmail"])
    size = rng.randint(500_000, 30_000_000)
    clock = Poster(start, 10)
    f = make_file(ctx, name + ".exe", "exe", size, f'"{name}.exe" yEnc (%(part)d/{math.ceil(size / 716_800)})',
                  716_800, clock, tool)
    return [Upload(kind="drop", rule="bare-executable", groups=ctx.flood_groups(group, 1, 2),
                   poster=N.poster_for(tool, rng), tool=tool, name=name, files=[f], phenomenon="bare_executable",
                   skew=ctx.skew())]


def rot13_volumes(ctx, group: str, start: float) -> list[Upload]:
    """Passworded videos as ROT13 volume names (.cnegN.rar is .partN.rar):
    volumes, not single archives, so the stub rule must let them through,
    even a lone volume crossposted with small articles."""
    rng = ctx.rng
    name = N.movie_name(rng).replace(".", " ") + " XXX"
    vols = rng.choice([1, 1, 2, 3, 5])
    tool = "powerpost"
    part_size = POWERPOST_PART
    clock = Poster(start, rng.uniform(3, 20))
    up = Upload(kind="release", groups=ctx.flood_groups(group, 2, 3), poster=N.poster_for(tool, rng), tool=tool,
                name=name, files=[], phenomenon="rot13_volumes", skew=ctx.skew())
    for v in range(1, vols + 1):
        fname = f"{name}.cneg{v}.rar"
        size = rng.randint(5_000_000, 90_000_000)
        subj = f'"{fname}" yEnc (%(part)d/{math.ceil(size / part_size)})' if vols == 1 else \
            f'[{v}/{vols}] - "{fname}" yEnc (%(part)d/{math.ceil(size / part_size)})'
        up.files.append(make_file(ctx, fname, "rar5", size, subj, part_size, clock, tool, volume=v, volumes=vols,
                                  password="pw", members=[{"name": name + ".mp4", "bytes": size}]))
    return [up]


def exempt_single(ctx, group: str, start: float) -> list[Upload]:
    """Real single small archives where communities post them that way:
    karaoke zips, e-book zips, comics (cbr/cbz); exempt from the single-archive rules."""
    rng = ctx.rng
    genre = ctx.profile_genre(group)
    if genre == "book":
        name = N.book_name(rng)
        ext, kind = rng.choice([(".zip", "zip"), (".rar", "rar")])
    elif "comics" in group:
        name = f"{' '.join(rng.choice(N._WORDS) for _ in range(2))} {rng.randint(1, 300):03d} ({rng.randint(1990, 2026)})"
        ext, kind = rng.choice([(".cbr", "rar"), (".cbz", "zip")])
    else:
        name = f"{rng.choice(N._ARTISTS)} - {' '.join(rng.choice(N._WORDS) for _ in range(2))} (Karaoke)"
        ext, kind = ".zip", "zip"
    tool = "powerpost"
    size = rng.randint(1_200_000, 60_000_000)
    clock = Poster(start, rng.uniform(3, 20))
    f = make_file(ctx, name + ext, kind, size, f'"{name}{ext}" yEnc (%(part)d/{math.ceil(size / POWERPOST_PART)})',
                  POWERPOST_PART, clock, tool, members=[{"name": name + ".mp3", "bytes": size}])
    groups = [group] + ([ctx.other_group(group)] if rng.random() < 0.5 and ctx.other_group(group) else [])
    return [Upload(kind="release", groups=groups, poster=N.poster_for(tool, rng), tool=tool, name=name, files=[f],
                   phenomenon="exempt_single", skew=ctx.skew())]


# -- phase 2's shapes (the phase2 profile) ----------------------------------------------
# Uploads phase 2 must name or put together: each records its shapes and what
# can name it (Upload.shapes, named_by) for the truth.

# An advert posted inside many uploads: the same bytes (kind, size, seed and the
# release its content is made for), so the same first 16 KiB everywhere.
COMMON_FILE = {"name": "Visit-Usenet-Deals.example.jpg", "kind": "jpg", "bytes": 87_311, "seed": 0x5EED_AD,
               "release": "Usenet Deals"}


def _phase2_set(ctx, group: str, start: float, phenomenon: str, *, posted: str, par2: bool = True,
                renamed: bool = False, common: bool = False, password: str | None = None,
                kind: str = "release", named_by: str | None = "subject", median: float = 3e8,
                archive: str | None = None, min_volumes: int = 1, members=None, nfo: bool = False,
                extra: dict | None = None) -> Upload:
    """A RAR set (and par2 index and volumes) of one film or episode. posted:
    'readable' under a subject shape with the file counter, or 'random' (every
    file a random name of its own in a bare quoted subject, renamed after its
    par2 was made). renamed: posted under the release's name, par2 made under
    the scene's short names. common: with the advert inside (and in the par2).
    The junk's knobs: archive 'rar' | 'rar5' | '7z' (else RAR5 or RAR4 by
    chance), at least min_volumes volumes, members(release, total) the
    archive's entries (else the film), nfo: an .nfo beside it that names the
    password, extra: a file spec dict (name, kind, bytes, seed, release) beside
    the volumes."""
    rng = ctx.rng
    release = rng.choice([N.tv_name, N.movie_name])(rng)
    tool = rng.choice(["nyuu", "ngpost", "powerpost"]) if posted == "random" else _tool(rng)
    total = int(max(median / 10, min(rng.lognormvariate(math.log(median), 0.7), median * 4, ctx.cap_bytes)))
    # a password hides a RAR5's names (rar -hp), never a RAR4's
    rar_kind = archive or ("rar5" if password or rng.random() < 0.5 else "rar")
    vols = max(min_volumes, math.ceil(total / rng.choice([25, 50, 100]) / 1048576))
    width = max(2, len(str(vols)))
    each = math.ceil(total / vols)
    real = N.scene_name(release) if renamed else release
    files = [(f"{real}.7z.{v:03d}" if rar_kind == "7z" else f"{real}.part{v:0{width}d}.rar", rar_kind,
              each if v < vols else total - each * (vols - 1))
             for v in range(1, vols + 1)]
    if common:
        files.append((COMMON_FILE["name"], COMMON_FILE["kind"], COMMON_FILE["bytes"]))
    if extra:
        files.append((extra["name"], extra["kind"], extra["bytes"]))
    if nfo:
        files.append((f"{real}.nfo", "nfo", rng.randint(2000, 9000)))
    if par2:
        files += _par2_files(real, total, rng)
    part_size = rng.choice(PART_BYTES) if tool != "powerpost" else rng.choice([716_800, POWERPOST_PART])
    clock = Poster(start, rng.uniform(5, 40))
    # the advert's own stem would make it a release of its own under a bare counter:
    # with it, the subject names the release
    shape = rng.choice(["name_first", "dash_name"] if common else ["counter_first", "name_first", "dash_name"])
    up = Upload(kind=kind, groups=ctx.crosspost(group, 0.03), poster=N.poster_for(tool, rng), tool=tool,
                name=release, files=[], phenomenon=phenomenon, skew=ctx.skew(), named_by=named_by,
                shapes=[phenomenon] + (["common_file"] if common and phenomenon != "common_file" else []))
    n = len(files)
    members = members(release, total) if members else [{"name": release + ".mkv", "bytes": total}]
    for i, (fname, fkind, size) in enumerate(files, 1):
        parts = math.ceil(size / part_size)
        if posted == "random":
            name = N.random_name(rng)
            subj = f'"{name}" yEnc (%(part)d/{parts})'
        else:
            name = fname.replace(real, release, 1) if renamed and fname.startswith(real) else fname
            subj = _subject(shape, release, name, i, n, parts, size)
        volume = fkind in ("rar", "rar5", "7z")
        advert = fname == COMMON_FILE["name"]
        f = make_file(ctx, name, fkind, size, subj, part_size, clock, tool,
                      volume=i if volume else 1,
                      volumes=vols if volume else 1, members=members if volume else [],
                      password=password if volume or fkind == "nfo" else None)
        if advert:
            f.seed, f.release, f.common = COMMON_FILE["seed"], COMMON_FILE["release"], True
        if extra and fname == extra["name"]:
            f.seed, f.release = extra["seed"], extra["release"]
        while fkind == "nfo" and password and not shows_password({"password": password, "seed": f.seed}):
            f.seed = rng.getrandbits(48)       # the NFO that names the password
        if par2 and name != fname and fkind not in ("par2", "par2vol"):
            f.renamed_from = fname
        up.files.append(f)
    if par2:
        _par2_members(up)
    return up


def random_files(ctx, group: str, start: float) -> list[Upload]:
    """Every file a random name of its own, no shared stem, no file counter:
    named by its par2 (made before the names were scrambled, so its file list
    holds the real ones) or, without a par2, by the RAR's listing."""
    rng = ctx.rng
    if rng.random() < 0.6:
        return [_phase2_set(ctx, group, start, "random_files", posted="random", kind="pending", named_by="par2",
                            common=rng.random() < 0.2)]
    return [_phase2_set(ctx, group, start, "random_files", posted="random", par2=False, kind="pending",
                        named_by="archive")]


def renamed(ctx, group: str, start: float) -> list[Upload]:
    """A readable upload whose files were renamed after its par2 was made: the
    par2 knows them by the scene's short names, the same bytes."""
    rng = ctx.rng
    return [_phase2_set(ctx, group, start, "renamed", posted="readable", renamed=True,
                        common=rng.random() < 0.2)]


def sidecars_apart(ctx, group: str, start: float) -> list[Upload]:
    """A readable upload whose .nfo/.sfv/.nzb/.jpg come minutes later under a
    subject and counter of their own: a piece of the same upload."""
    rng = ctx.rng
    up = _phase2_set(ctx, group, start, "sidecars_apart", posted="readable")
    kinds = rng.sample([("nfo", 2000, 9000), ("sfv", 200, 3000), ("nzb", 5000, 60000), ("jpg", 40_000, 300_000)],
                       rng.randint(1, 4))
    clock = Poster(max(t for f in up.files for t in f.times) + rng.uniform(90, 600), rng.uniform(1, 5))
    piece = Upload(kind="release", groups=up.groups, poster=up.poster, tool=up.tool, name=up.name, files=[],
                   phenomenon="sidecars_apart", skew=up.skew, shapes=up.shapes, named_by="subject", piece_of=up)
    counter = rng.random() < 0.5
    for i, (kind, lo, hi) in enumerate(kinds, 1):
        fname = f"{up.name}.{kind}"
        subj = f'[{i}/{len(kinds)}] - "{fname}" yEnc (%(part)d/1)' if counter else \
            f'{up.name} - "{fname}" yEnc (%(part)d/1)'
        piece.files.append(make_file(ctx, fname, kind, rng.randint(lo, hi), subj, 716_800, clock, up.tool))
    return [up, piece]


def common_file(ctx, group: str, start: float) -> list[Upload]:
    """A small readable upload with the advert inside (which many others hold too)."""
    return [_phase2_set(ctx, group, start, "common_file", posted="readable", common=True, median=3e7)]


def repost(ctx, group: str, start: float) -> list[Upload]:
    """An upload posted again by another poster 1-3 days later: the same par2
    set, the same bytes; an upload of its own (shape repost, its original's
    reposted)."""
    rng = ctx.rng
    if rng.random() < 0.5:
        up = _phase2_set(ctx, group, start, "reposted", posted="random", kind="pending", named_by="par2")
    else:
        up = _phase2_set(ctx, group, start, "reposted", posted="readable")
    again = _repost(ctx, up, days=rng.uniform(1, 3))
    tries = 0
    while again.poster == up.poster:          # a tool with one poster name (JBinUp): another's
        again.poster = N.poster_for(up.tool if tries < 8 else "nyuu", rng)
        tries += 1
    again.shapes = ["repost"]
    return [up, again]


def nameless(ctx, group: str, start: float) -> list[Upload]:
    """Random names, no par2, nothing readable inside (random bytes, or a RAR5
    with encrypted headers): nothing can name it, it stays out of the catalog."""
    rng = ctx.rng
    if rng.random() < 0.5:
        return [_phase2_set(ctx, group, start, "nameless", posted="random", par2=False, password="hidden",
                            kind="pending", named_by=None)]
    tool = rng.choice(["nyuu", "ngpost"])
    part_size = rng.choice(PART_BYTES)
    clock = Poster(start, rng.uniform(5, 40))
    up = Upload(kind="pending", groups=[group], poster=N.poster_for(tool, rng), tool=tool, name="", files=[],
                phenomenon="nameless", skew=ctx.skew(), shapes=["nameless"], named_by=None)
    for _ in range(rng.randint(3, 12)):
        size = rng.randint(5, 60) * 1048576
        name = N.random_name(rng)
        up.files.append(make_file(ctx, name, "bin", size, f'"{name}" yEnc (%(part)d/{math.ceil(size / part_size)})',
                                  part_size, clock, tool))
    return [up]



# -- the junk the judge hides (the junk profile) ---------------------------------------
# Uploads that reach the catalog and that the judge must hide: each records the
# verdict it must get (Upload.junk, the truth's `junk`). Beside them the same
# shapes with what makes them real content (a password in the NFO, a shared
# sample beside a real set), which must get none.

# A sample posted alone to many uploads: the same bytes (kind, size, seed and
# the release its content is made for), so the same first 16 KiB and size.
REPEATED_SAMPLE = {"kind": "mkv", "bytes": 31_457_933, "seed": 0x5A3B1E, "release": "Sample"}
REPEATS = (21, 26)         # uploads of the sample a phenomenon's call posts: 20 or more in any corpus


def _junk(up: Upload, rule: str | None, shape: str) -> Upload:
    up.junk, up.shapes = rule, [shape]
    return up


def junk_fake(ctx, group: str, start: float) -> list[Upload]:
    """A film or episode's name over a program: a multi-volume RAR or 7z set
    (with its par2, so the header pass lets it through) whose only entry is an
    executable; or a lone .mkv whose bytes are one (MZ)."""
    rng = ctx.rng
    roll = rng.random()
    if roll < 0.2:
        release = rng.choice([N.tv_name, N.movie_name])(rng)
        tool = _tool(rng)
        size = rng.randint(150, 900) * 1048576
        part_size = rng.choice(PART_BYTES)
        subj = _subject(rng.choice(["counter_first", "name_first"]), release, release + ".mkv", 1, 1,
                        math.ceil(size / part_size), size)
        f = make_file(ctx, release + ".mkv", "exe", size, subj, part_size, Poster(start, rng.uniform(5, 40)), tool)
        return [_junk(Upload(kind="release", groups=[group], poster=N.poster_for(tool, rng), tool=tool,
                             name=release, files=[f], phenomenon="junk_fake", skew=ctx.skew(), named_by="subject"),
                      "fake", "junk_fake_media")]
    program = rng.choice(["{r}.exe", "setup.exe", "{r}.scr", "Codec.Installer.exe"])
    up = _phase2_set(ctx, group, start, "junk_fake", posted="readable", archive="7z" if roll < 0.5 else "rar5",
                     min_volumes=2, median=1.2e8,
                     members=lambda r, total: [{"name": program.format(r=r), "bytes": total}])
    return [_junk(up, "fake", "junk_fake_7z" if roll < 0.5 else "junk_fake_rar")]


def junk_locked(ctx, group: str, start: float) -> list[Upload]:
    """A passworded set: RAR5 with its headers encrypted (rar -hp), 7z with
    them encrypted (-mhe), or RAR4 with its files encrypted and names plain.
    Without a password anywhere it is locked; two in five name it in an .nfo
    beside the set: real content."""
    rng = ctx.rng
    archive = rng.choice(["rar5", "rar5", "7z", "rar"])
    known = rng.random() < 0.4
    up = _phase2_set(ctx, group, start, "junk_locked", posted="readable", archive=archive, min_volumes=2,
                     median=2e8, password=rng.choice(["x7Hq!9pass", "usenet4ever", "B3stR3l3as3"]), nfo=known)
    return [_junk(up, None if known else "locked", f"locked_{'known' if known else 'unknown'}_{archive}")]


def junk_dead(ctx, group: str, start: float) -> list[Upload]:
    """A readable set taken down: the overview lists every article, the server
    answers each BODY 430."""
    up = _phase2_set(ctx, group, start, "junk_dead", posted="readable", median=2e8)
    for f in up.files:
        f.gone = True
    return [_junk(up, "dead", "junk_dead")]


def junk_repeated(ctx, group: str, start: float) -> list[Upload]:
    """One sample's bytes posted alone under 21-26 film and episode names
    (hours apart), and one real set holding the same sample beside its
    volumes (and in its par2): only the lone ones are junk."""
    rng = ctx.rng
    out = []
    for k in range(rng.randint(*REPEATS)):
        release = rng.choice([N.tv_name, N.movie_name])(rng)
        tool = _tool(rng)
        size = REPEATED_SAMPLE["bytes"]
        name = f"{release}.sample.mkv" if rng.random() < 0.5 else f"{release}.mkv"
        subj = _subject(rng.choice(["counter_first", "name_first", "quoted_only"]), release, name, 1, 1,
                        math.ceil(size / 716_800), size)
        f = make_file(ctx, name, REPEATED_SAMPLE["kind"], size, subj, 716_800,
                      Poster(start + k * rng.uniform(1800, 7200), rng.uniform(5, 40)), tool)
        f.seed, f.release = REPEATED_SAMPLE["seed"], REPEATED_SAMPLE["release"]
        out.append(_junk(Upload(kind="release", groups=[group], poster=N.poster_for(tool, rng), tool=tool,
                                name=release, files=[f], phenomenon="junk_repeated", skew=ctx.skew(),
                                named_by="subject"), "repeated", "junk_repeated"))
    beside = dict(REPEATED_SAMPLE, name="Sample.mkv")
    up = _phase2_set(ctx, group, start + rng.uniform(0, 86400), "junk_repeated", posted="readable", extra=beside)
    out.append(_junk(up, None, "sample_beside"))
    return out


def junk_unusable(ctx, group: str, start: float) -> list[Upload]:
    """A release under a subject name that is a random token (not hex, so the
    catalog takes it, readable=false) over files of the same token: split
    random bytes, or RAR volumes whose one entry is another token. No par2, no
    NFO: nothing will ever name it."""
    rng = ctx.rng
    token = N.scrambled(rng, rng.randint(18, 26))
    tool = rng.choice(["nyuu", "ngpost"])
    part_size = rng.choice(PART_BYTES)
    clock = Poster(start, rng.uniform(5, 40))
    rar = rng.random() < 0.5
    up = Upload(kind="release", groups=[group], poster=N.poster_for(tool, rng), tool=tool, name=token, files=[],
                phenomenon="junk_unusable", skew=ctx.skew(), named_by=None)
    vols = rng.randint(3, 10)
    inner = [{"name": N.scrambled(rng, 24) + ".mkv", "bytes": 0}]
    sizes = [rng.randint(20, 60) * 1048576 for _ in range(vols)]
    inner[0]["bytes"] = sum(sizes)
    for v, size in enumerate(sizes, 1):
        fname = f"{token}.part{v:02d}.rar" if rar else f"{token}.{v:03d}"
        subj = _subject("dash_name", token, fname, v, vols, math.ceil(size / part_size), size)
        up.files.append(make_file(ctx, fname, "rar5" if rar else "bin", size, subj, part_size, clock, tool,
                                  volume=v if rar else 1, volumes=vols if rar else 1,
                                  members=inner if rar else []))
    return [_junk(up, "unusable", "junk_unusable_rar" if rar else "junk_unusable_split")]


PHENOMENA = {
    "multi_file": multi_file, "single_file": single_file, "obfuscated": obfuscated, "counterless": counterless,
    "scrambled": scrambled, "album": album, "shogun": shogun, "batch_counter": batch_counter,
    "stub_archive": stub_archive, "nonsense_piece": nonsense_piece, "tiny_archive": tiny_archive,
    "bare_executable": bare_executable, "rot13_volumes": rot13_volumes, "exempt_single": exempt_single,
    "random_files": random_files, "renamed": renamed, "sidecars_apart": sidecars_apart,
    "common_file": common_file, "repost": repost, "nameless": nameless,
    "junk_fake": junk_fake, "junk_locked": junk_locked, "junk_dead": junk_dead, "junk_repeated": junk_repeated,
    "junk_unusable": junk_unusable,
}
