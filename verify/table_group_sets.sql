-- Verify voyager:table_group_sets on pg
SELECT id, groups
  FROM voyager.group_sets WHERE FALSE;
