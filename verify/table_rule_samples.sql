-- Verify voyager:table_rule_samples on pg
SELECT range_id, first_article, release_key, rule, key, sample
  FROM voyager.rule_samples WHERE FALSE;
