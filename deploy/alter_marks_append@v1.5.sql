-- Deploy voyager:alter_marks_append to pg: a dirty mark is appended, never waited on
BEGIN;
-- The judge's, the recategorize job's and the merges' settling marks were a
-- row a release under a unique key, written ON CONFLICT DO NOTHING. That does
-- wait: a second writer of a release's mark waits for the first's commit, so
-- two writers marking two releases in opposite orders (a merge, a probe's
-- store) waited on each other. A mark is now a row appended: a release already
-- marked by a committed row is not marked again (a read, no wait), two writers
-- at once may both mark it, and a drainer takes the rows it claimed. (The
-- markers are PL/pgSQL: their plans are kept a session, and triggers call them
-- every statement.)
ALTER TABLE voyager.judge_queue DROP CONSTRAINT judge_queue_pkey;
CREATE INDEX judge_queue_release_idx ON voyager.judge_queue (release_id);
ALTER TABLE voyager.recategorize_queue DROP CONSTRAINT recategorize_queue_pkey;
CREATE INDEX recategorize_queue_release_idx ON voyager.recategorize_queue (release_id);
ALTER TABLE voyager.merge_settle_queue DROP CONSTRAINT merge_settle_queue_pkey;
CREATE INDEX merge_settle_queue_survivor_idx ON voyager.merge_settle_queue (survivor_id);

CREATE FUNCTION voyager.judge_mark(p_ids bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_marked integer;
BEGIN
    INSERT INTO voyager.judge_queue (release_id)
    SELECT DISTINCT x FROM unnest(p_ids) x
     WHERE x IS NOT NULL AND NOT EXISTS (SELECT FROM voyager.judge_queue q WHERE q.release_id = x);
    GET DIAGNOSTICS v_marked = ROW_COUNT;
    RETURN v_marked;
END $$;
COMMENT ON FUNCTION voyager.judge_mark(bigint[]) IS
    'Marks releases for the judge (appended, never waiting on another writer); returns the marks written';

CREATE FUNCTION voyager.recategorize_mark(p_ids bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_marked integer;
BEGIN
    INSERT INTO voyager.recategorize_queue (release_id)
    SELECT DISTINCT x FROM unnest(p_ids) x
     WHERE x IS NOT NULL AND NOT EXISTS (SELECT FROM voyager.recategorize_queue q WHERE q.release_id = x);
    GET DIAGNOSTICS v_marked = ROW_COUNT;
    RETURN v_marked;
END $$;
COMMENT ON FUNCTION voyager.recategorize_mark(bigint[]) IS
    'Marks releases for their category computed again (appended, never waiting); returns the marks written';

CREATE FUNCTION voyager.merge_settle_mark(p_ids bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_marked integer;
BEGIN
    INSERT INTO voyager.merge_settle_queue (survivor_id)
    SELECT DISTINCT x FROM unnest(p_ids) x
     WHERE x IS NOT NULL AND NOT EXISTS (SELECT FROM voyager.merge_settle_queue q WHERE q.survivor_id = x);
    GET DIAGNOSTICS v_marked = ROW_COUNT;
    RETURN v_marked;
END $$;
COMMENT ON FUNCTION voyager.merge_settle_mark(bigint[]) IS
    'Marks survivors to settle again (appended, never waiting); returns the marks written';
COMMIT;
