-- Revert voyager:function_nzb_rows from pg
-- back to nzb_source's chunks in one array
BEGIN;
-- its body reads nzb_source's old shape, which function_nzb_source_rows's revert brings back next
SET LOCAL check_function_bodies = off;
CREATE OR REPLACE FUNCTION voyager.nzb(p_release_id bigint) RETURNS text
LANGUAGE sql STABLE AS $$
SELECT voyager.nzb_from_chunks(s.chunks, s.name, s.poster, s.posted, s.groups, s.nzb_category, s.password)
  FROM voyager.nzb_source(p_release_id) s
 WHERE s.chunks IS NOT NULL
$$;
COMMENT ON FUNCTION voyager.nzb(bigint) IS 'NZB 1.1 of a catalog release, a known password in its meta (null when there is none)';
COMMIT;
