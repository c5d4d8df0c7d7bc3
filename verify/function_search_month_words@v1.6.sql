-- Verify voyager:function_search_month_words on pg
SELECT 1 / (voyager.search_month_words(ARRAY['a', 'b'], date '2026-11-30') = ARRAY['@m202611:a', '@m202611:b'])::integer;
