"""Spotnet's categories and their Newznab numbers.

Spotnet numbers a spot by a head category, counted from 1 in its XML and
From header (1 Beeld: video, images and books; 2 Geluid: audio; 3 Spellen:
games; 4 Applicaties: software), and subcategories by letter: a the format
(or platform), b the source (or, for games, the format; for software, the
genre), c the language or bitrate (games: genre), d the genre, z the type
(for Beeld: 0 film, 1 series, 2 book, 3 erotica, 4 pictures; for Geluid:
0 album, 1 live set, 2 podcast, 3 audiobook). Names as Spotweb gives them
in the comments; the numbers are voyager.categories' (Newznab's tree with
7000 Books and 8000 Other)."""
from __future__ import annotations

import re

BEELD, GELUID, SPELLEN, APPLICATIES = 1, 2, 3, 4
_CODE = re.compile(r"\s*(\d{1,2})?([abcdz])(\d{1,3})\s*", re.IGNORECASE)

# Beeld's formats: a0 DivX, a1 WMV, a2 MPG, a3 DVD5, a4 HD other, a5 ePub,
# a6 Blu-ray, a7 HD-DVD, a8 WMVHD, a9 x264HD, a10 DVD9
_SD, _DVD, _HD, _BLURAY, _EBOOK = {0, 1, 2}, {3, 10}, {4, 7, 8, 9}, {6}, {5}
# Beeld's genres that make a spot erotica (Spotweb's rule when z is missing)
_EROTIC = {23, 24, 25, 26} | set(range(72, 90))
# Geluid's formats: a0 MP3, a1 WMA, a2 WAV, a3 OGG, a4 EAC, a5 DTS, a6 AAC,
# a7 APE, a8 FLAC
_LOSSLESS = {2, 4, 5, 7, 8}
# Spellen's platforms: a0 Windows, a1 Mac, a2 Linux, a3 PlayStation, a4 PS2,
# a5 PSP, a6 Xbox, a7 Xbox 360, a8 GBA, a9 GameCube, a10 DS, a11 Wii,
# a12 PS3, a13 Windows Phone, a14 iOS, a15 Android, a16 3DS
_GAMES = {0: 4050, 1: 4030, 2: 4050, 3: 1090, 4: 1090, 5: 1020, 6: 1040, 7: 1050, 8: 1090,
          9: 1090, 10: 1010, 11: 1030, 12: 1080, 13: 4040, 14: 4060, 15: 4070, 16: 1110}
# Applicaties' platforms: a0 Windows, a1 Mac, a2 Linux, a3 OS/2, a4 Windows
# Phone, a5 navigation, a6 iOS, a7 Android
_SOFTWARE = {0: 4020, 1: 4030, 2: 4000, 3: 4000, 4: 4040, 5: 4040, 6: 4060, 7: 4070}


def code(cat: int, subcat: str) -> str | None:
    """A subcategory in Spotnet's XML form, `01a09`, from `01a09`, `a09` or
    `a9`; None for what is none."""
    m = _CODE.fullmatch(str(subcat))
    return f"{cat:02d}{m.group(2).lower()}{int(m.group(3)):02d}" if m else None


def split_subcats(subcats) -> dict[str, list[int]]:
    """{'a': [9], 'b': [4], ...} of subcategories written `01a09`, `a09` or
    `a9`; what does not read as one is skipped."""
    out: dict[str, list[int]] = {}
    for subcat in subcats or ():
        m = _CODE.fullmatch(str(subcat))
        if m:
            out.setdefault(m.group(2).lower(), []).append(int(m.group(3)))
    return out


def beeld_type(sub: dict[str, list[int]]) -> int:
    """Beeld's z: as given, else as Spotweb guesses it (erotic genres,
    then TV source or the television genre for series, ePub for books)."""
    if sub.get("z"):
        return sub["z"][0]
    if _EROTIC & set(sub.get("d", ())):
        return 3
    if 4 in sub.get("b", ()) or 11 in sub.get("d", ()):
        return 1
    if 5 in sub.get("a", ()):
        return 2
    return 0


def newznab_category(cat, subcats=()) -> int | None:
    """The Newznab category of a spot's head category (Spotnet's, from 1)
    and subcategories; None for a head category Spotnet does not have."""
    try:
        cat = int(cat)
    except (TypeError, ValueError):
        return None
    sub = split_subcats(subcats)
    fmt = sub.get("a", [None])[0]
    if cat == BEELD:
        kind = beeld_type(sub)
        genres = set(sub.get("d", ()))
        if kind == 2 or fmt in _EBOOK:
            if 31 in genres:
                return 7030                 # comic
            return 7010 if genres & {43, 44} else 7020  # newspaper, magazine; else a book
        if kind == 3:
            return {**dict.fromkeys(_SD, 6030), **dict.fromkeys(_DVD, 6010),
                    **dict.fromkeys(_HD | _BLURAY, 6040), 1: 6020, 8: 6020}.get(fmt, 6000)
        if kind == 4:
            return 8010
        if kind == 1:
            if 18 in genres:
                return 5060
            if 29 in genres:
                return 5070
            if 6 in genres:
                return 5080
            if fmt in _SD | _DVD:
                return 5030
            return 5040 if fmt in _HD | _BLURAY else 5000
        if fmt in _SD:
            return 2030
        return {**dict.fromkeys(_DVD, 2070), **dict.fromkeys(_HD, 2040), 6: 2050}.get(fmt, 2000)
    if cat == GELUID:
        if 3 in sub.get("z", ()):
            return 3030
        if fmt is None:
            return 3000
        return 3040 if fmt in _LOSSLESS else 3010
    if cat == SPELLEN:
        return _GAMES.get(fmt, 1000 if fmt is not None else 4050)
    if cat == APPLICATIES:
        return _SOFTWARE.get(fmt, 4000)
    return None
