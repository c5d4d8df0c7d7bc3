-- Verify voyager:table_roles on pg
SELECT name, requests_per_day, downloads_per_day, admin, description
  FROM voyager.roles WHERE FALSE;
