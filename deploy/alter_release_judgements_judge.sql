-- Deploy voyager:alter_release_judgements_judge to pg
BEGIN;
-- The junk judge's verdicts beside the merges': the rule set version whose
-- judge section gave the verdict, and what matched (short). Verdicts: the
-- judge's dead, fake, repeated, locked, unusable (hidden, taken back when
-- their rule no longer matches); merged (merge_releases', never the judge's).
ALTER TABLE voyager.release_judgements
    ADD COLUMN rule_version integer,
    ADD COLUMN detail jsonb;
COMMENT ON COLUMN voyager.release_judgements.verdict IS
    'The judge''s rule (dead, fake, repeated, locked, unusable) or merged (merge_releases: hidden under its survivor)';
COMMENT ON COLUMN voyager.release_judgements.rule_version IS 'The rule set whose judge section gave the verdict (null: merged)';
COMMENT ON COLUMN voyager.release_judgements.detail IS 'What matched, short (the holders of a shared start, the programs, ...)';
COMMIT;
