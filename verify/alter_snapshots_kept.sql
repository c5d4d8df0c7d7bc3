-- Verify voyager:alter_snapshots_kept on pg
SELECT group_id, lane, article, rule_version, bytes, taken_at, data FROM voyager.snapshots WHERE FALSE;
SELECT 1/count(*) FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
 WHERE c.conname = 'snapshots_pkey' AND c.conrelid = 'voyager.snapshots'::regclass AND a.attname = 'article';
