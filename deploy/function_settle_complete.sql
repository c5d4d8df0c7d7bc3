-- Deploy voyager:function_settle_complete to pg
BEGIN;
-- settle_complete: a provisional release (settled_at null) that is
-- complete (every file its counter announced was found) and quiet (its newest
-- article older than settle_quiet_minutes) is settled as its finish would
-- settle it: no counted file can still come, and the continuation may be
-- hours away or never. The scheduler (`voyager tick`) runs it.
CREATE FUNCTION voyager.settle_complete(p_limit integer DEFAULT 10000) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_settled integer;
BEGIN
    -- SKIP LOCKED: a row a store_batch is finishing right now is its to finish
    WITH due AS (
        SELECT r.id FROM voyager.releases r
         WHERE r.settled_at IS NULL AND r.complete
           AND coalesce(r.last_posted_at, r.posted_at)
               < now() - make_interval(mins => voyager.setting_int('settle_quiet_minutes')::integer)
         ORDER BY r.id
         LIMIT p_limit
           FOR UPDATE SKIP LOCKED
    )
    UPDATE voyager.releases r SET settled_at = now(), edge = false FROM due WHERE r.id = due.id;
    GET DIAGNOSTICS v_settled = ROW_COUNT;
    RETURN v_settled;
END $$;
COMMENT ON FUNCTION voyager.settle_complete(integer)
    IS 'Settles complete provisional releases quiet for settle_quiet_minutes (at most p_limit a call); returns how many';
COMMIT;
