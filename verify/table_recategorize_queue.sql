-- Verify voyager:table_recategorize_queue on pg
SELECT release_id, queued_at FROM voyager.recategorize_queue WHERE false;
