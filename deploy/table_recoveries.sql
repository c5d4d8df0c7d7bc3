-- Deploy voyager:table_recoveries to pg
BEGIN;
-- A retracted rule's recovery in one group: its done ranges replayed through one
-- window, with the rule set the rule is gone from, from a lead-in before the first
-- range whose counts show the rule's drops (the window carried from there), and
-- only what the rule had dropped stored into those ranges (store_recovered).
CREATE TABLE voyager.recoveries (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    rule          text NOT NULL,             -- the rule_counts rule: dropped-poster, garbage, crosspost
    key           text NOT NULL,             -- its key: the poster, the tool, the removed owner group
    group_id      integer NOT NULL REFERENCES voyager.groups (id),
    rule_version  integer NOT NULL REFERENCES voyager.rule_sets (version),   -- what the replay runs with
    ranges        bigint[] NOT NULL,         -- the ranges the replay reads, in article order, the lead-in first
    stale         bigint[] NOT NULL,         -- of them, those whose counts show the drops: the only ones stored into
    token         uuid,                      -- the recovery lease running it
    planned_at    timestamptz NOT NULL DEFAULT now(),
    done_at       timestamptz,
    added         integer NOT NULL DEFAULT 0,   -- releases and pending releases it added
    CONSTRAINT recoveries_rule_check CHECK (rule IN ('dropped-poster', 'garbage', 'crosspost')),
    CONSTRAINT recoveries_stale_check CHECK (stale <@ ranges AND cardinality(stale) > 0)
);
COMMENT ON TABLE voyager.recoveries IS 'Recoveries of retracted rules: a group''s ranges replayed, only the rule''s drops stored';
-- one open recovery of a rule and key a group
CREATE UNIQUE INDEX recoveries_open_idx ON voyager.recoveries (group_id, rule, key) WHERE done_at IS NULL;
COMMIT;
