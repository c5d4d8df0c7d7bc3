"""Hostile overview lines planted inside a generated corpus (`voyager sim
generate --hostile`): what providers, spammers and broken posting tools put
into real groups, each kind a few times a group, between and inside the
ordinary uploads, without touching them.

- lines an indexer must skip: article numbers outside the chunk they are
  served in (far ahead, 10^15 and 10^17, a little ahead, behind), empty
  lines, lines of tabs only, a bare number, a 3,000-byte message-id, one
  holding a NUL;
- ordinary lines with NUL and other control bytes put into their subject and
  poster (cleaned, they are the lines they were);
- small uploads of their own with one over-long or impossible field: a
  3,000-byte From, a 12 KB Xref naming hundreds of groups, a 12,000-byte
  subject, a `:bytes` past 32 bits;
- an upload in the `[PRiVATE]-[tag]-[<hash>]-[i/N]` shape (random tokens in
  the brackets instead of names): one upload, pending.

The ordinary lines keep their numbers: added lines take numbers nobody
posted (the corpus's gaps), and the chunks are cut on the chunk grid so that
a server sends each chunk's text as it is stored, stray numbers included.
`hostile.jsonl` lists what was planted: a line per planted line (`count`: the
window's rule and key it is counted under) and per hostile upload (`expect`:
what the index must hold).
"""
from __future__ import annotations

import bisect
import json
import random
from pathlib import Path

MAX_POSTER = 255          # the window's cuts (ext/scan.pxd), what the index must show
MAX_NAME = 255


def _fields(line: bytes) -> list[bytes] | None:
    f = line.split(b"\t")
    if len(f) < 9 or not f[0].isdigit() or not (f[4].startswith(b"<") and f[4].endswith(b">")):
        return None
    if b" " in f[8].strip()[6:].strip().partition(b" ")[2]:      # a crosspost: another group may own it
        return None
    if not f[6].isdigit():
        return None
    return f


def plant(lines: dict[str, list[tuple[int, bytes]]], group_low: dict[str, int], xref_host: str,
          seed: int) -> list[dict]:
    """Plants the hostile lines into each group's (number, line) list (sorted
    by number, changed in place); returns the records of hostile.jsonl."""
    rng = random.Random(f"hostile:{seed}")
    out: list[dict] = []
    for g, ls in lines.items():
        if len(ls) < 200:
            continue
        used = {n for n, _ in ls}
        lo, hi = ls[0][0], ls[-1][0]
        free = [n for n in range(lo + 1, hi) if n not in used]     # in order
        dates = {n: line.split(b"\t")[3] for n, line in ls if line.count(b"\t") >= 8}
        numbers = sorted(dates)

        def date_near(n: int) -> bytes:
            i = min(bisect.bisect_left(numbers, n), len(numbers) - 1)
            return dates[numbers[i]]

        added: list[tuple[int, bytes]] = []

        def take() -> int | None:
            return free.pop(rng.randrange(len(free))) if free else None

        def take_run(k: int) -> list[int] | None:
            """k free numbers close together (an upload's articles come together)."""
            starts = [i for i in range(len(free) - k + 1) if free[i + k - 1] - free[i] < 2_000]
            if not starts:
                return None
            i = rng.choice(starts)
            run = free[i:i + k]
            del free[i:i + k]
            return run

        def line(n: int, subject: bytes, poster: bytes, msgid: bytes, nbytes: int, xref: bytes | None = None,
                 number: bytes | None = None) -> bytes:
            xref = xref if xref is not None else f"{g}:{n}".encode()
            return b"\t".join([number if number is not None else str(n).encode(), subject, poster, date_near(n),
                               b"<" + msgid + b">", b"", str(nbytes).encode(), b"1",
                               b"Xref: " + xref_host.encode() + b" " + xref])

        def mid(tag: str) -> bytes:
            return f"{tag}.{rng.getrandbits(64):016x}@hostile.sim".encode()

        # -- lines to skip ------------------------------------------------------------
        for number in (10 ** 15, 10 ** 17, hi + 250_000, max(0, lo - 5_000)):
            n = take()
            if n is None:
                break
            text = line(n, b'"Hostile.Stray.bin" yEnc (1/1)', b"stray <stray@hostile.sim>", mid("stray"), 500_000,
                        number=str(number).encode())
            added.append((n, text))
            out.append({"group": g, "number": number, "at": n, "count": ["malformed", "outside"]})
        for text, key in ((b"", "empty"), (b"\t" * 8, "empty"), (b"\t \t  ", "empty"), (b"%d", "fields"),
                          (None, "long-msgid"), (None, "msgid")):
            n = take()
            if n is None:
                break
            if key == "long-msgid":
                text = line(n, b'"Hostile.Long.Msgid.bin" yEnc (1/1)', b"lm <lm@hostile.sim>",
                            b"m" * 2_990 + b"@hostile.sim", 500_000)
            elif key == "msgid":
                text = line(n, b'"Hostile.Nul.Msgid.bin" yEnc (1/1)', b"nm <nm@hostile.sim>",
                            b"nul\x00" + mid("msgid"), 500_000)
            elif text == b"%d":
                text = str(n).encode()
            added.append((n, text))
            out.append({"group": g, "at": n, "count": ["malformed", key]})

        # -- ordinary lines with control bytes: cleaned, they are what they were ----------
        picks = [i for i in range(len(ls)) if _fields(ls[i][1]) is not None]
        for i in rng.sample(picks, min(8, len(picks))):
            n, text = ls[i]
            f = text.split(b"\t")
            s, p = f[1], f[2]
            a, b = rng.randrange(len(s) + 1), rng.randrange(len(p) + 1)
            f[1] = s[:a] + rng.choice([b"\x00", b"\x01\x02", b"\x1b", b"\x00\x0b\x0c"]) + s[a:]
            f[2] = p[:b] + rng.choice([b"\x00", b"\x1f", b"\x08"]) + p[b:]
            ls[i] = (n, b"\t".join(f))
            out.append({"group": g, "at": n, "count": ["mended", "control"]})

        # -- uploads of their own, one over-long or impossible field each ----------------
        def upload(kind: str, name: str, parts: int, poster: bytes = b"hu <hu@hostile.sim>",
                   subject=None, xref=None, nbytes=None) -> None:
            nums = take_run(parts)
            if nums is None:
                return
            segs = []
            for k, n in enumerate(nums, 1):
                m = mid(kind)
                size = nbytes(k) if nbytes else 700_000 + k
                subj = subject(k) if subject else f'[1/1] - "{name}" yEnc ({k}/{parts})'.encode()
                added.append((n, line(n, subj, poster, m, size, xref=xref(n) if xref else None)))
                segs.append([k, m.decode(), size if size < 1 << 32 else 0])
                if kind in ("long-poster", "long-xref", "long-subject") or (kind == "big-bytes" and size >= 1 << 32):
                    out.append({"group": g, "at": n, "count": ["mended", kind]})
            out.append({"group": g, "upload": kind, "expect": expect[kind], "segments": segs})

        tag = rng.getrandbits(32)
        long_name = f"Hostile.Long.Subject.{tag:08x}." + "x" * 12_000 + ".mkv"
        long_from = b"x" * 2_990 + b" <long-from@hostile.sim>"
        expect = {
            "long-poster": {"kind": "release", "name": f"Hostile.Long.From.{tag:08x}", "poster": "x" * MAX_POSTER},
            "long-xref": {"kind": "release", "name": f"Hostile.Many.Groups.{tag:08x}", "own_group": g},
            "long-subject": {"kind": "release", "name": long_name[:MAX_NAME]},
            "big-bytes": {"kind": "release", "name": f"Hostile.Big.Bytes.{tag:08x}"},
            "private-token": {"kind": "pending", "files": 4},
        }
        upload("long-poster", f"Hostile.Long.From.{tag:08x}.mkv", 2, poster=long_from)
        spam = " ".join(f"alt.binaries.hostile.spam.{k:04d}:{rng.randint(1, 10 ** 6)}" for k in range(350))
        upload("long-xref", f"Hostile.Many.Groups.{tag:08x}.mkv", 2,
               xref=lambda n: f"{g}:{n} {spam}".encode())
        upload("long-subject", long_name, 2)
        upload("big-bytes", f"Hostile.Big.Bytes.{tag:08x}.mkv", 2,
               nbytes=lambda k: (1 << 40) if k == 1 else 300_000)
        tokens = [f"{rng.getrandbits(160):040x}" for _ in range(4)]
        nums = take_run(8)
        if nums is not None:
            segs = []
            for j, n in enumerate(nums):
                i, k = j // 2 + 1, j % 2 + 1
                m = mid("private")
                subj = f'[PRiVATE]-[WtFnZb]-[{tokens[i - 1]}]-[{i}/4] - "" yEnc {1_400_000} ({k}/2)'.encode()
                added.append((n, line(n, subj, b"pv <pv@hostile.sim>", m, 700_000)))
                segs.append([k, m.decode(), 700_000])
            out.append({"group": g, "upload": "private-token", "expect": expect["private-token"], "segments": segs})

        for item in sorted(added):      # in place of their numbers; the stored order kept
            bisect.insort(ls, item, key=lambda x: x[0])
    return out


def write(out_dir: Path, records: list[dict]) -> None:
    with open(out_dir / "hostile.jsonl", "w") as fh:
        for rec in records:
            fh.write(json.dumps(rec) + "\n")


def read(root: str | Path) -> list[dict]:
    with open(Path(root) / "hostile.jsonl") as fh:
        return [json.loads(x) for x in fh if x.strip()]


def expected_counts(records: list[dict]) -> dict[tuple[str, str], int]:
    """(rule, key) -> lines: what the window must count for the planted lines."""
    out: dict[tuple[str, str], int] = {}
    for rec in records:
        if "count" in rec:
            key = tuple(rec["count"])
            out[key] = out.get(key, 0) + 1
    return out
