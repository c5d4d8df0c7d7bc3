-- Verify voyager:data_rule_set_default on pg
DO $$
BEGIN
    ASSERT (SELECT rules ? 'exempt_group_words' FROM voyager.rule_set(1)), 'rule set 1 is the default';
END $$;
