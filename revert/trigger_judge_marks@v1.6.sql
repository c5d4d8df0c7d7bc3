-- Revert voyager:trigger_judge_marks from pg: the marks under their unique key again
BEGIN;
CREATE OR REPLACE FUNCTION voyager.judge_mark_columns() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    EXECUTE format('INSERT INTO voyager.judge_queue (release_id)
                    SELECT x FROM %I t CROSS JOIN LATERAL (VALUES %s) v(x)
                     WHERE x IS NOT NULL GROUP BY x ORDER BY x ON CONFLICT (release_id) DO NOTHING',
                   CASE WHEN TG_OP = 'DELETE' THEN 'old_rows' ELSE 'new_rows' END,
                   (SELECT string_agg(format('(t.%I)', c), ', ') FROM unnest(TG_ARGV) c));
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION voyager.judge_mark_file_hashes() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_bar integer := coalesce((((voyager.rule_set()).rules -> 'judge') ->> 'repeat_releases')::integer, 20);
BEGIN
    INSERT INTO voyager.judge_queue (release_id)
    SELECT x.release_id FROM (
        SELECT n.release_id FROM new_rows n WHERE n.release_id IS NOT NULL
        UNION
        SELECT h.release_id
          FROM (SELECT n.md5_16k, n.size, count(*) AS fresh FROM new_rows n WHERE n.release_id IS NOT NULL
                 GROUP BY n.md5_16k, n.size) s
          JOIN voyager.file_hashes h ON h.md5_16k = s.md5_16k AND h.size = s.size AND h.release_id IS NOT NULL
         WHERE (SELECT count(*) FROM (SELECT FROM voyager.file_hashes c
                                       WHERE c.md5_16k = s.md5_16k AND c.size = s.size AND c.release_id IS NOT NULL
                                       LIMIT v_bar + s.fresh) c) BETWEEN v_bar AND v_bar + s.fresh - 1) x
     ORDER BY 1
        ON CONFLICT (release_id) DO NOTHING;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION voyager.judge_mark_probe_cache() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO voyager.judge_queue (release_id)
    SELECT DISTINCT pc.release_id
      FROM new_rows n JOIN voyager.probe_candidates pc ON pc.message_id = n.message_id
     WHERE pc.release_id IS NOT NULL
     ORDER BY 1
        ON CONFLICT (release_id) DO NOTHING;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION voyager.judge_mark_probe_candidates() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO voyager.judge_queue (release_id)
    SELECT DISTINCT n.release_id FROM new_rows n
     WHERE n.release_id IS NOT NULL AND n.probed_at IS NOT NULL
     ORDER BY 1
        ON CONFLICT (release_id) DO NOTHING;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION voyager.judge_mark_releases() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO voyager.judge_queue (release_id)
        SELECT n.id FROM new_rows n WHERE n.source BETWEEN 7 AND 10 ORDER BY 1
            ON CONFLICT (release_id) DO NOTHING;
    ELSE
        INSERT INTO voyager.judge_queue (release_id)
        SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
         WHERE n.name IS DISTINCT FROM o.name OR n.readable IS DISTINCT FROM o.readable
            OR n.merged_into IS DISTINCT FROM o.merged_into
            OR (o.settled_at IS NOT NULL AND n.settled_at IS DISTINCT FROM o.settled_at)
         ORDER BY 1
            ON CONFLICT (release_id) DO NOTHING;
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION voyager.judge_mark_texts() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO voyager.judge_queue (release_id)
        SELECT DISTINCT o.release_id FROM old_rows o WHERE o.kind BETWEEN 2 AND 5 ORDER BY 1
            ON CONFLICT (release_id) DO NOTHING;
    ELSE
        INSERT INTO voyager.judge_queue (release_id)
        SELECT DISTINCT n.release_id FROM new_rows n WHERE n.kind BETWEEN 2 AND 5 ORDER BY 1
            ON CONFLICT (release_id) DO NOTHING;
    END IF;
    RETURN NULL;
END $$;

COMMIT;
