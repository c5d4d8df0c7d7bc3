-- Verify voyager:table_groups on pg
SELECT id, priority, active, low, high, added_at, listed_at, name
  FROM voyager.groups WHERE FALSE;
