-- Deploy voyager:trigger_judge_marks to pg
BEGIN;
-- The judge's dirty marks: statement triggers on what its rules read mark the
-- releases concerned in judge_queue (once a release, ON CONFLICT DO NOTHING:
-- a writer never waits on the judge). Each reads its transition table and at
-- most an index probe a row; what none of them marks (time passing, a
-- release first settling with no facts yet, a start's holders counted twice)
-- the daily pass judges.

-- probe_cache: an article's answer, new or changed (a 430 that later reads),
-- marks the catalog releases whose candidate it is.
CREATE FUNCTION voyager.judge_mark_probe_cache() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO voyager.judge_queue (release_id)
    SELECT DISTINCT pc.release_id
      FROM new_rows n JOIN voyager.probe_candidates pc ON pc.message_id = n.message_id
     WHERE pc.release_id IS NOT NULL
     ORDER BY 1
        ON CONFLICT (release_id) DO NOTHING;
    RETURN NULL;
END $$;
CREATE TRIGGER probe_cache_judge_insert AFTER INSERT ON voyager.probe_cache
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_probe_cache();
CREATE TRIGGER probe_cache_judge_update AFTER UPDATE ON voyager.probe_cache
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_probe_cache();

-- probe_candidates: a catalog release's candidate answered (also from the
-- cache, or a pending release's candidates handed to its catalog release).
-- Claims touch only open candidates (probed_at null): they mark nothing.
CREATE FUNCTION voyager.judge_mark_probe_candidates() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO voyager.judge_queue (release_id)
    SELECT DISTINCT n.release_id FROM new_rows n
     WHERE n.release_id IS NOT NULL AND n.probed_at IS NOT NULL
     ORDER BY 1
        ON CONFLICT (release_id) DO NOTHING;
    RETURN NULL;
END $$;
CREATE TRIGGER probe_candidates_judge_insert AFTER INSERT ON voyager.probe_candidates
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_probe_candidates();
CREATE TRIGGER probe_candidates_judge_update AFTER UPDATE ON voyager.probe_candidates
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_probe_candidates();

-- file_hashes: the holder of a new start; and when a start's holders reach the
-- repeat bar with this statement, every holder (their verdicts may turn
-- repeated). Holders counted by rows, up to the bar and the new ones (one
-- index probe a start): a release rarely holds one start twice.
CREATE FUNCTION voyager.judge_mark_file_hashes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_bar integer := coalesce((((voyager.rule_set()).rules -> 'judge') ->> 'repeat_releases')::integer, 20);
BEGIN
    INSERT INTO voyager.judge_queue (release_id)
    SELECT x.release_id FROM (
        SELECT n.release_id FROM new_rows n WHERE n.release_id IS NOT NULL
        UNION
        SELECT h.release_id
          FROM (SELECT n.md5_16k, n.size, count(*) AS fresh FROM new_rows n WHERE n.release_id IS NOT NULL
                 GROUP BY n.md5_16k, n.size) s
          JOIN voyager.file_hashes h ON h.md5_16k = s.md5_16k AND h.size = s.size AND h.release_id IS NOT NULL
         WHERE (SELECT count(*) FROM (SELECT FROM voyager.file_hashes c
                                       WHERE c.md5_16k = s.md5_16k AND c.size = s.size AND c.release_id IS NOT NULL
                                       LIMIT v_bar + s.fresh) c) BETWEEN v_bar AND v_bar + s.fresh - 1) x
     ORDER BY 1
        ON CONFLICT (release_id) DO NOTHING;
    RETURN NULL;
END $$;
CREATE TRIGGER file_hashes_judge_insert AFTER INSERT ON voyager.file_hashes
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_file_hashes();
CREATE TRIGGER file_hashes_judge_update AFTER UPDATE ON voyager.file_hashes
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_file_hashes();

-- release_passwords: a status or password given, changed or gone.
CREATE FUNCTION voyager.judge_mark_passwords() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO voyager.judge_queue (release_id)
        SELECT DISTINCT o.release_id FROM old_rows o ORDER BY 1 ON CONFLICT (release_id) DO NOTHING;
    ELSE
        INSERT INTO voyager.judge_queue (release_id)
        SELECT DISTINCT n.release_id FROM new_rows n ORDER BY 1 ON CONFLICT (release_id) DO NOTHING;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER release_passwords_judge_insert AFTER INSERT ON voyager.release_passwords
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_passwords();
CREATE TRIGGER release_passwords_judge_update AFTER UPDATE ON voyager.release_passwords
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_passwords();
CREATE TRIGGER release_passwords_judge_delete AFTER DELETE ON voyager.release_passwords
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_passwords();

-- release_texts: an inner name (kinds 2-5) learnt or gone; the name (1) rides
-- with releases.name, the other kinds no rule reads.
CREATE FUNCTION voyager.judge_mark_texts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO voyager.judge_queue (release_id)
        SELECT DISTINCT o.release_id FROM old_rows o WHERE o.kind BETWEEN 2 AND 5 ORDER BY 1
            ON CONFLICT (release_id) DO NOTHING;
    ELSE
        INSERT INTO voyager.judge_queue (release_id)
        SELECT DISTINCT n.release_id FROM new_rows n WHERE n.kind BETWEEN 2 AND 5 ORDER BY 1
            ON CONFLICT (release_id) DO NOTHING;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER release_texts_judge_insert AFTER INSERT ON voyager.release_texts
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_texts();
CREATE TRIGGER release_texts_judge_delete AFTER DELETE ON voyager.release_texts
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_texts();

-- release_merges: a merge made, moved or undone marks its survivor and the
-- merged release (judged as its survivor while merged, on its own after).
CREATE FUNCTION voyager.judge_mark_merges() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO voyager.judge_queue (release_id)
        SELECT x FROM old_rows o CROSS JOIN LATERAL (VALUES (o.merged_id), (o.survivor_id)) v(x)
         GROUP BY x ORDER BY x ON CONFLICT (release_id) DO NOTHING;
    ELSE
        INSERT INTO voyager.judge_queue (release_id)
        SELECT x FROM new_rows n CROSS JOIN LATERAL (VALUES (n.merged_id), (n.survivor_id)) v(x)
         GROUP BY x ORDER BY x ON CONFLICT (release_id) DO NOTHING;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER release_merges_judge_insert AFTER INSERT ON voyager.release_merges
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_merges();
CREATE TRIGGER release_merges_judge_update AFTER UPDATE ON voyager.release_merges
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_merges();
CREATE TRIGGER release_merges_judge_delete AFTER DELETE ON voyager.release_merges
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_merges();

-- releases: one moved in from pending (sources 7-10) comes with its probes'
-- facts; the header pass's new releases have none yet (their probes mark
-- them, the daily pass judges their names a day after settling). An update
-- marks a release whose name, readable flag or survivor changed, or whose
-- settling moved once settled.
CREATE FUNCTION voyager.judge_mark_releases() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO voyager.judge_queue (release_id)
        SELECT n.id FROM new_rows n WHERE n.source BETWEEN 7 AND 10 ORDER BY 1
            ON CONFLICT (release_id) DO NOTHING;
    ELSE
        INSERT INTO voyager.judge_queue (release_id)
        SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
         WHERE n.name IS DISTINCT FROM o.name OR n.readable IS DISTINCT FROM o.readable
            OR n.merged_into IS DISTINCT FROM o.merged_into
            OR (o.settled_at IS NOT NULL AND n.settled_at IS DISTINCT FROM o.settled_at)
         ORDER BY 1
            ON CONFLICT (release_id) DO NOTHING;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER releases_judge_insert AFTER INSERT ON voyager.releases
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_releases();
CREATE TRIGGER releases_judge_update AFTER UPDATE ON voyager.releases
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_releases();
COMMIT;
