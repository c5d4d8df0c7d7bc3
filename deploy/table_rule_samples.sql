-- Deploy voyager:table_rule_samples to pg
BEGIN;
CREATE TABLE voyager.rule_samples (
    range_id      bigint NOT NULL,
    first_article bigint NOT NULL,
    release_key   bytea NOT NULL,
    rule          text NOT NULL,
    key           text NOT NULL,
    sample        jsonb NOT NULL,             -- the release with its files, as the window saw it
    PRIMARY KEY (range_id, first_article, release_key),
    FOREIGN KEY (range_id, first_article) REFERENCES voyager.range_batches (range_id, first_article) ON DELETE CASCADE
);
COMMENT ON TABLE voyager.rule_samples IS '~1% of what each rule dropped, with full file details';
COMMIT;
