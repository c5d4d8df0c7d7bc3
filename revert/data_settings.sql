-- Revert voyager:data_settings from pg
BEGIN;
DELETE FROM voyager.settings WHERE name IN ('catalog_max_gb', 'chunk_articles', 'chunks_tablespace', 'history_priority', 'lease_capture_only', 'lease_max_priority', 'lease_min_priority', 'lease_ttl_seconds', 'nntp_claim_ttl_seconds', 'partitions_seconds', 'range_articles', 'search_counts_seconds', 'search_tracked_min', 'settle_quiet_minutes', 'settle_seconds', 'snapshot_minutes', 'tail_plan_seconds', 'tail_plan_wildmat', 'tail_priority');
COMMIT;
