-- Verify voyager:table_users on pg
SELECT name, requests_per_day, downloads_per_day, admin, description FROM voyager.roles WHERE FALSE;
SELECT id, created_at, requests_per_day, downloads_per_day, suspended, role, name, api_key FROM voyager.users WHERE FALSE;
SELECT user_id, day, requests, downloads FROM voyager.user_days WHERE FALSE;
SELECT token_hash, user_id, created_at, expires_at FROM voyager.web_sessions WHERE FALSE;
SELECT 1/count(*) FROM voyager.roles WHERE name = 'admin' AND admin;
