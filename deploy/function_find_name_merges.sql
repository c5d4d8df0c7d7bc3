-- Deploy voyager:function_find_name_merges to pg
BEGIN;
-- The name pass: a set's file list names files whatever their hashes, so the
-- releases of the set's poster in its group posted within 12 hours of a
-- release holding the set, whose files the set all names (names compared
-- without case or punctuation; par2, sidecars and images set aside, at least
-- one file left), join that holder: an album's tracks and their index, an
-- index beside its differently spelled video. Every release whose probed
-- article gave the set holds it, and a named release joins its nearest
-- holder: a repost of the album is an upload of its own, never one holder
-- into another of the same set. Settled releases only: a provisional one may
-- still change its files. Proposals only (via 'name'); merge_releases applies
-- them. The slice [p_from, p_to) is the sets found in it, the par2 articles
-- probed in it and the sets held beside a release first seen in it.
CREATE FUNCTION voyager.find_name_merges(p_from timestamptz, p_to timestamptz)
RETURNS TABLE (survivor_id bigint, merged_id bigint, via text, set_id bytea)
LANGUAGE sql STABLE AS $$
WITH fresh AS MATERIALIZED (         -- releases first seen in the slice (read by its index first)
    SELECT n.id, n.poster_id, n.group_id, n.posted_at FROM voyager.releases n
     WHERE n.first_seen_at >= p_from AND n.first_seen_at < p_to
), sets AS (
    SELECT s.set_id FROM voyager.par2_sets s WHERE s.found_at >= p_from AND s.found_at < p_to
    UNION
    SELECT decode(k.facts -> 'par2' ->> 'set_id', 'hex')
      FROM voyager.probe_cache k
     WHERE k.probed_at >= p_from AND k.probed_at < p_to AND k.status = 0
       AND k.facts -> 'par2' ->> 'set_id' ~ '^[0-9a-f]{32}$'
    UNION
    SELECT decode(k.facts -> 'par2' ->> 'set_id', 'hex')
      FROM fresh n
      JOIN voyager.releases h ON h.poster_id = n.poster_id AND h.group_id = n.group_id
                             AND h.posted_at BETWEEN n.posted_at - interval '12 hours'
                                                 AND n.posted_at + interval '12 hours'
      JOIN voyager.probe_candidates pc ON pc.release_id = h.id AND pc.kind = 'par2'
      JOIN voyager.probe_cache k ON k.message_id = pc.message_id AND k.status = 0
     WHERE k.facts -> 'par2' ->> 'set_id' ~ '^[0-9a-f]{32}$'
), held AS (                          -- (set, each catalog release whose probed article gave it)
    SELECT DISTINCT x.set_id, pc.release_id AS holder_id
      FROM sets x
      JOIN voyager.probe_cache k ON k.facts -> 'par2' ->> 'set_id' = encode(x.set_id, 'hex') AND k.status = 0
                                AND k.facts -> 'par2' ->> 'set_id' IS NOT NULL     -- its index's rows
      JOIN voyager.probe_candidates pc ON pc.message_id = k.message_id AND pc.release_id IS NOT NULL
), lists AS (                         -- each set's names as compared, and how many files it lists
    SELECT f.set_id, array_agg(DISTINCT voyager.name_key(f.name)) AS keys, count(*) AS files
      FROM voyager.par2_files f
     WHERE f.set_id IN (SELECT sets.set_id FROM sets)
     GROUP BY f.set_id
), matched AS (
    SELECT h.id AS holder_id, h.files AS holder_files, c.id AS merged_id, s.set_id,
           abs(extract(epoch FROM c.posted_at - h.posted_at)) AS apart
      FROM held x
      JOIN voyager.releases h ON h.id = x.holder_id AND h.settled_at IS NOT NULL
      JOIN lists s ON s.set_id = x.set_id
      JOIN voyager.releases c ON c.poster_id = h.poster_id AND c.group_id = h.group_id
                             AND c.posted_at BETWEEN h.posted_at - interval '12 hours'
                                                 AND h.posted_at + interval '12 hours'
                             AND c.id <> h.id AND c.settled_at IS NOT NULL AND c.merged_into IS NULL
                             AND c.files <= s.files + 5      -- more than the set lists: not all named
     WHERE NOT EXISTS (SELECT FROM held o WHERE o.set_id = x.set_id AND o.holder_id = c.id)
       AND (SELECT count(*) FILTER (WHERE voyager.side_kind(n) IS NULL) > 0
                   AND bool_and(voyager.side_kind(n) IS NOT NULL OR voyager.name_key(n) = ANY (s.keys))
              FROM unnest(voyager.release_file_names(c.id, c.posted_at)) n)
), nearest AS (                       -- of one set's holders, the nearest in time
    SELECT DISTINCT ON (m.merged_id, m.set_id) m.*
      FROM matched m
     ORDER BY m.merged_id, m.set_id, m.apart, m.holder_id
)
SELECT DISTINCT ON (m.merged_id) m.holder_id, m.merged_id, 'name'::text, m.set_id
  FROM nearest m
 WHERE NOT EXISTS (                   -- two holders naming each other's files: the bigger one holds
       SELECT FROM matched r
        WHERE r.holder_id = m.merged_id AND r.merged_id = m.holder_id
          AND (r.holder_files > m.holder_files OR (r.holder_files = m.holder_files AND r.holder_id < m.holder_id)))
 ORDER BY m.merged_id, m.holder_files DESC, m.holder_id
$$;
COMMENT ON FUNCTION voyager.find_name_merges(timestamptz, timestamptz) IS
    'The name pass''s proposals (via name): the poster''s releases within 12 h whose files a set all names join its holder';
COMMIT;
