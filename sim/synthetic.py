"""A synthetic corpus of realistic a.b.* overview lines (yEnc subjects, hashed
names, [PRiVATE] posts, interleaved uploads): a group of any size without a
generated truth, for the server's benchmark and the NNTP tests."""
from __future__ import annotations

import os
import random
import time
from typing import Iterator

from voyager.corpus import Corpus, CorpusWriter

_WORDS = ("The Big Night Ocean Planet Earth Dark Light City Silent River Last First Winter Summer "
          "Kingdom Empire Secret Lost World Story Code Blue Red Golden Iron Shadow Star Wild "
          "Journey Storm Fire Ice Mountain Desert Island Dream Heart Stone Road").split()
_TAGS = ("1080p.WEB.x264", "2160p.WEB-DL.DDP5.1.H.265", "720p.HDTV.x264", "1080p.BluRay.x264",
         "1080p.AMZN.WEB-DL.DDP5.1.H.264", "MULTi.1080p.WEB.H264", "FLAC", "EPUB")
_GROUPS = ("NTb", "FLUX", "SPARKS", "GRP", "EDITH", "playWEB", "CAKES", "SYNCOPY", "RARBG", "NOGRP")
_POSTERS = ("Poster <poster@example.com>", "yEncBin <yenc@bin.net>", "Anonymous <anon@anon.org>",
            "nzbgeek <nzb@geek.info>", "Uploader <up@load.er>", "JBinUp <jbinup@jbinup.com>")
_MID_HOSTS = ("ngPost.com", "nyuu.local", "powerpost2000AA.local", "JBinUp.local", "camelsystem-powerpost.local")
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


class _Upload:
    """One upload in progress: its files and segments, posted in order."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        r = rng.random()
        self.kind = "yenc" if r < 0.57 else ("hex" if r < 0.88 else "private")
        words = rng.sample(_WORDS, rng.randint(2, 4))
        self.name = f"{'.'.join(words)}.{rng.randint(1990, 2025)}.{rng.choice(_TAGS)}-{rng.choice(_GROUPS)}"
        self.files = rng.randint(1, 40) if self.kind != "hex" else 1
        self.file = 1
        self.segments = self._segments()
        self.segment = 1
        if rng.random() < 0.5:
            self.poster = rng.choice(_POSTERS)
        else:
            tok = "%08x" % rng.getrandbits(32)
            self.poster = f"{tok} <{tok}@{rng.choice(_MID_HOSTS)}>"
        self.mid_host = rng.choice(_MID_HOSTS)
        self.token = "%032x" % rng.getrandbits(128)
        self.private = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") for _ in range(6))

    def _segments(self) -> int:
        return self.rng.randint(1, 3) if self.kind == "hex" else self.rng.randint(20, 140)

    def done(self) -> bool:
        return self.file > self.files

    def next_article(self) -> tuple[str, str, str, int]:
        """(subject, from, message-id without <>, bytes) of the next segment."""
        rng = self.rng
        seg, segs = self.segment, self.segments
        if self.kind == "yenc":
            width = max(2, len(str(self.files)))
            ext = f"part{self.file:02d}.rar" if self.files > 1 else "mkv"
            subject = f'[{self.file:0{width}d}/{self.files:0{width}d}] - "{self.name}.{ext}" yEnc ({seg}/{segs})'
        elif self.kind == "hex":
            subject = "%032x" % rng.getrandbits(128)
        else:
            subject = f'[PRiVATE]-[{self.private}]-[{"%040x" % rng.getrandbits(160)}]-[{self.file}/{self.files}] - "" yEnc'
        size = rng.randint(739_000, 795_000) if seg < segs else rng.randint(10_000, 739_000)
        if self.mid_host.startswith("ngPost"):
            mid = "%032x@ngPost.com" % rng.getrandbits(128)
        elif self.mid_host.startswith("nyuu"):
            mid = "%s-%d@nyuu" % ("".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
                                          for _ in range(20)), 1_700_000_000_000 + rng.getrandbits(30))
        else:
            mid = f"part{seg}of{segs}.{self.token[:12]}{rng.getrandbits(24):06x}@{self.mid_host}"
        self.segment += 1
        if self.segment > self.segments:
            self.file += 1
            self.segment = 1
            self.segments = self._segments()
        return subject, self.poster, mid, size


def synthetic_lines(group: str, first: int, last: int, seed: int = 1, gap_rate: float = 0.01,
                    crosspost_groups: tuple[str, ...] = (), host: str = "news.example.com",
                    start_time: int = 1_704_067_200) -> Iterator[tuple[int, bytes]]:
    """(number, overview line) for articles first..last of a group, a few
    missing, uploads interleaved the way a binary group looks."""
    rng = random.Random(f"{seed}:{group}:{first}")
    uploads = [_Upload(rng) for _ in range(6)]
    t = start_time + first // 3
    for n in range(first, last + 1):
        if rng.random() < gap_rate:
            continue
        i = rng.randrange(len(uploads))
        up = uploads[i]
        subject, poster, mid, size = up.next_article()
        if up.done():
            uploads[i] = _Upload(rng)
        t += rng.randint(0, 1)
        when = time.gmtime(t)
        date = (f"{_DAYS[when.tm_wday]}, {when.tm_mday:02d} {_MONTHS[when.tm_mon - 1]} {when.tm_year} "
                f"{when.tm_hour:02d}:{when.tm_min:02d}:{when.tm_sec:02d} +0000")
        xref = f"Xref: {host} {group}:{n}"
        if crosspost_groups and rng.random() < 0.05:
            xref += f" {rng.choice(crosspost_groups)}:{rng.randint(1, 10_000_000)}"
        fields = [str(n), subject, poster, date, f"<{mid}>", "", str(size), str(size // 128 + 2), xref]
        yield n, "\t".join(fields).encode()


def write_synthetic_corpus(root: str | os.PathLike, groups: dict[str, tuple[int, int]], *,
                           chunk_articles: int = 100_000, range_articles: int = 2_000_000,
                           seed: int = 1, level: int = 6) -> Corpus:
    """A corpus of synthetic groups {name: (low, high)}: ranges tiled from 1,
    chunks of chunk_articles numbers, groups.json listing them."""
    writer = CorpusWriter(root, level=level)
    listing = []
    names = tuple(groups)
    for priority, (name, (low, high)) in enumerate(groups.items(), 1):
        listing.append({"name": name, "low": low, "high": high, "priority": priority})
        start = (low - 1) // range_articles * range_articles + 1
        while start <= high:
            end = start + range_articles - 1
            chunks = []
            c_first = max(start, low)
            while c_first <= min(end, high):
                c_last = min(c_first - (c_first - start) % chunk_articles + chunk_articles - 1, end, high)
                lines = [line for _, line in synthetic_lines(
                    name, c_first, c_last, seed=seed, crosspost_groups=tuple(g for g in names if g != name))]
                chunks.append((c_first, c_last, lines))
                c_first = c_last + 1
            writer.write_range(name, start, end, chunks)
            start = end + 1
    writer.write_groups(listing)
    return Corpus(root)
