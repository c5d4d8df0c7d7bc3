-- Deploy voyager:function_merges_lock to pg
BEGIN;
-- The merges' lock, held till the transaction ends. Merges and unmerges take
-- it alone and take turns: which rows a merge touches depends on the merges
-- before it, so no row order alone keeps two from waiting on each other. A
-- probe's facts take it shared before their releases: merges write those
-- releases' texts and passwords too, and a merge holds its releases till it
-- ends, taken a slice at a time. First this lock, then releases by id.
CREATE FUNCTION voyager.merges_lock(p_shared boolean DEFAULT false) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF p_shared THEN
        PERFORM pg_advisory_xact_lock_shared(hashtext('voyager.merges'));
    ELSE
        PERFORM pg_advisory_xact_lock(hashtext('voyager.merges'));
    END IF;
END $$;
COMMENT ON FUNCTION voyager.merges_lock(boolean)
    IS 'The merges'' lock till the transaction ends: alone for a merge or unmerge, shared for a probe''s facts';
COMMIT;
