-- Deploy voyager:function_note_search_deltas to pg
BEGIN;
-- Deltas of keys; a word's only while it is tracked (its row in search_counts).
-- Every writer takes the tracking lock before it touches the deltas (one
-- order of locks for all: rebuild and fold take theirs in the same order).
CREATE FUNCTION voyager.note_search_deltas(p_keys text[], p_deltas bigint[]) RETURNS void
LANGUAGE sql AS $$
    SELECT voyager.search_tracking_lock();
    INSERT INTO voyager.search_count_deltas (key, delta)
    SELECT x.k, sum(x.d) FROM unnest(p_keys, p_deltas) x(k, d)
     WHERE x.k NOT LIKE 'w:%' OR EXISTS (SELECT 1 FROM voyager.search_counts c WHERE c.key = x.k)
     GROUP BY x.k HAVING sum(x.d) <> 0
$$;
COMMIT;
