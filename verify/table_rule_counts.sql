-- Verify voyager:table_rule_counts on pg
SELECT range_id, first_article, rule, key, articles, files, releases
  FROM voyager.rule_counts WHERE FALSE;
