-- Deploy voyager:alter_par2_sets_files_dropped to pg
BEGIN;
-- When a set's file list (par2_files) was dropped, once the set could merge
-- nothing more; the set itself stays (its name, creator and count of files).
ALTER TABLE voyager.par2_sets ADD COLUMN files_dropped_at timestamptz;
CREATE INDEX par2_sets_listed_idx ON voyager.par2_sets (found_at) WHERE files_dropped_at IS NULL;
COMMENT ON COLUMN voyager.par2_sets.files_dropped_at IS 'When its file list was dropped (it could merge nothing more); NULL while listed';
COMMIT;
