-- Deploy voyager:function_search_text_deltas to pg
BEGIN;
-- release_texts: per release and tracked word, how many of its texts have the
-- word now and how many had it before the statement (now, less the new rows,
-- plus the old ones); the word's key moves when that goes from none to some or
-- back. A release whose texts are all new (an insert of fresh releases, the
-- store's case) had none of them: its words are the new rows' own. (A text
-- counts for its release id whether or not the release row is there yet or
-- still: they come and go together, and check_catalog finds strays.)
CREATE FUNCTION voyager.search_text_deltas(p_new_ids bigint[], p_new_texts text[],
                                           p_old_ids bigint[], p_old_texts text[]) RETURNS void
LANGUAGE sql AS $$
    WITH changed AS (
        SELECT x.i AS release_id, w, -1 AS c
          FROM unnest(p_new_ids, p_new_texts) x(i, t), unnest(voyager.search_words(x.t)) w
        UNION ALL
        SELECT x.i, w, 1
          FROM unnest(p_old_ids, p_old_texts) x(i, t), unnest(voyager.search_words(x.t)) w
    ), tracked AS (                   -- the statement's words that have a count
        SELECT x.w FROM (SELECT DISTINCT c.w FROM changed c) x
         WHERE EXISTS (SELECT 1 FROM voyager.search_counts k WHERE k.key = 'w:' || x.w)
    ), d AS (
        SELECT release_id, w, sum(c) AS c FROM changed JOIN tracked USING (w) GROUP BY 1, 2
    ), rows_of AS (                   -- per release: texts in the statement's new and old rows
        SELECT i AS release_id, sum(n) AS new_n, sum(o) AS old_n
          FROM (SELECT i, 1 AS n, 0 AS o FROM unnest(p_new_ids) i
                UNION ALL SELECT i, 0, 1 FROM unnest(p_old_ids) i) x
         GROUP BY i
    ), fresh AS (                     -- every text of the release is a new row: nothing before
        SELECT r.release_id FROM rows_of r
         WHERE r.old_n = 0 AND r.release_id IN (SELECT release_id FROM d)
           AND r.new_n = (SELECT count(*) FROM voyager.release_texts t WHERE t.release_id = r.release_id)
    ), now_c AS (
        SELECT t.release_id, w, count(*) AS c
          FROM voyager.release_texts t, unnest(voyager.search_words(t.text)) w
         WHERE t.release_id IN (SELECT release_id FROM d EXCEPT SELECT release_id FROM fresh)
           AND w IN (SELECT w FROM tracked)
         GROUP BY 1, 2
    ), flips AS (
        SELECT d.release_id, d.w, 1 AS delta FROM d JOIN fresh USING (release_id)
        UNION ALL
        SELECT coalesce(now_c.release_id, d.release_id), coalesce(now_c.w, d.w),
               (coalesce(now_c.c, 0) > 0)::int - (coalesce(now_c.c, 0) + coalesce(d.c, 0) > 0)::int
          FROM now_c FULL JOIN (SELECT * FROM d WHERE d.release_id NOT IN (SELECT release_id FROM fresh)) d
            ON d.release_id = now_c.release_id AND d.w = now_c.w
    )
    INSERT INTO voyager.search_count_deltas (key, delta)
    SELECT 'w:' || f.w, sum(f.delta)
      FROM flips f
     WHERE f.delta <> 0
       AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = f.release_id AND j.hidden)
     GROUP BY 1
    HAVING sum(f.delta) <> 0
$$;
COMMIT;
