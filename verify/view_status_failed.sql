-- Verify voyager:view_status_failed on pg
SELECT group_name, lane, range_id, start_article, end_article, next_article, articles_to_do, priority,
       attempts, leased_at, error
  FROM voyager.status_failed WHERE false;
