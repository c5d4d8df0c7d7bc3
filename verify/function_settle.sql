-- Verify voyager:function_settle on pg
SELECT has_function_privilege('voyager.settle_complete(integer)', 'execute');
SELECT voyager.setting_int('settle_quiet_minutes');
