-- Verify voyager:table_snapshots on pg
SELECT group_id, lane, article, bytes, taken_at, data
  FROM voyager.snapshots WHERE FALSE;
