-- Verify voyager:function_api_key_hash on pg
SELECT 1/(voyager.api_key_hash('ABC') = sha256('abc'::bytea))::int;
