-- Verify voyager:function_judge_verdicts on pg
SELECT 'voyager.judge_verdicts(bigint[], jsonb, timestamptz)'::regprocedure;
