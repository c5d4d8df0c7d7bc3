"""Phase 2 scored against a corpus of the phase2 profile: what its names and
merges made of each upload.

    score_phase2(truth, releases) -> dict

truth: the corpus's truth records (Corpus(root).truth()), with their upload
keys (upload, shapes, named_by); releases: the catalog's releases as dicts
(id, name, merged_into, hidden, message_ids), e.g. workers.replay's
catalog_releases. Uploads and releases are matched by message-id as the
replay's fidelity matches them (voyager.corpus.truth_message_ids, a chunk's
message-ids). A merged-away release counts as its survivor (merged_into never
chains); a hidden survivor is out of the catalog.

The report:
- named: uploads expected named by phase 2 (named_by par2 or archive), and
  `whole` of them: exactly one visible release with their true name, all
  their articles (pieces posted apart included; a common file under a random
  name may be missing, never elsewhere) and no other upload's;
- by_shape: the same per shape, for every upload with a name;
- mixed: releases holding articles of two different uploads (must be 0);
- nameless_in_catalog: uploads nothing names that a visible release holds
  (must be 0);
- up to 20 examples of each miss.
"""
from __future__ import annotations

from typing import Callable, Iterable

from voyager.corpus import truth_message_ids

PHASE2_NAMERS = ("par2", "archive")
EXAMPLES = 20


def score_phase2(truth: Iterable[dict], releases: Iterable[dict],
                 same_name: Callable[[str, str], bool] = lambda a, b: a == b) -> dict:
    uploads: dict[str, dict] = {}
    for rec in truth:
        key = rec.get("upload")
        if key is None:
            raise ValueError("the truth has no upload keys: generate the corpus with --profile")
        up = uploads.setdefault(key, {"name": rec["name"], "named_by": rec.get("named_by"),
                                      "shapes": set(), "mids": set()})
        up["shapes"].update(rec.get("shapes") or ())
        up["mids"] |= truth_message_ids(rec)
        # a common file (an advert many uploads hold) posted under a random name is tied to
        # its upload by nothing but its shared start, which must merge nothing: not required
        up.setdefault("loose", set()).update(s[1] for f in rec["files"] if f.get("common") and f.get("renamed_from")
                                             for s in f["segments"])

    survivor: dict[str, int] = {}            # message-id -> the release it ends in
    rows = {}
    for rel in releases:
        rows[rel["id"]] = rel
        for mid in rel["message_ids"]:
            survivor[mid] = rel.get("merged_into") or rel["id"]

    def visible(rid: int) -> bool:
        rel = rows.get(rid)
        return rel is not None and not rel.get("hidden") and rel.get("merged_into") is None

    held_by: dict[int, set] = {}             # a survivor -> the uploads it holds articles of
    holders = {}
    for key, up in uploads.items():
        holders[key] = {survivor[m] for m in up["mids"] if m in survivor}
        for rid in holders[key]:
            held_by.setdefault(rid, set()).add(key)
    named = {"uploads": 0, "whole": 0, "misses": []}
    by_shape: dict[str, dict] = {}
    nameless = {"uploads": 0, "in_catalog": 0, "misses": []}
    for key, up in uploads.items():
        held = holders[key]
        if up["named_by"] is None:
            nameless["uploads"] += 1
            if any(visible(rid) for rid in held):
                nameless["in_catalog"] += 1
                _example(nameless, key, up, held)
            continue
        rid = next(iter(held)) if len(held) == 1 else None
        # all its articles, nothing of another upload's, under its name
        whole = (rid is not None and visible(rid) and held_by[rid] == {key}
                 and all(m in survivor for m in up["mids"] - up["loose"]) and same_name(rows[rid]["name"], up["name"]))
        for shape in up["shapes"]:
            tally = by_shape.setdefault(shape, {"uploads": 0, "whole": 0})
            tally["uploads"] += 1
            tally["whole"] += whole
        if up["named_by"] in PHASE2_NAMERS:
            named["uploads"] += 1
            named["whole"] += whole
            if not whole:
                _example(named, key, up, held)
    mixed = sorted(rid for rid, keys in held_by.items() if len(keys) > 1)
    return {
        "named": named,
        "by_shape": dict(sorted(by_shape.items())),
        "mixed": len(mixed),
        "mixed_examples": [{"release": rid, "uploads": sorted(held_by[rid])} for rid in mixed[:EXAMPLES]],
        "nameless_in_catalog": nameless["in_catalog"],
        "nameless": nameless,
    }


def _example(tally: dict, key: str, up: dict, holders: set) -> None:
    if len(tally["misses"]) < EXAMPLES:
        tally["misses"].append({"upload": key, "name": up["name"], "releases": sorted(holders)})
