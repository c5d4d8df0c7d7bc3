-- Verify voyager:function_catalog_sizes on pg
SELECT releases, hot_bytes_per_release, chunk_bytes_per_segment, tables FROM voyager.catalog_sizes() WHERE FALSE;
SELECT problem, rows FROM voyager.check_catalog() WHERE FALSE;
