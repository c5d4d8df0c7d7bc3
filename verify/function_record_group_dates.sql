-- Verify voyager:function_record_group_dates on pg
SELECT 'voyager.record_group_dates(text, jsonb)'::regprocedure;
