-- Verify voyager:function_api_use on pg
SELECT has_function_privilege('voyager.api_use(text, text, bigint)', 'execute');
SELECT has_function_privilege('voyager.add_user(text, text)', 'execute');
