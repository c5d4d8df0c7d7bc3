-- Revert voyager:function_find_inner_merges from pg: the body of v1.3 again
BEGIN;
-- The inner merge: an upload posted one file a time under subjects that do
-- not say so is many lone releases, but inside, their archives, yEnc names or
-- par2 lists share one random stem. The poster's releases in the group posted
-- within 12 hours of a lone release that share a random inner stem with it
-- are one upload: its lone files join the member with the most files (then a
-- readable one, then the first), via 'inner'. Exactly the same stem, never a
-- look-alike: two uploads' random stems of one length are two uploads.
-- Settled releases only. Proposals only. The slice [p_from, p_to) is the lone releases first seen in
-- it and those whose articles were probed in it.
CREATE OR REPLACE FUNCTION voyager.find_inner_merges(p_from timestamptz, p_to timestamptz)
RETURNS TABLE (survivor_id bigint, merged_id bigint, via text, set_id bytea)
LANGUAGE sql STABLE AS $$
WITH touched AS (
    SELECT r.id FROM voyager.releases r
     WHERE r.first_seen_at >= p_from AND r.first_seen_at < p_to AND r.files = 1
    UNION
    SELECT pc.release_id
      FROM voyager.probe_cache k
      JOIN voyager.probe_candidates pc ON pc.message_id = k.message_id AND pc.release_id IS NOT NULL
     WHERE k.probed_at >= p_from AND k.probed_at < p_to
), seeds AS (                         -- a lone release of the slice and each of its random inner stems
    SELECT r.id, r.poster_id, r.group_id, r.posted_at, s.stem
      FROM touched t
      JOIN voyager.releases r ON r.id = t.id AND r.files = 1 AND r.settled_at IS NOT NULL
     CROSS JOIN LATERAL unnest(voyager.inner_stems(r.id)) s(stem)
), members AS (                       -- the poster's releases within 12 hours holding the same stem
    SELECT DISTINCT l.poster_id, l.group_id, l.stem, n.id, n.files, n.readable
      FROM seeds l
      JOIN voyager.releases n ON n.poster_id = l.poster_id AND n.group_id = l.group_id
                             AND n.posted_at BETWEEN l.posted_at - interval '12 hours'
                                                 AND l.posted_at + interval '12 hours'
                             AND n.settled_at IS NOT NULL AND n.merged_into IS NULL
     WHERE l.stem = ANY (voyager.inner_stems(n.id))
), ranked AS (
    SELECT m.*, first_value(m.id) OVER w AS survivor, first_value(m.files) OVER w AS survivor_files,
           count(*) OVER (PARTITION BY m.poster_id, m.group_id, m.stem) AS size
      FROM members m
    WINDOW w AS (PARTITION BY m.poster_id, m.group_id, m.stem ORDER BY m.files DESC, m.readable DESC, m.id)
)
SELECT DISTINCT ON (r.id) r.survivor, r.id, 'inner'::text, NULL::bytea
  FROM ranked r
 WHERE r.size > 1 AND r.id <> r.survivor AND r.files = 1
 ORDER BY r.id, r.survivor_files DESC, r.survivor
$$;
COMMENT ON FUNCTION voyager.find_inner_merges(timestamptz, timestamptz) IS
    'The inner merge''s proposals (via inner): the poster''s lone releases within 12 h sharing a random inner stem join one';
COMMIT;
