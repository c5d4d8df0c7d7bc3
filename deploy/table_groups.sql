-- Deploy voyager:table_groups to pg
BEGIN;
CREATE TABLE voyager.groups (
    id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- The owner rule's number, fixed when the group is added: a crosspost belongs
    -- to the indexed group in its Xref with the lowest number, so adding a group
    -- never takes articles from groups already done.
    priority   integer NOT NULL UNIQUE,
    active     boolean NOT NULL DEFAULT true,   -- false: removed, no new leases
    low        bigint  NOT NULL DEFAULT 0,      -- last LIST ACTIVE's watermarks
    high       bigint  NOT NULL DEFAULT 0,
    added_at   timestamptz NOT NULL DEFAULT now(),
    listed_at  timestamptz,                     -- last LIST ACTIVE that named it
    name       text NOT NULL UNIQUE,
    CONSTRAINT groups_name_check CHECK (name <> '' AND name !~ '[[:space:]]'),
    CONSTRAINT groups_watermarks_check CHECK (low >= 0 AND high >= 0)
);
COMMENT ON TABLE voyager.groups IS 'The indexed groups; priority is the owner rule''s number';
COMMIT;
