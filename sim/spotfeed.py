"""The simulator's spots: signed spots in `free.pt` for some of a corpus's
uploads, their NZBs' articles in `alt.binaries.ftd`, and the hard cases a
spotter meets (a forged signature, a dispose, a placeholder NZB).

    plant(uploads, seed, n) -> Feed
        uploads: the truth records (dicts with name, poster, files); the
        spots' message-ids go to `Feed.spot_of` (upload index -> message-id).
    Feed.write(writer, out, start)  the two groups' overview lines through the
        CorpusWriter, and <corpus>/spots/articles.jsonl: one line an article,
        {message_id, group, head, body} (head and body as text, CRLF lines),
        which the server answers HEAD and BODY with; <corpus>/spots/truth.json
        the spots' truth (verified, trusted, disposed, placeholder, the
        password every other spot's description gives).

SIM_KEYS: the simulator's moderator keys by key id (what a test trusts
instead of Spotnet's)."""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from sim import spots as S

SPOT_GROUP, NZB_GROUP = "free.pt", "alt.binaries.ftd"
SIM_KEYS = {2: S.generate_key("sim-moderator-2")}
STAMP = 1_780_000_000


def trusted_keys() -> dict[int, str]:
    """The simulator's keys as verify_spot takes them (key id -> modulus)."""
    return {kid: k.modulus for kid, k in SIM_KEYS.items()}


def _stamp(date: str | None) -> int | None:
    from email.utils import parsedate_to_datetime
    try:
        return int(parsedate_to_datetime(date).timestamp()) if date else None
    except (TypeError, ValueError):
        return None


def nzb_xml(upload: dict, posted: dict | None = None) -> bytes:
    """The upload's NZB; posted: a file's first message-id -> (subject, poster,
    Date) as the overview has it, the subject, poster and date an NZB carries
    (else the file's name, the upload's poster, STAMP)."""
    out = ['<?xml version="1.0" encoding="iso-8859-1" ?>\n<nzb xmlns="http://www.newzbin.com/DTD/2003/nzb">']
    q = {chr(34): "&quot;"}
    for f in upload["files"]:
        subject, poster, date = (posted or {}).get(f["segments"][0][1] if f["segments"] else None,
                                                   (f["name"], upload["poster"], None))
        out.append(f'<file poster="{escape(poster, q)}" date="{_stamp(date) or STAMP}" '
                   f'subject="{escape(subject, q)}"><groups>'
                   f'<group>{escape(upload["group"])}</group></groups><segments>')
        for n, seg in enumerate(f["segments"], 1):
            mid, nbytes = seg[1], seg[2]
            out.append(f'<segment bytes="{nbytes}" number="{n}">{escape(mid)}</segment>')
        out.append("</segments></file>")
    out.append("</nzb>")
    return "\n".join(out).encode("latin-1", "replace")


@dataclass
class Feed:
    spots: list[dict] = field(default_factory=list)      # {message_id, head(pairs), truth}
    nzbs: list[tuple[str, bytes]] = field(default_factory=list)   # (message_id, body)
    spot_of: dict[int, str] = field(default_factory=dict)

    def write(self, writer, out: Path, start: int = 1) -> list[dict]:
        """The groups' ranges and the articles file; their groups.json entries."""
        sdir = Path(out) / "spots"
        sdir.mkdir(parents=True, exist_ok=True)
        entries = []
        with open(sdir / "articles.jsonl", "w") as fh:
            for group, rows in ((SPOT_GROUP, [(s["message_id"], S.head_text(s["head"]), "", s["head"])
                                              for s in self.spots]),
                                (NZB_GROUP, [(mid, f"From: spotnet <spot@spot.net>\r\nSubject: {mid}\r\n"
                                                   f"Newsgroups: {NZB_GROUP}\r\nMessage-ID: <{mid}>\r\n"
                                                   f"Date: {S._date(STAMP)}\r\n",
                                              body.decode("latin-1"), None) for mid, body in self.nzbs])):
                lines = []
                for i, (mid, head, body, pairs) in enumerate(rows):
                    number = start + i
                    h = dict((k.lower(), v) for k, v in (pairs or []))
                    subject = h.get("subject", mid) if pairs else mid
                    poster = h.get("from", "spotnet <spot@spot.net>") if pairs else "spotnet <spot@spot.net>"
                    line = (f"{number}\t{subject}\t{poster}\t{S._date(STAMP + i)}\t<{mid}>\t\t"
                            f"{len(head) + len(body)}\t{body.count(chr(10))}\tXref: sim {group}:{number}")
                    lines.append(line.encode("latin-1", "replace"))
                    fh.write(json.dumps({"message_id": mid, "group": group, "head": head, "body": body}) + "\n")
                high = start + len(rows) - 1
                if rows:
                    writer.write_range(group, start, high, [(start, high, lines)])
                entries.append({"name": group, "low": start, "high": max(high, start), "priority": 0})
        (sdir / "truth.json").write_text(json.dumps([s["truth"] for s in self.spots], indent=1) + "\n")
        return entries


def plant(uploads: list[dict], seed: int, n: int, posted: dict | None = None) -> Feed:
    """n spots for n of the uploads (named, complete; the pending ones, all
    random-named, first), then a forged one, a
    placeholder and a dispose of the last spot. posted: the files' first
    articles' (subject, poster, Date) by message-id (nzb_xml's): a spot is
    posted when its upload's first article was."""
    rng = random.Random(f"spots:{seed}")
    key = SIM_KEYS[2]
    feed = Feed()
    named = [i for i, u in enumerate(uploads) if u.get("name") and u.get("complete")]
    # the obfuscated uploads first: naming what headers cannot is what spots are for
    pending = [i for i in named if uploads[i].get("kind") == "pending"][:n]
    rest = [i for i in named if uploads[i].get("kind") != "pending"]
    chosen = sorted(pending + rng.sample(rest, min(n - len(pending), len(rest))))
    for k, ui in enumerate(chosen):
        up = uploads[ui]
        nzb = nzb_xml(up, posted)
        first_mid = next((f["segments"][0][1] for f in up["files"] if f["segments"]), None)
        created = _stamp((posted or {}).get(first_mid, (None, None, None))[2]) or STAMP + k
        password = f"sim{seed}pw{k}" if k % 2 else None     # every other spot tells its upload's password
        bodies = S.nzb_bodies(nzb)
        nzb_mids = [f"nzb{seed}x{k}x{j}@spot.net" for j in range(len(bodies))]
        feed.nzbs += list(zip(nzb_mids, bodies))
        spot = {"title": up["name"], "poster": up["poster"].split("<")[0].strip() or "poster",
                "tag": "sim", "category": 1, "subcats": ["a09", "b04", "z00"],
                "size": sum(f["bytes"] for f in up["files"]),
                "description": f"{up['name']}\nposted by the simulator" + (f"\npassword: {password}" if password else ""),
                "website": "https://example.org/", "nzb": nzb_mids, "image": [],
                "created": created}
        head = S.spot_headers(spot, key, key_id=2, seed=f"{seed}:{k}")
        mid = dict(head)["Message-ID"].strip("<>")
        feed.spot_of[ui] = mid
        feed.spots.append({"message_id": mid, "head": head,
                           "truth": {"message_id": mid, "upload": ui, "verified": True, "trusted": True,
                                     **({"password": password} if password else {})}})
    if not feed.spots:
        return feed
    last = feed.spots[-1]
    forged = S.retitled(S.spot_headers({**dict(title="forged " + str(seed), poster="mallory", tag="",
                                                category=1, subcats=["a09"], size=1, description="",
                                                website="", nzb=[], image=[], created=STAMP)},
                                       key, key_id=2, seed=f"{seed}:forged"), "a forged title")
    fmid = dict(forged)["Message-ID"].strip("<>")
    feed.spots.append({"message_id": fmid, "head": forged,
                       "truth": {"message_id": fmid, "verified": False, "trusted": False, "forged": True}})
    placeholder = S.spot_headers({"title": "placeholder spot", "poster": "poster", "tag": "", "category": 1,
                                  "subcats": ["a09"], "size": 1, "description": "", "website": "",
                                  "nzb": [f"missing{seed}@spot.net"], "image": [], "created": STAMP},
                                 key, key_id=2, seed=f"{seed}:placeholder")
    pmid = dict(placeholder)["Message-ID"].strip("<>")
    feed.spots.append({"message_id": pmid, "head": placeholder,
                       "truth": {"message_id": pmid, "verified": True, "trusted": True, "placeholder": True}})
    dispose = S.dispose_headers(last["message_id"], key, seed=f"{seed}:dispose", created=STAMP + 10)
    dmid = dict(dispose)["Message-ID"].strip("<>")
    feed.spots.append({"message_id": dmid, "head": dispose,
                       "truth": {"message_id": dmid, "verified": True, "trusted": True,
                                 "dispose": last["message_id"]}})
    last["truth"]["disposed"] = True
    return feed
