-- Deploy voyager:function_par2_complete to pg
BEGIN;
-- par2 completeness, for what no counter can say: a release and the releases
-- merged into it are complete by a set when every file the set describes is
-- there by name (compared as the name pass compares) or by its first 16 KiB
-- and size, or, renamed past recognition, when as many files that are not
-- par2 and as many bytes are there as the set describes. NULL when the set's
-- file list was dropped (drop_par2_lists).
CREATE FUNCTION voyager.par2_complete(p_release_id bigint, p_set_id bytea) RETURNS boolean
LANGUAGE sql STABLE AS $$
WITH parts AS (
    SELECT r.id, r.posted_at, r.bytes FROM voyager.releases r WHERE r.id = p_release_id
    UNION ALL
    SELECT m.id, m.posted_at, m.bytes FROM voyager.releases m WHERE m.merged_into = p_release_id
), own AS (                               -- a survivor's own bytes, not the merged totals
    SELECT p.id, coalesce(o.bytes, p.bytes) AS bytes, coalesce(o.posted_at, p.posted_at) AS posted_at
      FROM parts p LEFT JOIN voyager.release_own_totals o ON o.release_id = p.id
), names AS (
    SELECT n FROM own p CROSS JOIN LATERAL unnest(voyager.release_file_names(p.id, p.posted_at)) n
), described AS (
    SELECT f.name, f.size, f.md5_16k FROM voyager.par2_files f WHERE f.set_id = p_set_id
)
SELECT CASE WHEN (SELECT s.files_dropped_at IS NOT NULL FROM voyager.par2_sets s WHERE s.set_id = p_set_id)
            THEN NULL                     -- its list is gone: it proved what it could before
       ELSE EXISTS (SELECT FROM described)
   AND CASE WHEN (SELECT bool_and(EXISTS (SELECT FROM voyager.file_hashes h       -- by hash: no chunk decoded
                                           WHERE h.md5_16k = d.md5_16k AND h.size = d.size
                                             AND h.release_id IN (SELECT id FROM parts)))
                    FROM described d)
            THEN true
            ELSE (SELECT bool_and(voyager.name_key(d.name) IN (SELECT voyager.name_key(n) FROM names)
                                  OR EXISTS (SELECT FROM voyager.file_hashes h
                                              WHERE h.md5_16k = d.md5_16k AND h.size = d.size
                                                AND h.release_id IN (SELECT id FROM parts)))
                    FROM described d)
                 OR ((SELECT count(*) FROM names WHERE voyager.side_kind(n) IS DISTINCT FROM 'par2')
                       >= (SELECT count(*) FROM described)
                     AND (SELECT sum(bytes) FROM own) >= (SELECT sum(size) FROM described)) END END
$$;
COMMENT ON FUNCTION voyager.par2_complete(bigint, bytea) IS
    'Whether a release with its merged ones holds every file a par2 set describes (by name, hash, or count and bytes)';
COMMIT;
