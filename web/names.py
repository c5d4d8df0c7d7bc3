"""What a release name says: season and episode (S03E07, 3x07, a date), the
show's title before them, a year, a resolution. The API's attributes come
from here, and so do the patterns a `season`/`ep` search matches names with."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_SXE = re.compile(r"(?i)(?:^|[^a-z0-9])s(\d{1,3})[ ._-]?e(\d{1,4})(?![0-9])")
_X = re.compile(r"(?i)(?:^|[^0-9a-z])(\d{1,2})x(\d{2,3})(?![0-9])")
_SEASON = re.compile(r"(?i)(?:^|[^a-z0-9])s(\d{1,3})(?![0-9])(?!e\d)")
_DAILY = re.compile(r"(?:^|[^0-9])((?:19|20)\d\d)[ ._-](\d\d)[ ._-](\d\d)(?![0-9])")
_YEAR = re.compile(r"(?:^|[^0-9])((?:19|20)\d\d)(?![0-9])")
_RES = re.compile(r"(?i)(?:^|[^a-z0-9])(480p|576p|720p|1080p|1080i|2160p|4k|uhd)(?![a-z0-9])")
_SEP = re.compile(r"[._]+")


@dataclass(frozen=True)
class NameInfo:
    season: str | None = None      # "S03", or the year of a daily show
    episode: str | None = None     # "E07", or "MM/DD" of a daily show
    tvtitle: str | None = None
    year: str | None = None
    resolution: str | None = None


def _title(name: str, end: int) -> str | None:
    t = _SEP.sub(" ", name[:end]).strip(" -[](")
    return t or None


@lru_cache(maxsize=1 << 16)
def name_info(name: str) -> NameInfo:
    season = episode = tvtitle = None
    m = _SXE.search(name) or _X.search(name)
    if m:
        season, episode = f"S{int(m.group(1)):02d}", f"E{int(m.group(2)):02d}"
        tvtitle = _title(name, m.start() + (1 if m.group(0)[0] in " ._-" else 0))
    else:
        d = _DAILY.search(name)
        s = _SEASON.search(name)
        if d and 1 <= int(d.group(2)) <= 12 and 1 <= int(d.group(3)) <= 31:
            season, episode = d.group(1), f"{d.group(2)}/{d.group(3)}"
            tvtitle = _title(name, d.start(1))
        elif s:
            season = f"S{int(s.group(1)):02d}"
            tvtitle = _title(name, s.start() + (1 if s.group(0)[0] in " ._-" else 0))
    y = _YEAR.search(name)
    r = _RES.search(name)
    res = r.group(1).lower() if r else None
    if res in ("4k", "uhd"):
        res = "2160p"
    return NameInfo(season, episode, tvtitle, y.group(1) if y else None, res)


@dataclass(frozen=True)
class EpisodeMatch:
    """A season/episode search: ILIKE patterns the trigram index can serve (any
    of them) and the regular expression that decides (PostgreSQL ARE, ~*)."""
    likes: tuple[str, ...]
    regex: str


def episode_match(season: str | None, ep: str | None) -> EpisodeMatch | None:
    """The patterns of `season`/`ep` parameters (already checked by parse_season_ep)."""
    if season is None:
        return None
    if ep is not None and "/" in ep:                      # daily: season=YYYY&ep=MM/DD
        mm, dd = ep.split("/")
        y = int(season)
        return EpisodeMatch((f"%{y}_{int(mm):02d}_{int(dd):02d}%",),
                            rf"(^|[^0-9]){y}[ ._-]?{int(mm):02d}[ ._-]?{int(dd):02d}([^0-9]|$)")
    s = int(season)
    if ep is None:                                       # a whole season, packs included
        likes = {f"%s{s:02d}%"}
        if s < 10:
            likes.add(f"%s{s}e%")
        return EpisodeMatch(tuple(sorted(likes)), rf"(^|[^a-z0-9])s0*{s}([^0-9]|$)")
    e = int(ep)
    likes = {f"%s{s:02d}e{e:02d}%", f"%s{s}e{e}%", f"%{s}x{e:02d}%"}
    return EpisodeMatch(tuple(sorted(likes)),
                        rf"(^|[^a-z0-9])s0*{s}[ ._-]?e0*{e}([^0-9]|$)|(^|[^0-9a-z])0*{s}x0*{e}([^0-9]|$)")


_DAILY_EP = re.compile(r"^(\d{1,2})/(\d{1,2})$")


def parse_season_ep(season: str | None, ep: str | None) -> tuple[str | None, str | None]:
    """Normalised (season, ep) or ValueError: seasons as numbers (`S03`, `3`,
    `00`) or a year with a `MM/DD` episode; episodes as numbers (`E07`, `7`)."""
    s = (season or "").strip()
    e = (ep or "").strip()
    if not s and not e:
        return None, None
    if not s:
        raise ValueError("ep without season")
    s = s[1:] if s[:1] in "sS" else s
    if not s.isdigit() or len(s) > 4 or not s.isascii():
        raise ValueError("season")
    if e:
        m = _DAILY_EP.match(e)
        if m:
            if len(s) != 4 or not (1 <= int(m.group(1)) <= 12 and 1 <= int(m.group(2)) <= 31):
                raise ValueError("daily episode")
            return str(int(s)), f"{int(m.group(1)):02d}/{int(m.group(2)):02d}"
        e = e[1:] if e[:1] in "eE" else e
        if not e.isdigit() or len(e) > 4 or not e.isascii():
            raise ValueError("ep")
        return str(int(s)), str(int(e))
    return str(int(s)), None
