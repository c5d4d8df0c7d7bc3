-- Verify voyager:table_catalog_changes on pg
SELECT id, weight
  FROM voyager.catalog_changes WHERE FALSE;
