-- Verify voyager:table_judge_queue on pg
SELECT release_id, marked_at FROM voyager.judge_queue WHERE false;
