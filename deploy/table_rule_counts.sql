-- Deploy voyager:table_rule_counts to pg
BEGIN;
CREATE TABLE voyager.rule_counts (
    range_id      bigint NOT NULL,
    first_article bigint NOT NULL,            -- the batch that counted it
    rule          text NOT NULL,
    key           text NOT NULL,
    articles      bigint NOT NULL,
    files         bigint NOT NULL,
    releases      bigint NOT NULL,
    PRIMARY KEY (range_id, first_article, rule, key),
    FOREIGN KEY (range_id, first_article) REFERENCES voyager.range_batches (range_id, first_article) ON DELETE CASCADE
);
COMMENT ON TABLE voyager.rule_counts IS 'What each rule skipped or dropped, per batch of a range; a redone batch replaces its counts';
COMMIT;
