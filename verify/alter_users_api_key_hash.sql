-- Verify voyager:alter_users_api_key_hash on pg
SELECT id, name, api_key_hash FROM voyager.users WHERE FALSE;
SELECT 'voyager.users_api_key_hash_key'::regclass;
SELECT 1/(NOT EXISTS (SELECT 1 FROM voyager.users WHERE api_key IS NOT NULL))::int;
