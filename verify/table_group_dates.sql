-- Verify voyager:table_group_dates on pg
SELECT group_id, article, posted_at, sampled_at
  FROM voyager.group_dates WHERE FALSE;
