-- Verify voyager:table_release_judgements on pg
SELECT release_id, hidden, verdict, judged_at
  FROM voyager.release_judgements WHERE FALSE;
