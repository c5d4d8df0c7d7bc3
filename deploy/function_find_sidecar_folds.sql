-- Deploy voyager:function_find_sidecar_folds to pg
BEGIN;
-- The sidecar fold: an upload's .nfo, .sfv, .nzb or cover that came apart
-- from it (another name, another counter: "[00/80] x.nzb" beside "[01/94]
-- x.part01.rar") is a release of its own. A small settled release (3 files
-- or fewer, under 1 MB) whose files are all sidecars or images joins the
-- poster's bigger settled release in the same group posted within 10 minutes
-- that holds content (never another release of sidecars only, however big):
-- the one sharing the most words of 4 or more letters with it (its name and
-- its files' stems; words every upload has aside), else the one under the
-- same counter total, else none; the nearer in time first. Proposals only (via
-- 'sidecar'). The slice [p_from, p_to) is the small releases settled in it
-- and those beside a release first seen in it.
CREATE FUNCTION voyager.find_sidecar_folds(p_from timestamptz, p_to timestamptz)
RETURNS TABLE (survivor_id bigint, merged_id bigint, via text, set_id bytea)
LANGUAGE sql STABLE AS $$
WITH small AS (
    SELECT s.id FROM voyager.releases s
     WHERE s.files <= 3 AND s.bytes < 1048576 AND s.settled_at >= p_from AND s.settled_at < p_to
    UNION
    SELECT s.id
      FROM voyager.releases n
      JOIN voyager.releases s ON s.poster_id = n.poster_id AND s.group_id = n.group_id
                             AND s.posted_at BETWEEN n.posted_at - interval '10 minutes'
                                                 AND n.posted_at + interval '10 minutes'
                             AND s.files <= 3 AND s.bytes < 1048576 AND s.settled_at IS NOT NULL
                             AND s.merged_into IS NULL
     WHERE n.first_seen_at >= p_from AND n.first_seen_at < p_to
), sidecars AS (
    SELECT r.id, r.poster_id, r.group_id, r.posted_at, r.bytes, r.file_total, r.name, f.names
      FROM small x
      JOIN voyager.releases r ON r.id = x.id
     CROSS JOIN LATERAL (SELECT voyager.release_file_names(r.id, r.posted_at) AS names) f
     WHERE cardinality(f.names) > 0
       AND (SELECT bool_and(coalesce(voyager.side_kind(n) IN ('sidecar', 'image'), false)) FROM unnest(f.names) n)
), words AS (
    SELECT s.id, array_agg(DISTINCT w) AS words
      FROM sidecars s
     CROSS JOIN LATERAL unnest(array_append(ARRAY(SELECT voyager.file_stem(n) FROM unnest(s.names) n), s.name)) t(name)
     CROSS JOIN LATERAL regexp_split_to_table(lower(t.name), '[^[:alpha:]]+') w
     WHERE length(w) >= 4 AND w <> ALL (voyager.fold_common_words())
     GROUP BY s.id
), targets AS (
    SELECT s.id AS sidecar_id, b.id AS target_id,
           (SELECT count(*) FROM unnest(w.words) x
             WHERE x = ANY (regexp_split_to_array(lower(b.name), '[^[:alpha:]]+'))) AS shared,
           s.file_total IS NOT NULL AND b.file_total = s.file_total AS same_total,
           abs(extract(epoch FROM b.posted_at - s.posted_at)) AS apart
      FROM sidecars s
      LEFT JOIN words w ON w.id = s.id
      JOIN voyager.releases b ON b.poster_id = s.poster_id AND b.group_id = s.group_id
                             AND b.posted_at BETWEEN s.posted_at - interval '10 minutes'
                                                 AND s.posted_at + interval '10 minutes'
                             AND b.id <> s.id AND b.bytes > s.bytes AND b.settled_at IS NOT NULL
                             AND b.merged_into IS NULL
     WHERE EXISTS (SELECT FROM unnest(voyager.release_file_names(b.id, b.posted_at)) n
                    WHERE coalesce(voyager.side_kind(n) NOT IN ('sidecar', 'image'), true))
)
SELECT DISTINCT ON (t.sidecar_id) t.target_id, t.sidecar_id, 'sidecar'::text, NULL::bytea
  FROM targets t
 WHERE t.shared > 0 OR t.same_total
 ORDER BY t.sidecar_id, t.shared > 0 DESC, t.shared DESC, t.same_total DESC, t.apart, t.target_id
$$;
COMMENT ON FUNCTION voyager.find_sidecar_folds(timestamptz, timestamptz) IS
    'The sidecar fold''s proposals (via sidecar): small sidecar-only releases into the poster''s upload within 10 min';
COMMIT;
