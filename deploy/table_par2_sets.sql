-- Deploy voyager:table_par2_sets to pg
BEGIN;
-- A par2 set as its index or first volume describes it (the files in par2_files),
-- whichever release holds it: the merges and par2 completeness read it.
CREATE TABLE voyager.par2_sets (
    set_id     bytea PRIMARY KEY CHECK (octet_length(set_id) = 16),
    creator    text,
    name       text,                          -- the set's largest file: its name when the subject has none
    files      integer NOT NULL,
    message_id text NOT NULL,                 -- the article it was read from
    found_at   timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.par2_sets IS 'Par2 sets the prober read (set id, creator, its largest file''s name)';
COMMIT;
