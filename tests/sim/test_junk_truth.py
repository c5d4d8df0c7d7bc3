"""sim.junk_truth: the junk judge scored by the truth, on hand-made truth."""
from sim.junk_truth import score_junk


def upload(key, name, mids, junk=None, shapes=("x",)):
    rec = {"upload": key, "name": name, "shapes": list(shapes),
           "files": [{"name": name + ".rar", "bytes": 1, "segments": [[i + 1, m, 1] for i, m in enumerate(mids)]}]}
    if junk:
        rec["junk"] = junk
    return rec


def release(rid, mids, merged_into=None):
    return {"id": rid, "name": f"r{rid}", "merged_into": merged_into, "hidden": False, "message_ids": mids}


def test_each_junk_upload_scored_by_its_releases_verdict():
    truth = [upload("u1", "Fake.2019.1080p", ["a1", "a2"], "fake"),
             upload("u2", "Locked.S01E01", ["b1"], "locked"),
             upload("u3", "Dead.2020", ["c1"], "dead"),
             upload("u4", "Gone.Nowhere", ["d1"], "unusable"),         # never reached the catalog
             upload("u5", "Real.Film.2021", ["e1", "e2"]),
             upload("u6", "Real.Show.S02E03", ["f1"]),
             upload("u7", "Split.Fake", ["g1", "g2"], "fake")]
    releases = [release(1, ["a1"]), release(2, ["a2"], merged_into=1), release(3, ["b1"]), release(4, ["c1"]),
                release(5, ["e1", "e2"]), release(6, ["f1"]), release(7, ["g1"]), release(8, ["g2"])]
    judgements = [{"release_id": 1, "verdict": "fake", "hidden": True},
                  {"release_id": 2, "verdict": "merged", "hidden": True},     # the merges', not a verdict
                  {"release_id": 3, "verdict": "unusable", "hidden": True},
                  {"release_id": 6, "verdict": "repeated", "hidden": True},
                  {"release_id": 7, "verdict": "fake", "hidden": True}]
    score = score_junk(truth, releases, judgements)
    r = score["by_rule"]
    assert (r["fake"]["uploads"], r["fake"]["right"], r["fake"]["missed"]) == (2, 1, 1)   # half of u7 unjudged
    assert (r["locked"]["right"], r["locked"]["otherwise"]) == (0, 1)
    assert (r["dead"]["uploads"], r["dead"]["missed"], r["dead"]["not_in_catalog"]) == (1, 1, 0)
    assert (r["unusable"]["missed"], r["unusable"]["not_in_catalog"]) == (1, 1)
    assert r["repeated"]["uploads"] == 0
    real = score["real_content"]
    assert (real["uploads"], real["judged"], real["by_verdict"]) == (2, 1, {"repeated": 1})
    assert real["examples"][0]["upload"] == "u6"
    assert score["all_right"] is False


def test_all_right_when_every_junk_upload_has_its_verdict_and_real_content_none():
    truth = [upload("u1", "Fake", ["a"], "fake"), upload("u2", "Real", ["b"])]
    score = score_junk(truth, [release(1, ["a"]), release(2, ["b"])],
                       [{"release_id": 1, "verdict": "fake", "hidden": True}])
    assert score["all_right"] is True and score["by_rule"]["fake"]["right"] == 1
