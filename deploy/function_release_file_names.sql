-- Deploy voyager:function_release_file_names to pg
BEGIN;
-- A catalog release's file names, from its chunk (looked up in its posting
-- month's partition, else in any month's, as nzb_source does).
CREATE FUNCTION voyager.release_file_names(p_release_id bigint, p_posted_at timestamptz) RETURNS text[]
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT coalesce(voyager.chunk_file_names(coalesce(
           (SELECT c.chunk FROM voyager.release_chunks c
             WHERE c.month = voyager.chunk_month(p_posted_at) AND c.release_id = p_release_id),
           (SELECT c.chunk FROM voyager.release_chunks c WHERE c.release_id = p_release_id LIMIT 1))), '{}')
$$;
COMMENT ON FUNCTION voyager.release_file_names(bigint, timestamptz) IS
    'A catalog release''s file names from its chunk (empty without one)';
COMMIT;
