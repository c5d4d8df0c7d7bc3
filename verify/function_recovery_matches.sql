-- Verify voyager:function_recovery_matches on pg
SELECT 'voyager.recovery_matches(text, text, text, text, text[])'::regprocedure;
