-- Verify voyager:view_status_groups on pg
SELECT name, priority, active, low, high, planned_to, planned, leased, done, failed, articles_todo,
       articles_done, ancient_articles, history_holder, tail_holder
  FROM voyager.status_groups WHERE FALSE;
