"""A generated catalog for `voyager bench api`: a `_scratch` database with the
schema and N releases shaped like an indexer's (names from sim.names' vocabulary
and a larger generated title vocabulary, skewed like real titles; categories
spread as on a general indexer; texts kind 1; chunks copied from a handful of
real chunks made by ext.codec, the release row's files, segments and bytes
those of its chunk). Built with INSERT ... SELECT over generate_series, the
indexes after the rows; reused when already there (the same size: another
seed draws other requests from the same rows; `rebuild` builds it again).

One catalog of a size is shared by the benches that read a big catalog (api,
judge, phase2, store --into, scale): what a bench plants it removes again,
and `as_found` puts back what running the product's jobs on it moves.
"""
from __future__ import annotations

import contextlib
import random
import sys
import time

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from sim import names

SCRATCH_DB = "voyager_bench_scratch"

GROUPS = ["alt.binaries.boneless", "alt.binaries.multimedia", "alt.binaries.teevee", "alt.binaries.moovee",
          "alt.binaries.hdtv", "alt.binaries.erotica", "alt.binaries.sounds.mp3.complete_cd",
          "alt.binaries.sounds.flac", "alt.binaries.ebook", "alt.binaries.comics.dcp", "alt.binaries.games",
          "alt.binaries.console.ps3", "alt.binaries.nintendo.ds", "alt.binaries.cd.image", "alt.binaries.mac",
          "alt.binaries.misc", "alt.binaries.ath", "alt.binaries.dvd", "alt.binaries.hdtv.x264",
          "alt.binaries.tv", "alt.binaries.anime", "alt.binaries.documentaries", "alt.binaries.x264",
          "alt.binaries.mom"]

# (files, segments per file): the chunk templates; the last is the 100-file
# release `t=get` is measured with.
TEMPLATES = [(1, 12), (4, 8), (12, 8), (25, 6), (100, 50)]
GET_TEMPLATE = len(TEMPLATES)          # 1-based index of the 100-file template in SQL arrays
ARTICLE = 716_800


def title_vocabulary(n: int = 4000, seed: int = 7) -> list[str]:
    """sim.names' title words and n generated ones (pronounceable, distinct)."""
    rng = random.Random(seed)
    onsets = ["b", "br", "c", "ch", "d", "dr", "f", "g", "gr", "h", "j", "k", "l", "m", "n", "p", "pr", "r", "s",
              "sh", "st", "t", "tr", "v", "w", "z"]
    vowels = ["a", "e", "i", "o", "u", "ai", "ea", "ou", "y"]
    codas = ["", "", "n", "r", "s", "l", "th", "nd", "ck", "x"]
    words = list(dict.fromkeys(names._WORDS))
    seen = {w.lower() for w in words}
    while len(words) < n + len(names._WORDS):
        w = "".join(rng.choice(onsets) + rng.choice(vowels) for _ in range(rng.randint(1, 3))) + rng.choice(codas)
        if 4 <= len(w) <= 11 and w not in seen:
            seen.add(w)
            words.append(w.capitalize())
    return words


def _chunk(files: int, segs: int, serial: int) -> bytes:
    from ext import codec

    rng = names.Random(serial)
    ids = names.MessageIds(rng)
    out = []
    for i in range(files):
        parts = [(p, ids("nyuu", p, segs).encode(), ARTICLE if p < segs else 402_117) for p in range(1, segs + 1)]
        size = sum(b for _p, _m, b in parts) * 97 // 100
        name = f"{rng.randbytes(8).hex()}.part{i + 1:03d}.rar" if files > 1 else f"{rng.randbytes(8).hex()}.mkv"
        out.append((name.encode(), size, parts))
    return codec.encode(out)


def templates() -> list[tuple[int, int, int, bytes]]:
    """(files, segments, bytes, chunk) per template."""
    out = []
    for k, (files, segs) in enumerate(TEMPLATES):
        chunk = _chunk(files, segs, 1000 + k)
        size = files * ((segs - 1) * ARTICLE + 402_117) * 97 // 100
        out.append((files, files * segs, size, chunk))
    return out


FILL_SQL = """
WITH v AS (SELECT %(words)s::text[] AS w, %(groups)s::text[] AS grp, %(artists)s::text[] AS art,
                  %(authors)s::text[] AS aut, %(soft)s::text[] AS soft, %(tags)s::text[] AS tag,
                  cardinality(%(words)s::text[]) AS nw),
g AS (
    SELECT i, random() AS u, random() AS k, (random() * 1000) AS age,
           -- a skewed pick from the title vocabulary: low indexes (common words) far more often
           (SELECT w[1 + floor(nw * power(random(), 2.5))::int] FROM v WHERE i > 0) AS w1,
           (SELECT w[1 + floor(nw * power(random(), 2.5))::int] FROM v WHERE i > 0) AS w2,
           (SELECT w[1 + floor(nw * power(random(), 2.5))::int] FROM v WHERE i > 0) AS w3,
           floor(random() * 3)::int AS nwords, floor(random() * 1000)::int AS r1, floor(random() * 1000)::int AS r2
      FROM generate_series(%(first)s::bigint, %(last)s::bigint) i
), named AS (
    SELECT g.*, v.*,
           concat_ws('.', w1, CASE WHEN nwords >= 1 THEN w2 END, CASE WHEN nwords >= 2 THEN w3 END) AS title,
           (ARRAY['720p', '1080p', '1080p', '2160p'])[1 + r1 %% 4] AS res,
           (ARRAY['WEB', 'WEB-DL', 'WEBRip', 'HDTV', 'BluRay'])[1 + r2 %% 5] AS src,
           (ARRAY['x264', 'h264', 'x265', 'HEVC'])[1 + (r1 / 4) %% 4] AS vcodec,
           tag[1 + (r2 / 5) %% cardinality(tag)] AS tg
      FROM g, v
), shaped AS (
    SELECT i, age, k, r1, r2, grp,
           CASE
             WHEN u < 0.36 THEN format('%%s.S%%sE%%s.%%s.%%s.%%s-%%s', title, lpad((1 + r1 %% 12)::text, 2, '0'),
                                       lpad((1 + r2 %% 24)::text, 2, '0'), res, src, vcodec, tg)
             WHEN u < 0.40 THEN format('%%s.%%s.%%s.%%s.%%s.WEB.%%s-%%s', title, 2020 + r1 %% 7,
                                       lpad((1 + r2 %% 12)::text, 2, '0'), lpad((1 + r1 %% 28)::text, 2, '0'),
                                       res, vcodec, tg)
             WHEN u < 0.65 THEN format('%%s.%%s.%%s.%%s.%%s-%%s', title, 1970 + r1 %% 57, res,
                                       (ARRAY['WEB-DL', 'BluRay', 'UHD.BluRay', 'WEBRip', 'REMUX'])[1 + r2 %% 5],
                                       (ARRAY['x264', 'x265', 'H.264', 'HEVC', 'AV1'])[1 + (r1 / 3) %% 5], tg)
             WHEN u < 0.75 THEN format('%%s - %%s (%%s) [%%s]', art[1 + r1 %% cardinality(art)], replace(title, '.', ' '),
                                       1965 + r2 %% 61, (ARRAY['FLAC', 'MP3 320', 'MP3 V0', 'WEB FLAC'])[1 + r1 %% 4])
             WHEN u < 0.80 THEN format('%%s - %%s (%%s) (%%s)', aut[1 + r1 %% cardinality(aut)], replace(title, '.', ' '),
                                       1950 + r2 %% 76, (ARRAY['epub', 'pdf', 'mobi', 'cbr'])[1 + r1 %% 4])
             WHEN u < 0.86 THEN format('%%s.%%s.v%%s.%%s.x64-%%s', soft[1 + r1 %% cardinality(soft)], 2015 + r2 %% 11,
                                       1 + r1 %% 30, r2 %% 10, tg)
             WHEN u < 0.93 THEN format('%%s.%%s.%%s.%%s.%%s.XXX.%%s.MP4-%%s', w1, 20 + r1 %% 6,
                                       lpad((1 + r2 %% 12)::text, 2, '0'), lpad((1 + r1 %% 28)::text, 2, '0'), w2, res, tg)
             WHEN u < 0.95 THEN format('%%s.%%s-%%s', title, (ARRAY['PS4', 'NSW', 'XBOX360', 'PS3', 'NDS'])[1 + r1 %% 5], tg)
             ELSE format('%%s.%%s.%%s-%%s', title, (ARRAY['Misc', 'Sample', 'Collection', 'Pack'])[1 + r1 %% 4], r2, tg)
           END AS name,
           CASE
             WHEN u < 0.36 THEN (ARRAY[5040, 5040, 5030, 5045, 5010, 5070, 5080, 5060])[1 + (r1 + r2) %% 8]
             WHEN u < 0.40 THEN 5040
             WHEN u < 0.65 THEN (ARRAY[2040, 2040, 2045, 2030, 2050, 2080, 2010, 2090])[1 + (r1 + r2) %% 8]
             WHEN u < 0.75 THEN (ARRAY[3010, 3040, 3010, 3050])[1 + r1 %% 4]
             WHEN u < 0.80 THEN (ARRAY[7020, 7020, 7030, 7010])[1 + r1 %% 4]
             WHEN u < 0.86 THEN (ARRAY[4010, 4020, 4030, 4050, 4070])[1 + r1 %% 5]
             WHEN u < 0.93 THEN (ARRAY[6040, 6045, 6080, 6090])[1 + r1 %% 4]
             WHEN u < 0.95 THEN (ARRAY[1180, 1110, 1050, 1080, 1010])[1 + r1 %% 5]
             WHEN u < 0.98 THEN 8010
           END AS category,
           -- the chunk template: the 100-file release for one in 200
           CASE WHEN r1 %% 200 = 7 THEN 5
                WHEN u < 0.40 THEN 3 WHEN u < 0.65 THEN 4 WHEN u < 0.75 THEN 4
                WHEN u < 0.80 THEN 1 ELSE 2 END AS tpl
      FROM named
)
INSERT INTO voyager.releases (posted_at, last_posted_at, first_article, last_article, segments, bytes, settled_at,
                              group_id, group_set_id, poster_id, file_total, files, category, source, complete,
                              has_par2, edge, release_key, identity_key, name)
SELECT now() - make_interval(secs => age * 86400), now() - make_interval(secs => age * 86400 - 600),
       i * 100, i * 100 + 99, (%(tsegs)s::bigint[])[tpl], (%(tbytes)s::bigint[])[tpl],
       now() - make_interval(secs => age * 86400 - 90000),
       gs.group_id, gs.id, 1 + (r1 * 1000 + r2) %% %(posters)s, (%(tfiles)s::int[])[tpl], (%(tfiles)s::int[])[tpl],
       category, 1, k < 0.96, k < 0.85, false,
       substring(sha256(('r' || i)::bytea) FROM 1 FOR 20), substring(sha256(('i' || i)::bytea) FROM 1 FOR 20), left(name, 255)
  FROM shaped
  JOIN LATERAL (SELECT s.id, (SELECT id FROM voyager.groups WHERE name = s.groups[1]) AS group_id
                  FROM voyager.group_sets s WHERE s.id = 1 + (r2 * 7 + r1) %% %(group_sets)s OFFSET 0) gs ON true
"""


def _admin(dsn: str) -> str:
    return psycopg.conninfo.make_conninfo(dsn, dbname="postgres")


def scratch_name(releases: int) -> str:
    """The one catalog of a size the benches share: the million's keeps its old name."""
    return SCRATCH_DB if releases == 1_000_000 else f"voyager_bench_{releases}_scratch"


def scratch_dsn(dsn: str, name: str = SCRATCH_DB) -> str:
    return psycopg.conninfo.make_conninfo(dsn, dbname=name)


def present(dsn: str, releases: int) -> int | None:
    """The seed a catalog of this size was built with, when it is there."""
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            row = conn.execute("SELECT releases, seed FROM public.bench_catalog").fetchone()
    except psycopg.Error:
        return None
    return row[1] if row is not None and row[0] == releases else None


def build(base_dsn: str, releases: int = 1_000_000, seed: int = 1, name: str | None = None, log=print,
          rebuild: bool = False, template: str | None = None) -> str:
    """The scratch database's DSN, with its catalog built (or found already built);
    `template`: a database with the schema deployed to copy (the tests'), not sqitch."""
    from voyager import schema, sqitch

    name = name or scratch_name(releases)
    assert name.endswith("_scratch"), "the bench catalog lives in a _scratch database"
    dsn = scratch_dsn(base_dsn, name)
    built = None if rebuild else present(dsn, releases)
    if built is not None:
        # another seed draws other requests from the same rows: a catalog of
        # this size is hours of building, made again only when asked (rebuild)
        if built != seed:
            log(f"bench catalog: {name} was built with seed {built}, kept (rebuild to build it with seed {seed})")
        # later schema changes, on the same rows; none when another checkout
        # has deployed changes this one's plan lacks (the catalog is shared)
        ahead = {c for c, _ in schema.deployed_changes(dsn)} - schema.plan_change_ids("sqitch.plan")
        if ahead:
            log(f"bench catalog: {name} holds {len(ahead)} changes this checkout's sqitch.plan lacks: not deployed")
        else:
            schema.deploy(dsn, log=lambda _: None)
        log(f"bench catalog: {releases:,} releases already in {name}")
        return dsn
    started = time.monotonic()
    with psycopg.connect(_admin(base_dsn), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
                     + (sql.SQL(" TEMPLATE {}").format(sql.Identifier(template)) if template else sql.SQL("")))
    if not template:
        sqitch.run(dsn, "deploy")
    vocab = title_vocabulary()
    tpls = templates()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("SET synchronous_commit = off")
        conn.execute("SELECT setseed(%s)", (1 / (seed + 1),))
        for i, g in enumerate(GROUPS):
            conn.execute("INSERT INTO voyager.groups (priority, name, low, high) VALUES (%s, %s, 1, 100000000)",
                         (i + 1, g))
        rng = random.Random(seed)
        sets = [[g] for g in GROUPS] + [sorted(rng.sample(GROUPS, 2)) for _ in range(40)]
        sets = list(dict.fromkeys(tuple(s) for s in sets))
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO voyager.group_sets (groups) VALUES (%s)", [(list(s),) for s in sets])
        posters = 20_000
        conn.execute("""INSERT INTO voyager.posters (poster)
                        SELECT format('%%s <%%s@%%s>', (ARRAY['John', 'Maria', 'Peter', 'Anna', 'Yenc', 'up'])[1 + g %% 6],
                                      md5('p' || g), (ARRAY['ngPost.com', 'nyuu', 'power-post.org', 'gmail.com'])[1 + g %% 4])
                          FROM generate_series(1, %s) g""", (posters,))
        # rows first, indexes after
        index_defs = conn.execute("""SELECT ic.relname, pg_get_indexdef(i.indexrelid)
                                       FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
                                       JOIN pg_class t ON t.oid = i.indrelid
                                       JOIN pg_namespace n ON n.oid = t.relnamespace
                                      WHERE n.nspname = 'voyager' AND t.relname IN ('releases', 'release_texts')
                                        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
                                   """).fetchall()
        for idx, _ in index_defs:
            conn.execute(sql.SQL("DROP INDEX voyager.{}").format(sql.Identifier(idx)))
        params = {"words": vocab, "groups": names._GROUPS, "artists": names._ARTISTS, "authors": names._AUTHORS,
                  "soft": names._SOFT, "tags": names._GROUPS, "posters": posters, "group_sets": len(sets),
                  "tsegs": [t[1] for t in tpls], "tbytes": [t[2] for t in tpls], "tfiles": [t[0] for t in tpls]}
        step = 250_000
        for first in range(1, releases + 1, step):
            conn.execute(FILL_SQL, {**params, "first": first, "last": min(first + step - 1, releases)})
            log(f"bench catalog: {min(first + step - 1, releases):,} releases ({time.monotonic() - started:.0f} s)")
        conn.execute("INSERT INTO voyager.release_texts (release_id, posted_at, kind, text) "
                     "SELECT id, posted_at, 1, name FROM voyager.releases")
        log(f"bench catalog: texts ({time.monotonic() - started:.0f} s)")
        conn.execute("""INSERT INTO voyager.release_chunks (release_id, month, chunk)
                        SELECT r.id, voyager.chunk_month(r.posted_at),
                               (%s::bytea[])[array_position(%s::int[], r.files)]
                          FROM voyager.releases r""", ([t[3] for t in tpls], [t[0] for t in tpls]))
        log(f"bench catalog: chunks ({time.monotonic() - started:.0f} s)")
        for idx, definition in index_defs:
            conn.execute(definition)
            log(f"bench catalog: {idx} ({time.monotonic() - started:.0f} s)")
        # the counts a running indexer has by now: every category, the words in
        # search_tracked_min releases or more (its searches and folds got there)
        conn.execute("SELECT voyager.rebuild_search_counts()")
        conn.execute("VACUUM ANALYZE")
        conn.execute("CREATE TABLE public.bench_catalog (releases integer, seed integer, built_at timestamptz DEFAULT now())")
        conn.execute("INSERT INTO public.bench_catalog (releases, seed) VALUES (%s, %s)", (releases, seed))
    log(f"bench catalog: built in {time.monotonic() - started:.0f} s")
    return dsn


# a table grown past this share of its size (its indexes too) is rewritten after a bench
GROWN = 0.02

# (not the chunks: cold, their dead space is reused)
SIZES_SQL = """SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c
                 JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = 'voyager' AND c.relkind = 'r' AND c.relname NOT LIKE 'release_chunks%'"""


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)


@contextlib.contextmanager
def as_found(dsn: str, log=_stderr):
    """Around a bench on a shared catalog: after it, the jobs' places and the
    settings as they were, the queues' and catalog_changes' rows and the
    nodes it added gone and the search count deltas folded (they net to
    nothing once its rows are removed): what the product's own functions
    moved, not what it planted. Then its pages: a table grown past GROWN
    (its indexes too) is rewritten (VACUUM FULL), or the rows it held for a
    while would stay in the catalog's hot bytes as empty pages."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        sizes = dict(conn.execute(SIZES_SQL).fetchall())
        started = conn.execute("SELECT clock_timestamp()").fetchone()[0]
        changes = conn.execute("SELECT coalesce(max(id), 0) FROM voyager.catalog_changes").fetchone()[0]
        jobs = conn.execute("SELECT name, to_jsonb(j) FROM voyager.jobs j").fetchall()
        settings = conn.execute("SELECT name, value FROM voyager.settings").fetchall()
    try:
        yield
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            cols = sql.SQL(", ").join(sql.Identifier(c) for c, in conn.execute(
                """SELECT attname FROM pg_attribute WHERE attrelid = 'voyager.jobs'::regclass AND attnum > 0
                    AND NOT attisdropped AND attname <> 'name' ORDER BY attnum"""))
            for name, row in jobs:
                conn.execute(sql.SQL("UPDATE voyager.jobs SET ({c}) = (SELECT {c} FROM jsonb_populate_record("
                                     "NULL::voyager.jobs, %s)) WHERE name = %s").format(c=cols),
                             (Jsonb(row), name))
            for name, value in settings:
                conn.execute("UPDATE voyager.settings SET value = %s WHERE name = %s AND value IS DISTINCT FROM %s",
                             (value, name, value))
            for table, at in (("judge_queue", "marked_at"), ("merge_settle_queue", "queued_at"),
                              ("recategorize_queue", "queued_at"), ("nodes", "first_seen_at")):
                conn.execute(sql.SQL("DELETE FROM voyager.{} WHERE {} >= %s").format(
                    sql.Identifier(table), sql.Identifier(at)), (started,))
            conn.execute("DELETE FROM voyager.catalog_changes WHERE id > %s", (changes,))
            conn.execute("SELECT voyager.fold_search_counts(0)")
            for table, size in conn.execute(SIZES_SQL).fetchall():
                was = sizes.get(table, 0)
                if size > was * (1 + GROWN) and size - was > 2**20:
                    t0 = time.monotonic()
                    conn.execute(sql.SQL("VACUUM (FULL, ANALYZE) voyager.{}").format(sql.Identifier(table)))
                    log(f"bench catalog: {table} rewritten ({size - was:,} bytes grown, {time.monotonic() - t0:.0f} s)")
