-- Deploy voyager:function_nzb_rows to pg
BEGIN;
-- voyager.nzb() over nzb_source's row per chunk: the chunks gathered in their
-- file order for the one NZB writer, the same bytes as t=get.
CREATE OR REPLACE FUNCTION voyager.nzb(p_release_id bigint) RETURNS text
LANGUAGE sql STABLE AS $$
SELECT voyager.nzb_from_chunks(array_agg(s.chunk ORDER BY s.chunk_no), s.name, s.poster, s.posted, s.groups,
                               s.nzb_category, s.password)
  FROM voyager.nzb_source(p_release_id) s
 WHERE s.chunk IS NOT NULL
 GROUP BY s.id, s.name, s.poster, s.posted, s.groups, s.nzb_category, s.password
$$;
COMMENT ON FUNCTION voyager.nzb(bigint) IS 'NZB 1.1 of a catalog release, a known password in its meta (null when there is none)';
COMMIT;
