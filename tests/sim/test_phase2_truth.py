"""sim.phase2_truth on hand-made truth and catalogs: an upload is whole only
in one visible release under its true name with all its articles; a merged
release counts as its survivor; mixing two uploads and a nameless upload in
the catalog are counted."""
from __future__ import annotations

import pytest

from sim.phase2_truth import score_phase2


def upload(key, name, named_by, mids, shapes=("random_files",), **extra):
    return {"kind": "pending", "name": name, "upload": key, "named_by": named_by, "shapes": list(shapes),
            "files": [{"name": f"f{i}", "bytes": 1, "segments": [[1, m, 100]]} for i, m in enumerate(mids)],
            **extra}


def release(rid, name, mids, merged_into=None, hidden=False):
    return {"id": rid, "name": name, "merged_into": merged_into, "hidden": hidden, "message_ids": set(mids)}


def test_a_named_upload_whole_in_one_release():
    truth = [upload("u1", "Some.Film.2020", "par2", ["a", "b", "c"])]
    got = score_phase2(truth, [release(1, "Some.Film.2020", ["a", "b", "c"])])
    assert got["named"]["uploads"] == 1 and got["named"]["whole"] == 1
    assert got["by_shape"] == {"random_files": {"uploads": 1, "whole": 1}}
    assert got["mixed"] == 0 and got["nameless_in_catalog"] == 0


@pytest.mark.parametrize("releases", [
    [release(1, "Some.Film.2020", ["a", "b"]), release(2, "c", ["c"])],          # split in two
    [release(1, "Some.Film.2020", ["a", "b"])],                                  # an article missing
    [release(1, "9f3c0e", ["a", "b", "c"])],                                     # not named
    [release(1, "Some.Film.2020", ["a", "b", "c"], hidden=True)],               # hidden
])
def test_an_upload_split_unnamed_short_or_hidden_is_not_whole(releases):
    got = score_phase2([upload("u1", "Some.Film.2020", "archive", ["a", "b", "c"])], releases)
    assert got["named"] == {"uploads": 1, "whole": 0, "misses": [
        {"upload": "u1", "name": "Some.Film.2020", "releases": sorted({r["id"] for r in releases})}]}


def test_merged_releases_count_as_their_survivor():
    # the upload's pieces (its sidecars posted apart) share its id
    truth = [upload("u1", "Show.S01E01", "par2", ["a", "b"]), upload("u1", "Show.S01E01", "par2", ["n"])]
    releases = [release(1, "Show.S01E01", ["a"]), release(2, "x", ["b"], merged_into=1, hidden=True),
                release(3, "Show.S01E01.nfo", ["n"], merged_into=1, hidden=True)]
    got = score_phase2(truth, releases)
    assert got["named"]["whole"] == 1 and got["mixed"] == 0


def test_a_release_holding_two_uploads_is_mixed():
    # a repost merged into its original, and an advert's two copies merged
    truth = [upload("u1", "A", "par2", ["a1", "a2"]), upload("u2", "A", "par2", ["b1", "b2"], repost_of="u1"),
             upload("u3", "B", "subject", ["c1"], shapes=("common_file",))]
    releases = [release(1, "A", ["a1", "a2"]), release(2, "A", ["b1", "b2"], merged_into=1, hidden=True),
                release(3, "B", ["c1"])]
    got = score_phase2(truth, releases)
    assert got["mixed"] == 1 and got["mixed_examples"] == [{"release": 1, "uploads": ["u1", "u2"]}]
    assert got["named"]["whole"] == 0
    assert got["by_shape"]["common_file"] == {"uploads": 1, "whole": 1}


def test_a_nameless_upload_in_the_catalog():
    truth = [upload("u1", "", None, ["a"], shapes=("nameless",)), upload("u2", "", None, ["b"], shapes=("nameless",)),
             upload("u3", "", None, ["c"], shapes=("nameless",))]
    releases = [release(1, "a", ["a"]), release(2, "b", ["b"], hidden=True)]   # u3 stays pending
    got = score_phase2(truth, releases)
    assert got["nameless_in_catalog"] == 1 and got["nameless"]["uploads"] == 3
    assert got["nameless"]["misses"] == [{"upload": "u1", "name": "", "releases": [1]}]
    assert got["named"]["uploads"] == 0 and "nameless" not in got["by_shape"]


def test_a_truth_without_upload_keys_is_refused():
    rec = upload("u1", "A", "par2", ["a"])
    del rec["upload"]
    with pytest.raises(ValueError):
        score_phase2([rec], [])


def test_a_random_named_common_file_may_stay_out_but_never_elsewhere():
    # the advert under a random name: nothing but its shared start ties it to the upload
    rec = upload("u1", "Some.Film.2020", "par2", ["a", "b", "ad"])
    rec["files"][2].update(common=True, renamed_from="Visit-Deals.jpg")
    whole = score_phase2([rec], [release(1, "Some.Film.2020", ["a", "b"])])
    assert whole["named"]["whole"] == 1
    other = upload("u2", "Other.Film.2021", "par2", ["c"])
    mixed = score_phase2([rec, other], [release(1, "Some.Film.2020", ["a", "b"]),
                                        release(2, "Other.Film.2021", ["c", "ad"])])
    assert mixed["named"]["whole"] == 0 and mixed["mixed"] == 1
    kept_apart = score_phase2([rec], [release(1, "Some.Film.2020", ["a", "b"]), release(2, "Some.Film.2020", ["ad"])])
    assert kept_apart["named"]["whole"] == 0
