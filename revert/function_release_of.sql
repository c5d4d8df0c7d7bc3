-- Revert voyager:function_release_of from pg: back to the SQL function planned at every call
BEGIN;
-- The release a guid (its release key) or a catalog number answers with: the
-- release itself, or the survivor it was merged into, so a merged-away
-- release's details, NZB and page are its survivor's. Null when none.
CREATE OR REPLACE FUNCTION voyager.release_of_guid(p_key bytea) RETURNS bigint
LANGUAGE sql STABLE AS $$
SELECT coalesce(r.merged_into, r.id) FROM voyager.releases r WHERE r.release_key = p_key
$$;
CREATE OR REPLACE FUNCTION voyager.release_of_id(p_id bigint) RETURNS bigint
LANGUAGE sql STABLE AS $$
SELECT coalesce(r.merged_into, r.id) FROM voyager.releases r WHERE r.id = p_id
$$;
COMMENT ON FUNCTION voyager.release_of_guid(bytea) IS 'The release a guid answers with: itself, or its survivor';
COMMENT ON FUNCTION voyager.release_of_id(bigint) IS 'The release a catalog number answers with: itself, or its survivor';
COMMIT;
