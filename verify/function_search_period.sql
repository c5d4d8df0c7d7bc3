-- Verify voyager:function_search_period on pg
SELECT 1 / (voyager.search_period('month', date '2026-11-30') = '@m202611'
            AND voyager.search_period('day', date '2026-01-05') = '@d20260105')::integer;
