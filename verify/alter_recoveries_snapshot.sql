-- Verify voyager:alter_recoveries_snapshot on pg
SELECT snapshot_lane, snapshot_article, snapshot_rule_version FROM voyager.recoveries WHERE FALSE;
