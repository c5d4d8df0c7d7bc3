"""The spotter scored against a corpus's spots truth (sim.spotfeed's
<corpus>/spots/truth.json): what it read of each spot the simulator posted.

    spot_kind(truth) -> 'forged' | 'placeholder' | 'dispose' | 'disposed' | 'spot'
    score_spots(truth, rows, uploads=None, ftd=None) -> dict
    score_matches(truth, uploads, releases, links) -> dict | None

truth: the spots' truth records (message_id, verified, trusted; upload, the
index of its upload in truth.jsonl; forged, placeholder, disposed, dispose:
the target's message-id). rows: voyager.spots by message-id as dicts
(verified, trusted, disposed, title, nzb, command, target), e.g.
bench.spot_fidelity's spot_rows. uploads: the corpus's truth.jsonl records
(an upload spot's title is its upload's name); ftd: the message-ids posted
in alt.binaries.ftd (a spot's NZB articles are there, a placeholder's not).

A spot agrees when it was read, verified and trusted as its truth says (a
forged one neither: never trusted), taken back when its truth says disposed
and standing otherwise, a dispose read as the order to take its target, an
upload's spot titled with the upload's name, its NZB's articles the ones
posted. The report counts by kind, lists up to 20 disagreements with why,
and `all_agree` is what a caller exits on.
"""
from __future__ import annotations

from typing import Iterable

from voyager.corpus import truth_message_ids

EXAMPLES = 20
KINDS = ("spot", "disposed", "dispose", "forged", "placeholder")


def spot_kind(truth: dict) -> str:
    """A truth spot's kind: the hard case it plants, else an upload's spot."""
    if truth.get("forged"):
        return "forged"
    if truth.get("placeholder"):
        return "placeholder"
    if truth.get("dispose"):
        return "dispose"
    if truth.get("disposed"):
        return "disposed"
    return "spot"


def disagreements(truth: dict, row: dict | None, uploads: list[dict] | None = None,
                  ftd: set[str] | None = None) -> list[str]:
    """Why a stored spot is not what its truth says (empty: it agrees)."""
    if row is None:
        return ["not read"]
    why = []
    if bool(row.get("trusted")) and not truth.get("trusted"):
        why.append("trusted, its truth is not")
    elif bool(row.get("trusted")) != bool(truth.get("trusted")):
        why.append("not trusted")
    if bool(row.get("verified")) != bool(truth.get("verified")):
        why.append("verified" if row.get("verified") else "not verified")
    if bool(row.get("disposed")) != bool(truth.get("disposed")):
        why.append("disposed, its truth stands" if row.get("disposed") else "not disposed")
    if truth.get("dispose"):
        if row.get("command") != "dispose" or row.get("target") != truth["dispose"]:
            why.append("not read as the dispose of its target")
    elif row.get("command"):
        why.append(f"read as a {row['command']}")
    if uploads is not None and truth.get("upload") is not None:
        if row.get("title") != uploads[truth["upload"]].get("name"):
            why.append("title is not its upload's name")
    if ftd is not None and not truth.get("dispose") and not truth.get("forged"):
        nzb = row.get("nzb") or []
        posted = bool(nzb) and all(m in ftd for m in nzb)
        if truth.get("placeholder") and posted:
            why.append("a placeholder's NZB found posted")
        elif not truth.get("placeholder") and not posted:
            why.append("NZB articles not the ones posted")
    return why


def score_spots(truth: Iterable[dict], rows: dict[str, dict], uploads: list[dict] | None = None,
                ftd: set[str] | None = None) -> dict:
    truth = list(truth)
    by_kind = {k: {"truth": 0, "read": 0, "agree": 0, "verified": 0, "trusted": 0, "disposed": 0} for k in KINDS}
    examples, disagree = [], 0
    for t in truth:
        kind = spot_kind(t)
        row = rows.get(t["message_id"])
        counts = by_kind[kind]
        counts["truth"] += 1
        if row is not None:
            counts["read"] += 1
            for flag in ("verified", "trusted", "disposed"):
                counts[flag] += bool(row.get(flag))
        why = disagreements(t, row, uploads, ftd)
        if why:
            disagree += 1
            if len(examples) < EXAMPLES:
                examples.append({"message_id": t["message_id"], "kind": kind, "why": why})
        else:
            counts["agree"] += 1
    known = {t["message_id"] for t in truth}
    extra = sorted(m for m in rows if m not in known)
    forged_trusted = sum(1 for t in truth if t.get("forged") and (rows.get(t["message_id"]) or {}).get("trusted"))
    disposes = [t for t in truth if t.get("dispose")]
    honoured = sum(1 for t in disposes if (rows.get(t["dispose"]) or {}).get("disposed"))
    return {"spots": len(truth), "read": sum(c["read"] for c in by_kind.values()),
            "agree": len(truth) - disagree, "disagree": disagree,
            "by_kind": {k: c for k, c in by_kind.items() if c["truth"]},
            "forged_trusted": forged_trusted,
            "disposes": {"truth": len(disposes), "honoured": honoured},
            "not_in_truth": len(extra), "not_in_truth_examples": extra[:EXAMPLES],
            "disagreements": examples,
            "all_agree": disagree == 0 and not extra and forged_trusted == 0}


def score_matches(truth: Iterable[dict], uploads: list[dict], releases: Iterable[dict],
                  links: dict[str, Iterable[int]] | None, alone: Iterable[str] = (),
                  passwords: dict[int, str | None] | None = None) -> dict | None:
    """The spot inspector's matching scored by the truth: an upload's spot
    linked to exactly the visible releases that hold its upload's articles
    (a merged-away release counts as its survivor; a spot standing alone is
    the release made of its NZB, so it holds them too), a disposed spot
    linked to nothing (its links taken back), a forged or a placeholder spot
    to no upload's release. links: spot message-id -> the release ids it is
    linked to, from the inspector's table; None while there is none to read
    (then None: not scored). alone: the spots linked as releases of their
    own (counted apart). passwords: release id -> its known password; a
    spot that tells its upload's password must have given it to every
    release it is linked to, a disposed one to none."""
    if links is None:
        return None
    alone = set(alone)
    survivor: dict[str, int] = {}
    merged: dict[int, int] = {}                 # a merged-away release -> its survivor
    for rel in releases:
        if rel.get("merged_into") is not None:
            merged[int(rel["id"])] = int(rel["merged_into"])
        elif rel.get("hidden"):                 # judged: not an upload's release to link
            continue
        for mid in rel["message_ids"]:
            survivor[mid] = rel.get("merged_into") or rel["id"]
    owned = set(survivor.values())
    out = {"spots": 0, "right": 0, "alone": 0, "wrong": 0, "unmatched": 0, "upload_not_in_catalog": 0,
           "disposed_linked": 0, "forged_linked": 0, "placeholder_linked": 0,
           "passwords": {"told": 0, "reached": 0, "disposed_kept": 0}, "examples": []}
    for t in truth:
        kind = spot_kind(t)
        linked = {merged.get(int(r), int(r)) for r in links.get(t["message_id"], ())}
        if kind in ("forged", "placeholder"):
            out[f"{kind}_linked"] += bool(linked & owned)
            continue
        if kind == "dispose":
            continue
        if kind == "disposed":
            out["disposed_linked"] += bool(linked)
            if passwords is not None and t.get("password"):
                out["passwords"]["disposed_kept"] += t["password"] in passwords.values()
            continue
        out["spots"] += 1
        want = {survivor[m] for m in truth_message_ids(uploads[t["upload"]]) if m in survivor}
        if not want:
            out["upload_not_in_catalog"] += 1
            verdict = "wrong" if linked else None
        elif not linked:
            verdict = "unmatched"
        else:
            verdict = "right" if linked == want else "wrong"
        if verdict == "right" and t["message_id"] in alone:
            verdict = "alone"
        if verdict:
            out[verdict] += 1
        if passwords is not None and t.get("password"):
            out["passwords"]["told"] += 1
            out["passwords"]["reached"] += bool(linked) and all(passwords.get(r) == t["password"] for r in linked)
        if verdict not in ("right", "alone") and len(out["examples"]) < EXAMPLES:
            out["examples"].append({"message_id": t["message_id"], "upload": t["upload"],
                                    "want": sorted(want), "linked": sorted(linked)})
    out["all_right"] = (out["right"] + out["alone"] == out["spots"] - out["upload_not_in_catalog"]
                        and out["wrong"] == 0
                        and not (out["disposed_linked"] or out["forged_linked"] or out["placeholder_linked"])
                        and out["passwords"]["reached"] == out["passwords"]["told"]
                        and not out["passwords"]["disposed_kept"])
    return out
