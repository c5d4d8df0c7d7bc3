-- Verify voyager:table_user_days on pg
SELECT user_id, day, requests, downloads
  FROM voyager.user_days WHERE FALSE;
