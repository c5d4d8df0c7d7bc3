-- Verify voyager:schema on pg
SELECT pg_catalog.has_schema_privilege('voyager', 'usage');
