-- Revert voyager:trigger_judge_marks from pg: the passwords' and merges' own marking functions of v1.2 again
BEGIN;
DROP TRIGGER release_passwords_judge_insert ON voyager.release_passwords;
DROP TRIGGER release_passwords_judge_update ON voyager.release_passwords;
DROP TRIGGER release_passwords_judge_delete ON voyager.release_passwords;
DROP TRIGGER release_merges_judge_insert ON voyager.release_merges;
DROP TRIGGER release_merges_judge_update ON voyager.release_merges;
DROP TRIGGER release_merges_judge_delete ON voyager.release_merges;

-- release_passwords: a status or password given, changed or gone.
CREATE FUNCTION voyager.judge_mark_passwords() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO voyager.judge_queue (release_id)
        SELECT DISTINCT o.release_id FROM old_rows o ORDER BY 1 ON CONFLICT (release_id) DO NOTHING;
    ELSE
        INSERT INTO voyager.judge_queue (release_id)
        SELECT DISTINCT n.release_id FROM new_rows n ORDER BY 1 ON CONFLICT (release_id) DO NOTHING;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER release_passwords_judge_insert AFTER INSERT ON voyager.release_passwords
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_passwords();
CREATE TRIGGER release_passwords_judge_update AFTER UPDATE ON voyager.release_passwords
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_passwords();
CREATE TRIGGER release_passwords_judge_delete AFTER DELETE ON voyager.release_passwords
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_passwords();

-- release_merges: a merge made, moved or undone marks its survivor and the
-- merged release (judged as its survivor while merged, on its own after).
CREATE FUNCTION voyager.judge_mark_merges() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO voyager.judge_queue (release_id)
        SELECT x FROM old_rows o CROSS JOIN LATERAL (VALUES (o.merged_id), (o.survivor_id)) v(x)
         GROUP BY x ORDER BY x ON CONFLICT (release_id) DO NOTHING;
    ELSE
        INSERT INTO voyager.judge_queue (release_id)
        SELECT x FROM new_rows n CROSS JOIN LATERAL (VALUES (n.merged_id), (n.survivor_id)) v(x)
         GROUP BY x ORDER BY x ON CONFLICT (release_id) DO NOTHING;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER release_merges_judge_insert AFTER INSERT ON voyager.release_merges
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_merges();
CREATE TRIGGER release_merges_judge_update AFTER UPDATE ON voyager.release_merges
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_merges();
CREATE TRIGGER release_merges_judge_delete AFTER DELETE ON voyager.release_merges
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_merges();

DROP FUNCTION voyager.judge_mark_columns();
COMMIT;
