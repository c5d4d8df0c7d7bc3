-- Deploy voyager:trigger_judge_marks to pg: one marking function for the triggers that mark by columns
BEGIN;
-- release_passwords and release_merges: the releases a changed row names,
-- in the columns the trigger's arguments give (old rows for a delete; a null
-- column, a link to no catalog release yet, marks nothing).
CREATE FUNCTION voyager.judge_mark_columns() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('INSERT INTO voyager.judge_queue (release_id)
                    SELECT x FROM %I t CROSS JOIN LATERAL (VALUES %s) v(x)
                     WHERE x IS NOT NULL GROUP BY x ORDER BY x ON CONFLICT (release_id) DO NOTHING',
                   CASE WHEN TG_OP = 'DELETE' THEN 'old_rows' ELSE 'new_rows' END,
                   (SELECT string_agg(format('(t.%I)', c), ', ') FROM unnest(TG_ARGV) c));
    RETURN NULL;
END $$;

DROP TRIGGER release_passwords_judge_insert ON voyager.release_passwords;
DROP TRIGGER release_passwords_judge_update ON voyager.release_passwords;
DROP TRIGGER release_passwords_judge_delete ON voyager.release_passwords;
DROP TRIGGER release_merges_judge_insert ON voyager.release_merges;
DROP TRIGGER release_merges_judge_update ON voyager.release_merges;
DROP TRIGGER release_merges_judge_delete ON voyager.release_merges;
DROP FUNCTION voyager.judge_mark_passwords();
DROP FUNCTION voyager.judge_mark_merges();

-- release_passwords: a status or password given, changed or gone.
CREATE TRIGGER release_passwords_judge_insert AFTER INSERT ON voyager.release_passwords
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('release_id');
CREATE TRIGGER release_passwords_judge_update AFTER UPDATE ON voyager.release_passwords
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('release_id');
CREATE TRIGGER release_passwords_judge_delete AFTER DELETE ON voyager.release_passwords
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('release_id');

-- release_merges: a merge made, moved or undone marks its survivor and the
-- merged release (judged as its survivor while merged, on its own after).
CREATE TRIGGER release_merges_judge_insert AFTER INSERT ON voyager.release_merges
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION voyager.judge_mark_columns('merged_id', 'survivor_id');
CREATE TRIGGER release_merges_judge_update AFTER UPDATE ON voyager.release_merges
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION voyager.judge_mark_columns('merged_id', 'survivor_id');
CREATE TRIGGER release_merges_judge_delete AFTER DELETE ON voyager.release_merges
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
    EXECUTE FUNCTION voyager.judge_mark_columns('merged_id', 'survivor_id');
COMMIT;
