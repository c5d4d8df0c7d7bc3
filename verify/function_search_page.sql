-- Verify voyager:function_search_page on pg
SELECT total, kept, state, plan, substrings, promote, release_id, posted_at
  FROM voyager.search_page('{"words": ["harbor"]}', 1, 0) WHERE false;
-- a words page returned as one query
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.search_page(jsonb, integer, integer, bigint, bytea, bigint, bytea, bigint, text, integer, bigint)'::regprocedure
   AND prosrc NOT LIKE '%RETURN NEXT%' AND prosrc LIKE '%WHERE w.total <> 0%';
