-- Verify voyager:table_users on pg
SELECT id, created_at, requests_per_day, downloads_per_day, suspended, role, name, api_key
  FROM voyager.users WHERE FALSE;
