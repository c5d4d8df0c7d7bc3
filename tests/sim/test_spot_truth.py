"""sim.spot_truth: the spotter and the inspector's matching scored by the
spots' truth, on hand-made truth and rows."""
from sim.spot_truth import score_matches, score_spots, spot_kind


def upload(name, mids):
    return {"name": name, "files": [{"name": name + ".rar", "segments": [[i + 1, m, 1] for i, m in enumerate(mids)]}]}


UPLOADS = [upload("First.Film.2020", ["a1", "a2"]), upload("Second.Show.S01E01", ["b1"]),
           upload("Third.Album.2021", ["c1"])]
TRUTH = [{"message_id": "s1@x", "upload": 0, "verified": True, "trusted": True, "disposed": True},
         {"message_id": "s2@x", "upload": 1, "verified": True, "trusted": True},
         {"message_id": "s3@x", "upload": 2, "verified": True, "trusted": True},
         {"message_id": "f@x", "verified": False, "trusted": False, "forged": True},
         {"message_id": "p@x", "verified": True, "trusted": True, "placeholder": True},
         {"message_id": "d@x", "verified": True, "trusted": True, "dispose": "s1@x"}]
FTD = {"n1@x", "n2@x", "n3@x"}


def rows():
    """What a spotter that got everything right stored."""
    return {"s1@x": {"verified": True, "trusted": True, "disposed": True, "title": "First.Film.2020", "nzb": ["n1@x"]},
            "s2@x": {"verified": True, "trusted": True, "disposed": False, "title": "Second.Show.S01E01",
                     "nzb": ["n2@x"]},
            "s3@x": {"verified": True, "trusted": True, "disposed": False, "title": "Third.Album.2021",
                     "nzb": ["n3@x"]},
            "f@x": {"verified": False, "trusted": False, "disposed": False, "title": "a forged title", "nzb": []},
            "p@x": {"verified": True, "trusted": True, "disposed": False, "title": "placeholder spot",
                    "nzb": ["missing@x"]},
            "d@x": {"verified": True, "trusted": True, "disposed": False, "title": "dispose s1@x", "nzb": [],
                    "command": "dispose", "target": "s1@x"}}


def test_kinds_follow_the_hard_case_each_spot_plants():
    assert [spot_kind(t) for t in TRUTH] == ["disposed", "spot", "spot", "forged", "placeholder", "dispose"]


def test_a_spotter_that_read_everything_right_agrees_everywhere():
    score = score_spots(TRUTH, rows(), UPLOADS, FTD)
    assert score["all_agree"] and (score["spots"], score["read"], score["agree"]) == (6, 6, 6)
    assert score["by_kind"]["spot"] == {"truth": 2, "read": 2, "agree": 2, "verified": 2, "trusted": 2, "disposed": 0}
    assert score["by_kind"]["forged"]["trusted"] == 0 and score["disposes"] == {"truth": 1, "honoured": 1}


def test_each_way_of_getting_a_spot_wrong_is_a_disagreement_with_its_reason():
    bad = rows()
    bad["f@x"].update(verified=True, trusted=True)          # a forged signature accepted
    bad["s1@x"]["disposed"] = False                         # the dispose not honoured
    del bad["s2@x"]                                         # a spot never read
    bad["s3@x"]["title"] = "Third.Album"                    # a title misread
    bad["p@x"]["nzb"] = ["n1@x"]                            # a placeholder's NZB found
    bad["x@x"] = {"verified": True, "trusted": True}        # a spot the simulator never posted
    score = score_spots(TRUTH, bad, UPLOADS, FTD)
    assert not score["all_agree"] and score["disagree"] == 5 and score["agree"] == 1
    why = {d["message_id"]: d["why"] for d in score["disagreements"]}
    assert why["f@x"] == ["trusted, its truth is not", "verified"]
    assert why["s1@x"] == ["not disposed"] and why["s2@x"] == ["not read"]
    assert why["s3@x"] == ["title is not its upload's name"]
    assert why["p@x"] == ["a placeholder's NZB found posted"]
    assert score["forged_trusted"] == 1 and score["disposes"]["honoured"] == 0
    assert score["not_in_truth_examples"] == ["x@x"] and score["read"] == 5


def test_a_trusted_spot_read_untrusted_and_a_dispose_read_as_a_spot_disagree():
    bad = rows()
    bad["s2@x"]["trusted"] = False
    bad["d@x"].update(command=None, target=None)
    why = {d["message_id"]: d["why"] for d in score_spots(TRUTH, bad)["disagreements"]}
    assert why == {"s2@x": ["not trusted"], "d@x": ["not read as the dispose of its target"]}


def release(rid, mids, merged_into=None, hidden=False):
    return {"id": rid, "name": f"r{rid}", "merged_into": merged_into, "hidden": hidden, "message_ids": mids}


def test_matches_are_not_scored_without_the_inspectors_links():
    assert score_matches(TRUTH, UPLOADS, [release(1, ["a1", "a2"])], None) is None


def test_matches_right_by_the_survivor_of_the_uploads_releases():
    releases = [release(1, ["a1", "a2"]), release(2, ["b1"]), release(3, ["c1"]), release(4, ["c9"], merged_into=3)]
    links = {"s2@x": [2], "s3@x": [3]}
    m = score_matches(TRUTH, UPLOADS, releases, links)
    assert (m["spots"], m["right"], m["wrong"], m["unmatched"]) == (2, 2, 0, 0) and m["all_right"]
    # a merged-away release counts as its survivor
    split = [release(2, ["b1"]), release(5, ["c1"], merged_into=3), release(3, ["c2"])]
    assert score_matches(TRUTH, UPLOADS, split, {"s2@x": [2], "s3@x": [3]})["right"] == 2
    # a link to a release merged away since is a link to its survivor
    assert score_matches(TRUTH, UPLOADS, split, {"s2@x": [2], "s3@x": [5]})["right"] == 2


def test_alone_spots_and_passwords_told():
    releases = [release(2, ["b1"]), release(9, ["c1"])]            # 9: the spot's own release
    truth = [dict(t) for t in TRUTH]
    truth[1]["password"] = "pw2"
    truth[0]["password"] = "gone"                                  # the disposed one's
    m = score_matches(truth, UPLOADS, releases, {"s2@x": [2], "s3@x": [9]}, alone={"s3@x"},
                      passwords={2: "pw2"})
    assert (m["right"], m["alone"], m["passwords"]) == (1, 1, {"told": 1, "reached": 1, "disposed_kept": 0})
    assert m["all_right"]
    m = score_matches(truth, UPLOADS, releases, {"s2@x": [2], "s3@x": [9]}, alone={"s3@x"},
                      passwords={2: None, 9: "gone"})
    assert m["passwords"] == {"told": 1, "reached": 0, "disposed_kept": 1} and not m["all_right"]


def test_matches_wrong_unmatched_and_links_that_must_not_be():
    releases = [release(1, ["a1", "a2"]), release(2, ["b1"]), release(3, ["c1"])]
    links = {"s1@x": [1],               # disposed: its links must be taken back
             "s2@x": [3],               # another upload's release
             "f@x": [2],                # a forged spot matched
             "p@x": [1]}                # a placeholder matched to an upload's release
    m = score_matches(TRUTH, UPLOADS, releases, links)
    assert (m["right"], m["wrong"], m["unmatched"]) == (0, 1, 1)
    assert (m["disposed_linked"], m["forged_linked"], m["placeholder_linked"]) == (1, 1, 1)
    assert not m["all_right"]
    assert {e["message_id"]: (e["want"], e["linked"]) for e in m["examples"]} == {"s2@x": ([2], [3]),
                                                                                   "s3@x": ([3], [])}


def test_an_upload_the_catalog_never_held_is_counted_apart():
    m = score_matches(TRUTH, UPLOADS, [release(2, ["b1"])], {"s2@x": [2]})
    assert (m["right"], m["upload_not_in_catalog"], m["wrong"]) == (1, 1, 0) and m["all_right"]
