-- Verify voyager:function_search_page on pg
SELECT total, kept, state, plan, substrings, promote, release_id, posted_at
  FROM voyager.search_page('{"words": ["harbor"]}', 1, 0) WHERE false;
