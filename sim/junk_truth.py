"""The junk judge scored against a corpus of the junk profile: what verdict
each upload's catalog release got.

    score_junk(truth, releases, judgements) -> dict

truth: the corpus's truth records (Corpus(root).truth()), with their upload
keys and, for the junk, `junk` (the verdict it must get); releases: the
catalog's releases as dicts (id, name, merged_into, hidden, message_ids), e.g.
workers.replay's catalog_releases; judgements: dicts (release_id, verdict,
hidden), the rows of voyager.release_judgements. Uploads and releases are
matched by message-id as sim.phase2_truth matches them; a merged-away
release counts as its survivor, and 'merged' is the merges' word, not a
verdict.

The report, per rule: junk uploads, judged right (every release holding it
got the rule's verdict), judged otherwise (a release of it got another
verdict), missed (no verdict, or no release in the catalog: not_in_catalog
of them), with examples; and real_content: uploads without a junk key whose
release got a verdict (must be 0), with examples.
"""
from __future__ import annotations

from typing import Iterable

from voyager.corpus import truth_message_ids

RULES = ("dead", "fake", "repeated", "locked", "unusable")
NOT_A_VERDICT = ("merged",)
EXAMPLES = 20


def score_junk(truth: Iterable[dict], releases: Iterable[dict], judgements: Iterable[dict]) -> dict:
    uploads: dict[str, dict] = {}
    for rec in truth:
        key = rec.get("upload")
        if key is None:
            raise ValueError("the truth has no upload keys: generate the corpus with --profile junk")
        up = uploads.setdefault(key, {"name": rec["name"], "junk": None, "shapes": set(), "mids": set()})
        up["junk"] = up["junk"] or rec.get("junk")
        up["shapes"].update(rec.get("shapes") or ())
        up["mids"] |= truth_message_ids(rec)
    survivor: dict[str, int] = {}
    for rel in releases:
        for mid in rel["message_ids"]:
            survivor[mid] = rel.get("merged_into") or rel["id"]
    verdict = {j["release_id"]: j["verdict"] for j in judgements if j["verdict"] not in NOT_A_VERDICT}

    by_rule = {r: {"uploads": 0, "right": 0, "otherwise": 0, "missed": 0, "not_in_catalog": 0, "examples": []}
               for r in RULES}
    real = {"uploads": 0, "judged": 0, "by_verdict": {}, "examples": []}
    for key, up in uploads.items():
        held = sorted({survivor[m] for m in up["mids"] if m in survivor})
        got = {rid: verdict.get(rid) for rid in held}
        if up["junk"] is None:
            real["uploads"] += 1
            wrong = {rid: v for rid, v in got.items() if v is not None}
            if wrong:
                real["judged"] += 1
                for v in set(wrong.values()):
                    real["by_verdict"][v] = real["by_verdict"].get(v, 0) + 1
                _example(real, key, up, got)
            continue
        tally = by_rule.setdefault(up["junk"], {"uploads": 0, "right": 0, "otherwise": 0, "missed": 0,
                                                "not_in_catalog": 0, "examples": []})
        tally["uploads"] += 1
        if held and all(v == up["junk"] for v in got.values()):
            tally["right"] += 1
            continue
        if any(v is not None and v != up["junk"] for v in got.values()):
            tally["otherwise"] += 1
        else:
            tally["missed"] += 1
            tally["not_in_catalog"] += not held
        _example(tally, key, up, got)
    return {"by_rule": by_rule, "real_content": real,
            "all_right": all(t["right"] == t["uploads"] for t in by_rule.values()) and real["judged"] == 0}


def _example(tally: dict, key: str, up: dict, got: dict) -> None:
    if len(tally["examples"]) < EXAMPLES:
        tally["examples"].append({"upload": key, "name": up["name"], "shapes": sorted(up["shapes"]),
                                  "verdicts": {str(rid): v for rid, v in got.items()}})
