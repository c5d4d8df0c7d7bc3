-- Deploy voyager:table_group_dates to pg
BEGIN;
CREATE TABLE voyager.group_dates (
    group_id   integer NOT NULL REFERENCES voyager.groups (id),
    article    bigint NOT NULL,
    posted_at  timestamptz NOT NULL,     -- the median Date of a sampled slice of articles
    sampled_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (group_id, article)
);
COMMENT ON TABLE voyager.group_dates IS 'When a group''s articles were posted, sampled; the curve behind ranges.est_date';
COMMIT;
