-- Verify voyager:table_settings on pg
SELECT name, value, description
  FROM voyager.settings WHERE FALSE;
