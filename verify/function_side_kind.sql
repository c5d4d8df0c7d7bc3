-- Verify voyager:function_side_kind on pg
SELECT 'voyager.side_kind(text)'::regprocedure;
