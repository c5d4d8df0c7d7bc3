-- Deploy voyager:function_search_keys_of to pg
BEGIN;
-- The keys of releases as they are now (not hidden ones, unless p_even_hidden):
-- '*' and the category of the rows of p_ids that exist; the words of their texts.
CREATE FUNCTION voyager.search_keys_of(p_ids bigint[], p_even_hidden boolean DEFAULT false)
RETURNS TABLE (release_id bigint, key text)
LANGUAGE sql STABLE AS $$
    WITH ids AS (SELECT i.id FROM unnest(p_ids) i(id)
                  WHERE p_even_hidden OR NOT EXISTS (SELECT 1 FROM voyager.release_judgements j
                                                      WHERE j.release_id = i.id AND j.hidden)),
         r AS (SELECT r.id, r.category FROM voyager.releases r WHERE r.id IN (SELECT id FROM ids))
    SELECT r.id, '*' FROM r
    UNION ALL
    SELECT r.id, 'c:' || coalesce(r.category, 8010) FROM r
    UNION ALL
    SELECT DISTINCT t.release_id, 'w:' || w
      FROM voyager.release_texts t, unnest(voyager.search_words(t.text)) w
     WHERE t.release_id IN (SELECT id FROM ids)
$$;
COMMENT ON FUNCTION voyager.search_keys_of(bigint[], boolean)
    IS 'The search_counts keys of releases as they are now: all and category (of the release row), words (of its texts)';
COMMIT;
