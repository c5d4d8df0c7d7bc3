-- Verify voyager:table_web_sessions on pg
SELECT token_hash, user_id, created_at, expires_at
  FROM voyager.web_sessions WHERE FALSE;
