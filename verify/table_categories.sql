-- Verify voyager:table_categories on pg
SELECT id, parent_id, name
  FROM voyager.categories WHERE FALSE;
