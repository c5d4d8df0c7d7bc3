"""`voyager sim generate`: a deterministic corpus with its ground truth.

    voyager sim generate --out DIR --seed N [--groups K] [--lines L] [--days D]
                         [--range-articles R] [--chunk-articles C] [--bench] [--hostile]
                         [--profile NAME]

The corpus follows the corpus layout (voyager/corpus.py): groups.json, one folder per planned range (on
the grid tiled from article 1) with zlib chunks and range.json written last,
truth.jsonl (one upload a line) and bodies/files.jsonl (what sim.bodies needs
to make article bodies on demand).

How the lines are made up (as measured on real Eweka overview data; `voyager
sim stats` prints what a corpus holds):
- 43% of lines carry no yEnc part counter (`counterless`): of those 73% random
  32-hex subjects, 27% `[PRiVATE]` hashes, ~0.4% readable posts;
- crossposts owned by another indexed group are ~5%, so with the counterless
  lines ~48% of a group's lines are filtered;
- most releases have one file: floods (stub archives, pieces, tiny archives,
  bare executables), singles, batch-counter stems;
- the rest: readable multi-file sets, obfuscated (pending) sets, albums,
  scrambled uploads, ROT13 volumes, exempt single archives.
Per group the mix follows its profile (PROFILES); a deficit scheduler keeps
each phenomenon's share of lines on its target.

--profile NAME gives every group one profile; phase2 adds the shapes phase 2
names and merges, and the truth's upload keys (upload, shapes, named_by,
repost_of; per file common, renamed_from), written only under a --profile;
junk adds to phase2's the junk the judge hides, each upload of it with the
verdict it must get (junk: dead | fake | repeated | locked | unusable), and
a file spec of an upload taken down says gone (its bodies answered 430).

--hostile plants hostile lines among the same ordinary lines (sim/hostile.py:
stray article numbers, control bytes, over-long fields, empty lines; listed
in hostile.jsonl) and cuts the chunks on the chunk grid.
"""
from __future__ import annotations

import argparse
import email.utils
import json
import math
import random
from math import log as ln
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from voyager.corpus import CorpusWriter

from . import hostile as H
from . import names as N
from . import phenomena as P

# Each profile: phenomenon -> share of the group's lines; and the genres its
# readable uploads come in.
PROFILES: dict[str, tuple[dict[str, float], list[str]]] = {
    "mixed": ({"counterless": .46, "obfuscated": .21, "multi_file": .17, "single_file": .03, "stub_archive": .06,
               "nonsense_piece": .005, "tiny_archive": .003, "bare_executable": .002, "album": .02,
               "batch_counter": .004, "scrambled": .01, "shogun": .004}, ["tv", "movie", "software", "music"]),
    "tv": ({"counterless": .42, "obfuscated": .2, "multi_file": .26, "single_file": .04, "stub_archive": .05,
            "nonsense_piece": .01, "scrambled": .01, "shogun": .01}, ["tv"]),
    "movie": ({"counterless": .42, "obfuscated": .2, "multi_file": .24, "single_file": .03, "stub_archive": .08,
               "nonsense_piece": .01, "tiny_archive": .005, "bare_executable": .005}, ["movie"]),
    "erotica": ({"counterless": .35, "rot13_volumes": .2, "multi_file": .2, "album": .2, "stub_archive": .05,
                 "obfuscated": .05}, ["movie"]),
    "pictures": ({"album": .65, "batch_counter": .08, "counterless": .19, "single_file": .05, "scrambled": .03},
                 ["movie"]),
    "music": ({"multi_file": .5, "single_file": .15, "exempt_single": .2, "counterless": .1, "album": .05},
              ["music"]),
    "karaoke": ({"exempt_single": .7, "multi_file": .2, "counterless": .1}, ["music"]),
    "ebook": ({"single_file": .4, "exempt_single": .3, "multi_file": .2, "counterless": .1}, ["book"]),
    "comics": ({"exempt_single": .6, "multi_file": .3, "counterless": .1}, ["book"]),
    "test": ({"stub_archive": .4, "nonsense_piece": .1, "tiny_archive": .1, "bare_executable": .05,
              "counterless": .3, "scrambled": .05}, ["movie", "software"]),
    "storage": ({"scrambled": .5, "counterless": .3, "obfuscated": .2}, ["movie"]),
    # --profile phase2, for every group: the mixed mix beside the shapes phase 2
    # names and merges (sim/phenomena.py's phase 2 section)
    "phase2": ({"counterless": .30, "obfuscated": .10, "multi_file": .14, "single_file": .03, "stub_archive": .03,
                "album": .02, "scrambled": .01, "random_files": .10, "renamed": .06, "sidecars_apart": .06,
                "common_file": .06, "repost": .06, "nameless": .03}, ["tv", "movie", "software", "music"]),
    # --profile junk: phase2's mix beside the junk the judge hides and the real
    # content shaped like it (sim/phenomena.py's junk section)
    "junk": ({"counterless": .24, "obfuscated": .08, "multi_file": .11, "single_file": .03, "stub_archive": .03,
              "album": .02, "scrambled": .01, "random_files": .08, "renamed": .05, "sidecars_apart": .05,
              "common_file": .05, "repost": .05, "nameless": .03, "junk_fake": .04, "junk_locked": .05,
              "junk_dead": .03, "junk_repeated": .03, "junk_unusable": .02}, ["tv", "movie", "software", "music"]),
}

# The groups a corpus draws from, largest first: (name, profile, share of lines).
CATALOG = [
    ("alt.binaries.boneless", "mixed", 30), ("alt.binaries.multimedia", "mixed", 12),
    ("alt.binaries.teevee", "tv", 10), ("alt.binaries.moovee", "movie", 8),
    ("alt.binaries.erotica", "erotica", 6), ("alt.binaries.pictures.erotica", "pictures", 6),
    ("alt.binaries.sounds.mp3.complete_cd", "music", 5), ("alt.binaries.test", "test", 5),
    ("alt.binaries.ebook", "ebook", 3), ("alt.binaries.storage", "storage", 6),
    ("alt.binaries.sounds.karaoke", "karaoke", 1), ("alt.binaries.comics.dcp", "comics", 2),
    ("alt.binaries.ath", "mixed", 6), ("alt.binaries.hdtv", "tv", 5),
]
# Groups that appear in Xref lines but are not indexed in the corpus.
OUTSIDE = ["alt.binaries.misc", "alt.binaries.x", "alt.binaries.mom", "alt.binaries.cores", "a.b.inner-sanctum"]

XREF_HOST = "news.sim.example"


@dataclass
class Options:
    out: Path
    seed: int = 1
    groups: int = 4
    lines: int = 200_000
    days: float = 3.0
    range_articles: int = 2_000_000
    chunk_articles: int = 100_000
    start: float = 1_777_593_600.0   # 2026-05-01T00:00Z
    bench: bool = False
    bodies: bool = True
    level: int = 6
    hostile: bool = False
    profile: str | None = None       # one profile for every group (else each group's own)
    spots: int = 0                   # signed spots in free.pt for this many uploads (sim.spotfeed)


def opts_indexed(opts: "Options") -> list[str]:
    return ["alt.binaries.multimedia"] if opts.bench else []


class Context:
    """What every phenomenon draws from: the random source, message-ids, the
    groups around it."""

    def __init__(self, opts: Options, groups: list[tuple[str, str, int]], rng: random.Random):
        self.rng = rng
        self.opts = opts
        self.groups = groups
        self.names = [g[0] for g in groups]
        # indexed groups that are not stored (the bench's multimedia) take crossposts too
        self.names += [g for g in opts_indexed(opts) if g not in self.names]
        self.profile = {g[0]: g[1] for g in groups}
        self.msgid = N.MessageIds(rng)
        self.cap_bytes = 15_000_000_000   # the largest upload planned now (plan_uploads sets it per group)

    def profile_genre(self, group: str) -> str:
        return self.rng.choice(PROFILES[self.profile.get(group, "mixed")][1])

    def others(self, group: str, exempt_ok: bool = True) -> list[str]:
        return [g for g in self.names if g != group and (exempt_ok or not P.is_exempt_group(g))]

    def other_group(self, group: str) -> str | None:
        o = self.others(group)
        return self.rng.choice(o) if o else None

    def crosspost(self, group: str, p: float) -> list[str]:
        if self.rng.random() >= p:
            return [group]
        pool = self.others(group, exempt_ok=False) + OUTSIDE
        return [group] + self.rng.sample(pool, self.rng.randint(1, min(2, len(pool))))

    def flood_groups(self, group: str, lo: int, hi: int) -> list[str]:
        pool = self.others(group, exempt_ok=False) + OUTSIDE
        return [group] + self.rng.sample(pool, min(len(pool), self.rng.randint(lo, hi) - 1))

    def skew(self) -> float:
        """A poster's clock: mostly right, sometimes hours off."""
        r = self.rng.random()
        if r < 0.03:
            return self.rng.uniform(-6, 6) * 3600
        return 0.0


def _shift(uploads: list[P.Upload], dt: float) -> None:
    for up in uploads:
        for f in up.files:
            f.times = [t + dt for t in f.times]


def _first_time(uploads: list[P.Upload]) -> float:
    return min((f.times[0] for up in uploads for f in up.files if f.times), default=0.0)


def _pause_map(rng: random.Random, start: float, days: float) -> list[tuple[float, float]]:
    """Quiet hours in a group's posting: (from, to) spans no upload starts in."""
    spans = []
    for d in range(max(1, math.ceil(days))):
        if rng.random() < 0.7:
            a = start + d * 86400 + rng.uniform(0, 86400)
            spans.append((a, a + rng.uniform(0.5, 5) * 3600))
    return spans


def plan_uploads(ctx: Context, targets: dict[str, int]) -> list[P.Upload]:
    """Uploads for every group until its lines reach the target, each
    phenomenon kept at its share by a deficit scheduler, then spread over the
    posting period around each group's quiet hours."""
    rng = ctx.rng
    opts = ctx.opts
    uploads: list[P.Upload] = []
    for name, profile, _w in ctx.groups:
        shares = PROFILES[profile][0]
        total = sum(shares.values())
        shares = {k: v / total for k, v in shares.items()}
        made = {k: 0 for k in shares}
        lines = 0
        target = targets[name]
        pauses = _pause_map(rng, opts.start, opts.days)
        # no single upload more than 5% of a group's lines, so a small corpus keeps its mix
        ctx.cap_bytes = max(50_000_000, target // 20 * 716_800)
        batches: list[list[P.Upload]] = []
        while lines < target:
            # the phenomenon furthest below its share (relative), so rare small ones get their turn
            kind = min(shares, key=lambda k: made[k] / shares[k])
            batch = P.PHENOMENA[kind](ctx, name, 0.0)
            n = sum(up.articles for up in batch)
            made[kind] += n
            lines += n
            batches.append(batch)
        span = opts.days * 86400
        for batch in batches:
            while True:
                t = opts.start + rng.uniform(0, span)
                if not any(a <= t < b for a, b in pauses):
                    break
            _shift(batch, t - _first_time(batch))
            # a fill or repost past the posting period would meet a group that has gone
            # quiet: the window could not tell it apart, and it would not be posted yet
            end = opts.start + span
            uploads.extend(up for up in batch if up.phenomenon not in ("fill", "repost")
                           or _first_time([up]) < end)
    return uploads


def owner_of(groups: list[str], priority: dict[str, int]) -> str:
    indexed = [g for g in groups if g in priority]
    return min(indexed, key=lambda g: priority[g]) if indexed else groups[0]


# -- the overview lines ----------------------------------------------------------

def _date(t: float, style: int) -> str:
    if style == 0:
        return email.utils.formatdate(t, usegmt=False).replace("-0000", "+0000")
    if style == 1:   # no day name, GMT
        return time.strftime("%d %b %Y %H:%M:%S GMT", time.gmtime(t))
    if style == 2:   # two-digit year and a zone offset
        return time.strftime("%a, %d %b %y %H:%M:%S", time.gmtime(t - 5 * 3600)) + " -0500"
    return email.utils.formatdate(t, usegmt=True)


TOOL_DATE_STYLE = {"powerpost": 0, "nyuu": 3, "ngpost": 0, "jbinup": 1, "newsmangler": 2, "gopoststuff": 0,
                   "webmail": 0}


def _malformed(rng: random.Random, number: int) -> bytes:
    kind = rng.randrange(5)
    if kind == 0:
        return f"{number}\tonly a subject".encode()
    if kind == 1:
        return f"{number}\t{N.hex32(rng)}\tposter@x\tnot a date\t<{N.hex32(rng)}@x>\t\tmany\tbytes\tXref: x".encode()
    if kind == 2:
        return f"{number}\t\t\t\t\t\t\t\t".encode()
    if kind == 3:
        return f"{number}\t\"half.rar\" yEnc (1/3)\tp@x\t".encode() + rng.randbytes(12).replace(b"\t", b" ").replace(b"\r", b" ").replace(b"\n", b" ")
    return f"{number}\tsubject\tposter@x\tMon, 01 Jan 2026 00:00:00 +0000\tno-angle-brackets\t\t-5\t1\tXref: x".encode()


def generate(opts: Options, log=lambda *a: None) -> dict:
    rng = N.Random(opts.seed)
    if opts.bench:
        chosen = [("alt.binaries.boneless", "mixed", 1)]
        # multimedia is indexed (priority 1) but not stored: boneless skips what it owns
        priority = {"alt.binaries.multimedia": 1, "alt.binaries.boneless": 2}
    else:
        chosen = CATALOG[:max(1, min(opts.groups, len(CATALOG)))]
        priority = {name: i for i, (name, _p, _w) in enumerate(chosen, 1)}
        if opts.profile:
            chosen = [(name, opts.profile, w) for name, _p, w in chosen]
    ctx = Context(opts, chosen, rng)
    weight = sum(w for _n, _p, w in chosen)
    if opts.bench:
        targets = {"alt.binaries.boneless": int(opts.lines * 1.08)}
    else:
        targets = {name: max(1000, int(opts.lines * w / weight)) for name, _p, w in chosen}
    log(f"planning uploads for {len(chosen)} groups")
    uploads = plan_uploads(ctx, targets)

    # Every posted article, in the order the server numbered them: posting
    # time plus a propagation delay, so a file's parts can arrive out of order.
    log("numbering articles")
    events = []
    rnd = rng.random
    for ui, up in enumerate(uploads):
        for fi, f in enumerate(up.files):
            for si, t in enumerate(f.times):
                # most articles reach the server within a second; a few lag by minutes
                r = rnd()
                lag = 5 + r * 11500 if r < 0.01 else -ln(1.0 - rnd()) / 3.0
                events.append((t + lag, ui, fi, si))
    events.sort()

    stored = [name for name, _p, _w in chosen]
    R, C = opts.range_articles, opts.chunk_articles
    counters: dict[str, int] = {}
    lows: dict[str, int] = {}
    for g in stored:
        cell = 754 if opts.bench else rng.randint(0, 4)
        lows[g] = cell * R + 1 + (0 if opts.bench else rng.randint(0, R // 2))
        counters[g] = lows[g]
    for g in priority:
        counters.setdefault(g, rng.randint(10_000, 5_000_000))
    lines: dict[str, list[tuple[int, bytes]]] = {g: [] for g in stored}
    for up in uploads:
        for f in up.files:
            f.numbers = [None] * len(f.segments)
    gaps = not opts.bench
    # rare events by geometric skips: one draw each, not one a line
    skip = lambda p: int(-ln(1.0 - rnd()) / p)
    next_gap = skip(0.0008) if gaps else -1
    next_bad = skip(0.0002)
    k = 0
    for _t, ui, fi, si in events:
        up = uploads[ui]
        nums = []
        for g in up.groups:
            if g not in counters:
                counters[g] = rng.randint(10_000, 5_000_000)
            k += 1
            if k == next_gap:
                counters[g] += rng.randint(1, 60)         # expired or cancelled articles
                next_gap = k + 1 + skip(0.0008)
            if k >= next_bad and g in lines:
                lines[g].append((counters[g], _malformed(rng, counters[g])))
                counters[g] += 1
                next_bad = k + 1 + skip(0.0002)
            nums.append((g, counters[g]))
            counters[g] += 1
        up.files[fi].numbers[si] = nums

    # Render the lines of the stored groups.
    log("rendering overview lines")
    date_cache: dict[tuple[int, int], str] = {}
    static: dict[int, tuple] = {}   # per file: subject around the part number, poster, encoding
    bogus = skip(0.0005)
    for _t, ui, fi, si in events:
        up = uploads[ui]
        f = up.files[fi]
        nums = f.numbers[si]
        stored_here = [(g, n) for g, n in nums if g in lines]
        if not stored_here:
            continue
        part, mid, nbytes = f.segments[si]
        st = static.get(id(f))
        if st is None:
            pre, has, post = f.subject.partition("%(part)d")
            st = (pre, post if has else None, up.poster, "latin-1" if up.latin1 else "utf-8")
            static[id(f)] = st
        if f.subjects is not None:
            subject = f.subjects[si]
        else:
            subject = st[0] if st[1] is None else f"{st[0]}{part}{st[1]}"
        poster = f.posters[si] if f.posters else st[2]
        t = int(f.times[si] + up.skew)
        bogus -= 1
        if bogus < 0:
            t = rng.choice([0, 86400 * 365 * 3, 2_145_916_800 + rng.randint(0, 10 ** 8)])   # bogus Date
            bogus = skip(0.0005)
        style = TOOL_DATE_STYLE.get(up.tool, 0)
        db = date_cache.get((t, style))
        if db is None:
            db = _date(t, style)
            if len(date_cache) > 200_000:
                date_cache.clear()
            date_cache[(t, style)] = db
        if len(nums) == 1:
            xref = f"Xref: {XREF_HOST} {nums[0][0]}:{nums[0][1]}"
        else:
            xref = f"Xref: {XREF_HOST} " + " ".join(f"{g}:{n}" for g, n in nums)
        tail = f"{poster}\t{db}\t<{mid}>\t\t{nbytes}\t{nbytes // 130 + 8}\t{xref}"
        for g, n in stored_here:
            lines[g].append((n, f"{n}\t{subject}\t{tail}".encode(st[3], "replace")))

    # Write ranges on the grid tiled from 1, chunks within each range.
    writer = CorpusWriter(opts.out, level=opts.level)
    highs: dict[str, int] = {}
    cut_after: dict[str, int] = {}
    for g in stored:
        ls = lines[g]
        ls.sort(key=lambda x: x[0])
        low = lows[g]
        if opts.bench:
            high = low + R - 1                            # one full range
            ls = [x for x in ls if x[0] <= high]
            cut_after[g] = high
        else:
            high = max((n for n, _ in ls), default=low)
        highs[g] = high
        if rng.random() < 0.5 and len(ls) > 10 and not opts.bench:
            i = rng.randrange(len(ls) - 1)                # stored out of order within a chunk
            ls[i], ls[i + 1] = ls[i + 1], ls[i]
        lines[g] = ls
    planted = H.plant({g: lines[g] for g in stored}, lows, XREF_HOST, opts.seed) if opts.hostile else []
    for g in stored:
        ls = lines[g]
        low, high = lows[g], highs[g]
        log(f"writing {g}: {len(ls):,} lines")
        pos = 0
        cell = (low - 1) // R
        while cell * R + 1 <= high:
            rs, re_ = max(cell * R + 1, low), min((cell + 1) * R, high)
            chunks = []
            first = rs
            while first <= re_:
                # on the chunk grid when hostile: a request covers each chunk whole, so
                # the server sends it as stored, stray numbers and all
                last = min(((first - 1) // C + 1) * C if opts.hostile else first + C - 1, re_)
                chunk = []
                while pos < len(ls) and ls[pos][0] <= last:
                    chunk.append(ls[pos][1])
                    pos += 1
                chunks.append((first, last, chunk))
                first = last + 1
            writer.write_range(g, rs, re_, chunks)
            cell += 1
    group_entries = (
        [{"name": g, "low": lows[g], "high": highs[g], "priority": priority[g]} for g in stored]
        + [{"name": g, "low": 1, "high": counters[g] - 1, "priority": p}
           for g, p in priority.items() if g not in lows])
    writer.write_groups(group_entries)

    # The ground truth, and the bodies' file specs.
    log("writing truth")
    kinds: dict[str, int] = {}
    bodies_dir = opts.out / "bodies"
    if opts.bodies:
        bodies_dir.mkdir(exist_ok=True)
        bodies_fh = open(bodies_dir / "files.jsonl", "w")
    # a corpus of one profile says which upload each piece is (an upload's pieces
    # share its id); the corpora of the groups' own profiles stay as they were
    upload_ids = _upload_ids(uploads) if opts.profile else None
    records = []
    if True:
        for ui, up in enumerate(uploads):
            owner = owner_of(up.groups, priority)
            files = []
            complete = up.complete
            for fi, f in enumerate(up.files):
                segs = []
                for si, seg in enumerate(f.segments):
                    nums = dict(f.numbers[si])
                    if owner in cut_after and nums.get(owner, 0) > cut_after[owner]:
                        complete = False                  # posted past the corpus's end
                        continue
                    if f.article_names is not None:       # an article is a file of its own
                        files.append({"name": f.article_names[si], "bytes": 716_800, "segments": [seg]})
                        continue
                    segs.append(seg)
                if segs:
                    files.append({"name": f.name, "bytes": f.size, "segments": segs})
                    if upload_ids is not None:
                        if f.common:
                            files[-1]["common"] = True
                        if f.renamed_from:
                            files[-1]["renamed_from"] = f.renamed_from
                    if opts.bodies and up.rule not in ("obfuscated-subject", "counterless", "scrambled"):
                        spec = {
                            "name": f.name, "yenc_name": f.yenc_name or f.name, "bytes": f.size, "segments": segs,
                            "kind": f.kind, "volume": f.volume, "volumes": f.volumes,
                            "release": f.release or up.name,
                            "password": f.password, "members": f.members, "seed": f.seed,
                            "part_size": f.part_size}
                        if f.gone:
                            spec["gone"] = True           # the server answers its bodies 430
                        bodies_fh.write(json.dumps(spec) + "\n")
            if not files:
                continue
            rec = {"kind": up.kind}
            if up.rule:
                rec["rule"] = up.rule
            rec.update({"group": owner, "groups": up.groups, "poster": up.poster, "name": up.name,
                        "complete": complete, "phenomenon": up.phenomenon, "tool": up.tool, "files": files})
            if upload_ids is not None:
                rec.update(_phase2_truth(up, upload_ids, judged=opts.profile == "junk"))
            records.append(rec)
            kinds[up.kind] = kinds.get(up.kind, 0) + 1
    if opts.spots:
        # spots for some uploads: free.pt and alt.binaries.ftd, groups of their own
        from sim import spotfeed
        firsts = {f["segments"][0][1] for rec in records for f in rec["files"] if f["segments"]}
        posted = {}                       # a file's first article as the overview has it: the NZB's subject
        for g in stored:
            for _n, line in lines[g]:
                fields = line.split(b"\t", 5)
                if len(fields) > 4 and fields[4][1:-1].decode("latin-1") in firsts:
                    posted.setdefault(fields[4][1:-1].decode("latin-1"),
                                      (fields[1].decode("utf-8", "replace"), fields[2].decode("utf-8", "replace"),
                                       fields[3].decode("latin-1")))
        feed = spotfeed.plant(records, opts.seed, opts.spots, posted)
        for ri, mid in feed.spot_of.items():
            records[ri]["spot"] = mid
        writer.write_groups(group_entries + feed.write(writer, opts.out))
    with open(opts.out / "truth.jsonl", "w") as truth:
        for rec in records:
            truth.write(json.dumps(rec, ensure_ascii=False) + "\n")
    if opts.bodies:
        bodies_fh.close()
    if opts.hostile:
        H.write(opts.out, planted)
    return {"groups": len(stored), "lines": sum(len(lines[g]) for g in stored), "uploads": kinds,
            "out": str(opts.out)}


def _upload_ids(uploads: list[P.Upload]) -> dict[int, str]:
    """A stable id per upload (by posting order within the plan); a piece posted
    apart or a fill takes its upload's."""
    ids: dict[int, str] = {}
    for up in uploads:
        if up.piece_of is None:
            ids[id(up)] = f"u{len(ids) + 1:06d}"
    for up in uploads:
        if up.piece_of is not None:
            ids[id(up)] = ids[id(up.piece_of)]
    return ids


def _phase2_truth(up: P.Upload, ids: dict[int, str], judged: bool = False) -> dict:
    """The upload's phase 2 keys: its id, shapes, what can name it, what it
    repeats; judged (the junk profile): the verdict it must get, also for the
    groups' own passworded sets whose password nothing names."""
    root = up.piece_of or up
    if root.shapes:             # a phase 2 shape: its builder said
        shapes, named_by = up.shapes or root.shapes, up.named_by if up.shapes else root.named_by
    else:
        shapes, named_by = [root.phenomenon], _named_by(root)
    out = {"upload": ids[id(up)], "shapes": shapes, "named_by": named_by}
    if up.repost_of is not None:
        out["repost_of"] = ids[id(up.repost_of)]
    if root.junk:
        out["junk"] = root.junk                 # the judge's verdict it must get
    elif judged and named_by is not None and _locked(root):   # nothing names a nameless one: never in the catalog
        out["junk"] = "locked"
    return out


def _locked(up: P.Upload) -> bool:
    """A passworded archive set whose password no .nfo of the upload names
    (obfuscated and multi_file post some)."""
    from .bodyparts.text import shows_password
    if not any(f.password and f.kind in ("rar", "rar5", "7z") for f in up.files):
        return False
    return not any(f.kind == "nfo" and shows_password({"password": f.password, "seed": f.seed}) for f in up.files)


def _named_by(up: P.Upload) -> str | None:
    """What names an upload of the groups' own phenomena: its subject, or for an
    obfuscated set the listing of its archive (unless a password hides it)."""
    if up.phenomenon != "obfuscated":
        return "subject" if up.name else None
    first = next((f for f in up.files if f.kind in ("rar", "rar5", "7z")), None)
    if first is None or (first.password and first.kind in ("rar5", "7z")):
        return None
    return "archive"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="voyager sim generate", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, type=Path, help="the corpus folder to write")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--groups", type=int, default=4, help=f"how many groups (1..{len(CATALOG)})")
    p.add_argument("--lines", type=int, default=200_000, help="overview lines in all, about")
    p.add_argument("--days", type=float, default=3.0, help="the posting period")
    p.add_argument("--range-articles", type=int, default=2_000_000)
    p.add_argument("--chunk-articles", type=int, default=100_000)
    p.add_argument("--no-bodies", action="store_true", help="skip bodies/files.jsonl")
    p.add_argument("--bench", action="store_true",
                   help="one full 2,000,000-line range shaped like recent a.b.boneless (the window's benchmark)")
    p.add_argument("--hostile", action="store_true",
                   help="plant hostile lines among the ordinary ones (sim/hostile.py; listed in hostile.jsonl)")
    p.add_argument("--profile", choices=sorted(PROFILES),
                   help="one profile for every group (phase2: the shapes phase 2 names and merges, "
                        "with the truth's upload keys; junk: phase2's and the junk the judge hides)")
    p.add_argument("--spots", type=int, default=0,
                   help="signed spots in free.pt for N uploads, their NZBs in alt.binaries.ftd")
    p.add_argument("--quiet", action="store_true")
    a = p.parse_args(argv)
    opts = Options(out=a.out, seed=a.seed, groups=a.groups, lines=a.lines, days=a.days,
                   range_articles=a.range_articles, chunk_articles=a.chunk_articles, bodies=not a.no_bodies,
                   hostile=a.hostile, profile=a.profile, spots=a.spots)
    if a.bench:
        opts.bench = True
        opts.groups = 1
        opts.lines = 2_000_000
        opts.range_articles = 2_000_000
        opts.chunk_articles = 100_000
        opts.days = 0.12
        opts.bodies = False
    if a.out.exists() and any(a.out.iterdir()):
        print(f"voyager sim generate: {a.out} is not empty", file=sys.stderr)
        return 1
    started = time.time()
    log = (lambda *m: None) if a.quiet else (lambda *m: print(*m, file=sys.stderr))
    summary = generate(opts, log)
    summary["seconds"] = round(time.time() - started, 1)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
