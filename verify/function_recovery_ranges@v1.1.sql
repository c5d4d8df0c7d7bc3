-- Verify voyager:function_recovery_ranges on pg
SELECT 'voyager.recovery_ranges(uuid)'::regprocedure;
