-- Revert voyager:table_catalog from pg
BEGIN;
DROP TYPE voyager.sample_in;
DROP TYPE voyager.count_in;
DROP TYPE voyager.pending_in;
DROP TYPE voyager.release_in;
DROP TABLE voyager.rule_samples;
DROP TABLE voyager.rule_counts;
DROP TABLE voyager.probe_candidates;
DROP TABLE voyager.pending_releases;
DROP TABLE voyager.release_chunks;
DROP FUNCTION voyager.chunk_month(timestamptz);
DROP TABLE voyager.release_texts;
DROP TABLE voyager.releases;
DROP TABLE voyager.group_sets;
DROP TABLE voyager.posters;
DROP FUNCTION voyager.is_group_set(text[]);
COMMIT;
