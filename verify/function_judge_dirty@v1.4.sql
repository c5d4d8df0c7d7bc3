-- Verify voyager:function_judge_dirty on pg
SELECT 'voyager.judge_dirty()'::regprocedure;
