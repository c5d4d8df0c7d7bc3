-- Verify voyager:alter_group_leases_rule_version on pg
SELECT rule_version, rules_token FROM voyager.group_leases WHERE false;
