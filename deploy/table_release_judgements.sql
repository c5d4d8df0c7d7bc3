-- Deploy voyager:table_release_judgements to pg
BEGIN;
CREATE TABLE voyager.release_judgements (
    release_id bigint PRIMARY KEY,
    hidden     boolean NOT NULL,               -- true: out of every listing unless asked for
    verdict    text NOT NULL,                  -- the judge's word: fake, virus, spam, ...
    judged_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX release_judgements_hidden_idx ON voyager.release_judgements (release_id) WHERE hidden;
COMMENT ON TABLE voyager.release_judgements IS 'The judge''s verdicts (phase 2): hidden releases leave the API and pages unless asked for';
COMMIT;
