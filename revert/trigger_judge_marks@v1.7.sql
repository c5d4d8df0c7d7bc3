-- Revert voyager:trigger_judge_marks from pg (the releases' update marking a survivor's change too)
BEGIN;
-- Each marking trigger hands the releases its statement concerns to
-- judge_mark: a writer never waits on another writer's mark, whatever order
-- their statements mark releases in.

-- release_passwords and release_merges: the releases a changed row names,
-- in the columns the trigger's arguments give (old rows for a delete; a null
-- column, a link to no catalog release yet, marks nothing).
CREATE OR REPLACE FUNCTION voyager.judge_mark_columns() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('SELECT voyager.judge_mark(ARRAY(SELECT x FROM %I t CROSS JOIN LATERAL (VALUES %s) v(x)))',
                   CASE WHEN TG_OP = 'DELETE' THEN 'old_rows' ELSE 'new_rows' END,
                   (SELECT string_agg(format('(t.%I)', c), ', ') FROM unnest(TG_ARGV) c));
    RETURN NULL;
END $$;

-- file_hashes: the holder of a new start; and when a start's holders reach the
-- repeat bar with this statement, every holder (their verdicts may turn
-- repeated). Holders counted by rows, up to the bar and the new ones (one
-- index probe a start): a release rarely holds one start twice.
CREATE OR REPLACE FUNCTION voyager.judge_mark_file_hashes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_bar integer := coalesce((((voyager.rule_set()).rules -> 'judge') ->> 'repeat_releases')::integer, 20);
BEGIN
    PERFORM voyager.judge_mark(ARRAY(
        SELECT n.release_id FROM new_rows n WHERE n.release_id IS NOT NULL
        UNION
        SELECT h.release_id
          FROM (SELECT n.md5_16k, n.size, count(*) AS fresh FROM new_rows n WHERE n.release_id IS NOT NULL
                 GROUP BY n.md5_16k, n.size) s
          JOIN voyager.file_hashes h ON h.md5_16k = s.md5_16k AND h.size = s.size AND h.release_id IS NOT NULL
         WHERE (SELECT count(*) FROM (SELECT FROM voyager.file_hashes c
                                       WHERE c.md5_16k = s.md5_16k AND c.size = s.size AND c.release_id IS NOT NULL
                                       LIMIT v_bar + s.fresh) c) BETWEEN v_bar AND v_bar + s.fresh - 1));
    RETURN NULL;
END $$;

-- probe_cache: an article's answer, new or changed (a 430 that later reads),
-- marks the catalog releases whose candidate it is.
CREATE OR REPLACE FUNCTION voyager.judge_mark_probe_cache() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM voyager.judge_mark(ARRAY(
        SELECT pc.release_id FROM new_rows n JOIN voyager.probe_candidates pc ON pc.message_id = n.message_id));
    RETURN NULL;
END $$;

-- probe_candidates: a catalog release's candidate answered (also from the
-- cache, or a pending release's candidates handed to its catalog release).
-- Claims touch only open candidates (probed_at null): they mark nothing.
CREATE OR REPLACE FUNCTION voyager.judge_mark_probe_candidates() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM voyager.judge_mark(ARRAY(SELECT n.release_id FROM new_rows n WHERE n.probed_at IS NOT NULL));
    RETURN NULL;
END $$;

-- releases: one moved in from pending (sources 7-10) comes with its probes'
-- facts; the header pass's new releases have none yet (their probes mark
-- them, the daily pass judges their names a day after settling). An update
-- marks a release whose name, readable flag or survivor changed, or whose
-- settling moved once settled.
CREATE OR REPLACE FUNCTION voyager.judge_mark_releases() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM voyager.judge_mark(ARRAY(SELECT n.id FROM new_rows n WHERE n.source BETWEEN 7 AND 10));
    ELSE
        PERFORM voyager.judge_mark(ARRAY(
            SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
             WHERE n.name IS DISTINCT FROM o.name OR n.readable IS DISTINCT FROM o.readable
                OR n.merged_into IS DISTINCT FROM o.merged_into
                OR (o.settled_at IS NOT NULL AND n.settled_at IS DISTINCT FROM o.settled_at)));
    END IF;
    RETURN NULL;
END $$;

-- release_texts: an inner name (kinds 2-5) learnt or gone; the name (1) rides
-- with releases.name, the other kinds no rule reads.
CREATE OR REPLACE FUNCTION voyager.judge_mark_texts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM voyager.judge_mark(ARRAY(SELECT o.release_id FROM old_rows o WHERE o.kind BETWEEN 2 AND 5));
    ELSE
        PERFORM voyager.judge_mark(ARRAY(SELECT n.release_id FROM new_rows n WHERE n.kind BETWEEN 2 AND 5));
    END IF;
    RETURN NULL;
END $$;
COMMIT;
