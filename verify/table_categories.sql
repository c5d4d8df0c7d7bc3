-- Verify voyager:table_categories on pg
SELECT id, parent_id, name FROM voyager.categories WHERE FALSE;
SELECT 1/count(*) FROM voyager.categories WHERE id = 5040 AND parent_id = 5000;
