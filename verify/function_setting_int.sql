-- Verify voyager:function_setting_int on pg
SELECT 'voyager.setting_int(text)'::regprocedure;
