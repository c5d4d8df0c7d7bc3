-- Verify voyager:table_rule_sets on pg
SELECT version, created_at, rules, note
  FROM voyager.rule_sets WHERE FALSE;
