-- Deploy voyager:table_merge_settle_queue to pg
BEGIN;
-- Survivors whose members learnt something after their merge (a probe read
-- late, a pending upload named): their heads, texts and passwords are settled
-- again by the merges job, in bounded batches, so what a member learns reaches
-- the release users see.
CREATE TABLE voyager.merge_settle_queue (
    survivor_id bigint PRIMARY KEY,
    queued_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.merge_settle_queue IS
    'Survivors to settle again: a member learnt facts after its merge (drained by merge_pass)';
COMMIT;
