-- Deploy voyager:function_search_tracking_lock to pg
BEGIN;
-- The tracking lock: the texts' and judgements' triggers hold it shared till
-- their commit, a change of which words are tracked holds it alone.
CREATE FUNCTION voyager.search_tracking_lock(p_alone boolean DEFAULT false) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF p_alone THEN
        PERFORM pg_advisory_xact_lock(hashtext('voyager.search_tracking'));
    ELSE
        PERFORM pg_advisory_xact_lock_shared(hashtext('voyager.search_tracking'));
    END IF;
END $$;
COMMIT;
