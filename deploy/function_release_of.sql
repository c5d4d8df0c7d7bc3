-- Deploy voyager:function_release_of to pg: PL/pgSQL, their plans kept by the session
BEGIN;
-- The release a guid (its release key) or a catalog number answers with: the
-- release itself, or the survivor it was merged into, so a merged-away
-- release's details, NZB and page are its survivor's. Null when none.
-- PL/pgSQL: every `get` and `details` asks, and a SQL function with a FROM
-- is planned again at every call.
CREATE OR REPLACE FUNCTION voyager.release_of_guid(p_key bytea) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_id bigint;
BEGIN
    SELECT coalesce(r.merged_into, r.id) INTO v_id FROM voyager.releases r WHERE r.release_key = p_key;
    RETURN v_id;
END $$;
CREATE OR REPLACE FUNCTION voyager.release_of_id(p_id bigint) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_id bigint;
BEGIN
    SELECT coalesce(r.merged_into, r.id) INTO v_id FROM voyager.releases r WHERE r.id = p_id;
    RETURN v_id;
END $$;
COMMENT ON FUNCTION voyager.release_of_guid(bytea) IS 'The release a guid answers with: itself, or its survivor';
COMMENT ON FUNCTION voyager.release_of_id(bigint) IS 'The release a catalog number answers with: itself, or its survivor';
COMMIT;
