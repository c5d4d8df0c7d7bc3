-- Verify voyager:function_user_use on pg
SELECT 1/(code = 100)::int FROM voyager.user_use(NULL, 'none');
