-- Revert voyager:function_keep_search_total from pg: back to the SQL function planned at every call
-- A counted search total kept for the web's other processes, in a call of its
-- own after the search: a total counted at a later catalog state replaces one
-- counted at an earlier, never the reverse.
BEGIN;
CREATE OR REPLACE FUNCTION voyager.keep_search_total(p_query_hash bytea, p_state bigint, p_total bigint) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO voyager.search_totals AS s (query_hash, state, total) VALUES (p_query_hash, p_state, p_total)
        ON CONFLICT (query_hash) DO UPDATE SET state = excluded.state, total = excluded.total, counted_at = now()
     WHERE s.state < excluded.state
$$;
COMMENT ON FUNCTION voyager.keep_search_total(bytea, bigint, bigint)
    IS 'Keeps a counted search total for the web''s other processes (a later state replaces an earlier)';
COMMIT;
