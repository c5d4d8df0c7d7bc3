-- Deploy voyager:function_nzb to pg
BEGIN;
-- The NZB of a catalog release from voyager.nzb_source(), the rows the web's
-- downloads write too: the same bytes as t=get, a chunk filed under another
-- month included.
CREATE OR REPLACE FUNCTION voyager.nzb(p_release_id bigint) RETURNS text
LANGUAGE sql STABLE AS $$
SELECT voyager.nzb_from_chunks(s.chunks, s.name, s.poster, s.posted, s.groups, s.nzb_category, s.password)
  FROM voyager.nzb_source(p_release_id) s
 WHERE s.chunks IS NOT NULL
$$;
COMMENT ON FUNCTION voyager.nzb(bigint) IS 'NZB 1.1 of a catalog release, a known password in its meta (null when there is none)';
COMMIT;
