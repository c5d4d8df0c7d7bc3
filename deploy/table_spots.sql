-- Deploy voyager:table_spots to pg
BEGIN;
CREATE TABLE voyager.spots (
    message_id   text PRIMARY KEY,
    article      bigint,
    key_id       integer,
    verified     boolean NOT NULL DEFAULT false,
    trusted      boolean NOT NULL DEFAULT false,
    title        text,
    category     integer,
    subcats      text[] NOT NULL DEFAULT '{}',
    newznab      integer,
    description  text,
    website      text,
    size         bigint,
    nzb          text[] NOT NULL DEFAULT '{}',
    spotter_id   text,
    posted_at    timestamptz,
    read_at      timestamptz NOT NULL DEFAULT now(),
    disposed_at  timestamptz,
    facts        jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX spots_posted_at ON voyager.spots (posted_at DESC) WHERE disposed_at IS NULL;
CREATE INDEX spots_dispose_target ON voyager.spots ((facts->>'target')) WHERE facts->>'command' = 'dispose';
COMMENT ON TABLE voyager.spots IS 'Spotnet spots read from free.pt by the spotter: their header''s facts, the signature''s verdict (trusted: a trusted key''s), disposed_at when a dispose took them back; dispose messages are rows too (facts command, target)';
CREATE TABLE voyager.spot_reads (
    group_name  text PRIMARY KEY,
    last_article bigint NOT NULL,
    read_at     timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.spot_reads IS 'The spotter''s place per group: the last article it read';
COMMIT;
