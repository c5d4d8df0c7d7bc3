-- Verify voyager:function_api_tally on pg
SELECT 'voyager.api_tally(integer[], integer[], integer[], bigint[], integer[])'::regprocedure;
