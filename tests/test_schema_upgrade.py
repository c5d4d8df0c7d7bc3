"""A database deployed from the old plan (several objects a change) moves onto
the baseline (one object a change, @v1.0) through `voyager db deploy`'s
upgrade: the registry changes, the objects and rows do not; one whose objects
differ from the baseline's is refused and left as it was."""
from __future__ import annotations

import tarfile
from pathlib import Path

import psycopg
import pytest

from tests.conftest import create_database, drop_database
from tests.helpers import plan
from voyager import schema, sqitch

ROOT = Path(__file__).resolve().parent.parent
# The old plan with its scripts as it was deployed (git archive of commit bd6edc7).
V0_ARCHIVE = ROOT / "tests" / "fixtures" / "schema_v0.tar.gz"


@pytest.fixture(scope="module")
def v0_project(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("schema_v0")
    with tarfile.open(V0_ARCHIVE) as tar:
        tar.extractall(folder, filter="data")
    return folder


@pytest.fixture
def v0_dsn(admin_dsn, v0_project):
    """A database deployed from the old plan, with a group and a release in it."""
    name = "voyager_upgrade_v0"
    dsn = create_database(admin_dsn, name)
    sqitch.run(dsn, "deploy", project=v0_project)
    with psycopg.connect(dsn, autocommit=True) as conn:
        plan(conn, [{"name": "alt.binaries.a", "low": 10, "high": 5_000_000}])
        conn.execute("""
            INSERT INTO voyager.releases (posted_at, first_article, last_article, segments, bytes, group_id,
                                          group_set_id, poster_id, files, source, complete, has_par2,
                                          release_key, identity_key, name)
            VALUES (now(), 11, 20, 10, 1000, 1, 1, 1, 1, 1, true, false,
                    decode(repeat('ab', 20), 'hex'), decode(repeat('cd', 20), 'hex'), 'Some.Release.2026')""")
    yield dsn
    drop_database(admin_dsn, name)


def baseline_changes() -> list[str]:
    """The plan's changes up to the tag @v1.0."""
    names = []
    for line in (ROOT / "sqitch.plan").read_text().splitlines():
        if line.startswith("@v1.0"):
            return names
        if line and not line.startswith(("%", "#", "@")):
            names.append(line.split()[0])
    raise AssertionError("sqitch.plan has no tag @v1.0")


def test_the_old_plan_moves_onto_the_baseline_without_touching_its_objects(v0_dsn, template_db):
    old_registry = schema.deployed_changes(v0_dsn)
    assert "search_words" in [name for _, name in old_registry]
    logged = []
    schema.deploy(v0_dsn, log=logged.append)       # what `voyager db deploy` runs
    assert any("onto the baseline @v1.0" in line for line in logged)

    assert schema.dump(v0_dsn) == schema.dump(template_db[1])
    names = [name for _, name in schema.deployed_changes(v0_dsn)]
    assert names[:len(baseline_changes())] == baseline_changes()
    with psycopg.connect(v0_dsn, autocommit=True) as conn:
        # the baseline's tag, and the plan's later ones as the ordinary deploy after it passed them
        plan_tags = sorted(line.split()[0] for line in (ROOT / "sqitch.plan").read_text().splitlines()
                           if line.startswith("@"))
        tags = sorted(t for (t,) in conn.execute("SELECT tag FROM sqitch.tags WHERE project = 'voyager'"))
        assert "@v1.0" in tags and tags == plan_tags
        assert conn.execute("SELECT name FROM voyager.groups").fetchall() == [("alt.binaries.a",)]
        assert conn.execute("SELECT name FROM voyager.releases").fetchall() == [("Some.Release.2026",)]
        assert conn.execute("SELECT count(*) FROM voyager.ranges").fetchone()[0] > 0
    assert "Verify successful" in sqitch.run(v0_dsn, "verify").stdout

    # again: an ordinary deploy
    assert not schema.upgrade(v0_dsn)
    logged.clear()
    schema.deploy(v0_dsn, log=logged.append)
    assert logged == ["Nothing to deploy (up-to-date)"]


def test_a_database_whose_objects_differ_from_the_baseline_is_refused_and_left_as_it_was(v0_dsn):
    with psycopg.connect(v0_dsn, autocommit=True) as conn:
        conn.execute("ALTER TABLE voyager.groups ADD COLUMN note text")
    before_registry, before_dump = schema.deployed_changes(v0_dsn), schema.dump(v0_dsn)
    with pytest.raises(schema.UpgradeRefused) as refused:
        schema.deploy(v0_dsn)
    assert "-    note text" in str(refused.value)          # the diff shows what this database has
    assert schema.deployed_changes(v0_dsn) == before_registry
    assert schema.dump(v0_dsn) == before_dump
    with psycopg.connect(v0_dsn, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM voyager.releases").fetchone()[0] == 1
