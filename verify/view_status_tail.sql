-- Verify voyager:view_status_tail on pg
SELECT group_name, ranges, leased, articles_todo, from_article, to_article, holder
  FROM voyager.status_tail WHERE FALSE;
