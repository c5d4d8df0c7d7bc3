-- Verify voyager:function_new_api_key on pg
SELECT 1/(voyager.new_api_key() ~ '^[0-9a-f]{32}$')::int;
