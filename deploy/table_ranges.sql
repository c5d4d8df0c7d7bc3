-- Deploy voyager:table_ranges to pg
BEGIN;
CREATE TABLE voyager.ranges (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    start_article bigint NOT NULL,          -- inclusive
    end_article   bigint NOT NULL,          -- inclusive
    next_article  bigint NOT NULL,          -- resume point: the first article not yet stored
    headers       bigint NOT NULL DEFAULT 0,    -- overview lines stored so far
    est_date      timestamptz,              -- estimated posting time of start_article
    stored_at     timestamptz,              -- complete in the corpus (range.json seen)
    leased_at     timestamptz,
    done_at       timestamptz,
    group_id      integer NOT NULL REFERENCES voyager.groups (id),
    priority      integer NOT NULL,         -- lower is more urgent; the tail's is tail_priority
    attempts      integer NOT NULL DEFAULT 0,
    rule_version  integer REFERENCES voyager.rule_sets (version),
    status        voyager.range_status NOT NULL DEFAULT 'planned',
    lane          voyager.lane,             -- the lane that took it (null while never handed out)
    capture       boolean NOT NULL DEFAULT false,   -- keep its chunks in the corpus
    error         text,
    CONSTRAINT ranges_span_check CHECK (start_article >= 1 AND end_article >= start_article),
    CONSTRAINT ranges_next_check CHECK (next_article BETWEEN start_article AND end_article + 1),
    CONSTRAINT ranges_group_start_key UNIQUE (group_id, start_article)
);
COMMENT ON TABLE voyager.ranges IS 'A group''s articles tiled from 1: one ancient range below the low watermark, then ranges of range_articles';
-- What a lane can be handed next, in article order.
CREATE INDEX ranges_planned_idx ON voyager.ranges (group_id, start_article)
    INCLUDE (end_article, next_article, priority, capture) WHERE status = 'planned';
-- Takeover redo and status: a lane's handed-out ranges.
CREATE INDEX ranges_lane_idx ON voyager.ranges (group_id, lane, end_article) WHERE lane IS NOT NULL;
COMMIT;
