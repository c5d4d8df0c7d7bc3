-- Verify voyager:function_setting_bool on pg
SELECT 'voyager.setting_bool(text)'::regprocedure;
