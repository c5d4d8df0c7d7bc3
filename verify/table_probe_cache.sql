-- Verify voyager:table_probe_cache on pg
SELECT message_id, kind, status, error, bytes, facts, probed_at FROM voyager.probe_cache WHERE FALSE;
