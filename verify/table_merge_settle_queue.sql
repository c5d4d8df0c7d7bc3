-- Verify voyager:table_merge_settle_queue on pg
SELECT survivor_id, queued_at FROM voyager.merge_settle_queue WHERE false;
