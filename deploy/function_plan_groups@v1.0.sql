-- Deploy voyager:function_plan_groups to pg
BEGIN;
-- Plans groups from LIST ACTIVE data; run once for the first plan and then every
-- couple of minutes with fresh data as the tail planner.
--  * Ranges lie on a grid tiled from article 1: cell k holds articles
--    k*range_articles+1 .. (k+1)*range_articles, so a range's span does not
--    depend on when its group was planned (corpus folders stay comparable).
--  * A new group gets the next priority number (the first listing by size, or the
--    number a corpus's groups.json gives), an `ancient` range below its low
--    watermark and history ranges up to its high watermark, one per grid cell
--    (the first from the low watermark to its cell's end).
--  * A known group grows its open tail range (planned at the tail's priority,
--    nothing taken from it) up to its cell's end before tail ranges are added,
--    so a quiet group does not become thousands of slivers.
--  * An inactive (removed) group keeps its watermarks up to date, nothing more.
-- Every article from 1 to the highest watermark seen is in exactly one range.
CREATE FUNCTION voyager.plan_groups(listing jsonb, wildmat text DEFAULT NULL)
RETURNS TABLE (group_name text, priority integer, added boolean, ranges_added integer,
               ranges_grown integer, articles_planned bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_ra      bigint  := voyager.setting_int('range_articles');
    v_tail    integer := voyager.setting_int('tail_priority');
    v_hist    integer := voyager.setting_int('history_priority');
    v_taken   text;
    g         record;
    v_last    voyager.ranges;
    v_from    bigint;
    v_prio    integer;
    v_added   integer;
    v_grown   integer;
    v_articles bigint;
    v_new_end bigint;
BEGIN
    PERFORM voyager.check_listing(listing);
    -- One planner at a time: two rounds must not tile the same group twice.
    PERFORM pg_advisory_xact_lock(hashtext('voyager.plan_groups'));

    CREATE TEMP TABLE IF NOT EXISTS plan_listing (
        name text PRIMARY KEY, low bigint, high bigint, priority integer
    ) ON COMMIT DROP;
    TRUNCATE plan_listing;
    INSERT INTO plan_listing
    SELECT x.name, x.low, x.high, x.priority
      FROM jsonb_to_recordset(listing) AS x(name text, low bigint, high bigint, priority integer)
     WHERE wildmat IS NULL OR voyager.wildmat(wildmat, x.name);

    -- A priority number given for a new group must be free.
    SELECT l.name INTO v_taken FROM plan_listing l
      JOIN voyager.groups g2 ON g2.priority = l.priority AND g2.name <> l.name
     WHERE NOT EXISTS (SELECT 1 FROM voyager.groups g3 WHERE g3.name = l.name) LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'group %: its priority number is already another group''s', v_taken USING ERRCODE = '23505';
    END IF;
    SELECT l.priority::text INTO v_taken FROM plan_listing l
     WHERE l.priority IS NOT NULL AND NOT EXISTS (SELECT 1 FROM voyager.groups g3 WHERE g3.name = l.name)
     GROUP BY l.priority HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'priority number % is given to more than one new group', v_taken USING ERRCODE = '23505';
    END IF;

    -- New groups: given numbers first, then the next numbers by size (largest first).
    WITH fresh AS (
        SELECT l.* FROM plan_listing l WHERE NOT EXISTS (SELECT 1 FROM voyager.groups g3 WHERE g3.name = l.name)
    ), base AS (
        SELECT greatest(coalesce((SELECT max(g4.priority) FROM voyager.groups g4), 0),
                        coalesce((SELECT max(f.priority) FROM fresh f), 0)) AS top
    ), numbered AS (
        SELECT f.name, f.low, f.high,
               coalesce(f.priority,
                        (SELECT top FROM base)
                        + row_number() OVER (PARTITION BY f.priority IS NULL
                                             ORDER BY greatest(f.high - f.low + 1, 0) DESC, f.name)::integer) AS prio
          FROM fresh f
    ), ins AS (
        INSERT INTO voyager.groups (name, priority, low, high, listed_at)
        SELECT n.name, n.prio, n.low, n.high, now() FROM numbered n
        RETURNING id
    )
    INSERT INTO voyager.group_leases (group_id, lane)
    SELECT ins.id, lane FROM ins CROSS JOIN unnest(enum_range(NULL::voyager.lane)) AS lane;

    FOR g IN
        SELECT gr.id, gr.name, gr.priority, gr.active, l.low, l.high
          FROM plan_listing l JOIN voyager.groups gr ON gr.name = l.name
         ORDER BY gr.priority
    LOOP
        UPDATE voyager.groups SET low = g.low, high = g.high, listed_at = now() WHERE id = g.id;
        v_added := 0; v_grown := 0; v_articles := 0;
        IF g.active THEN
            SELECT * INTO v_last FROM voyager.ranges r WHERE r.group_id = g.id
             ORDER BY r.start_article DESC LIMIT 1 FOR UPDATE;
            IF NOT FOUND THEN
                -- First plan: what expired before we came is ancient, never leased.
                IF g.low > 1 THEN
                    INSERT INTO voyager.ranges (group_id, start_article, end_article, next_article, priority, status)
                    VALUES (g.id, 1, g.low - 1, 1, v_hist, 'ancient');
                    v_added := v_added + 1;
                END IF;
                v_from := greatest(g.low, 1);
                v_prio := v_hist;
            ELSE
                v_from := v_last.end_article + 1;
                v_prio := v_tail;
                -- The open tail range: the last one, at the tail's priority, nothing taken from it.
                IF g.high >= v_from AND v_last.status = 'planned' AND v_last.priority = v_tail
                   AND v_last.lane IS NULL AND v_last.next_article = v_last.start_article
                   AND v_last.end_article < ((v_last.start_article - 1) / v_ra + 1) * v_ra THEN
                    v_new_end := least(((v_last.start_article - 1) / v_ra + 1) * v_ra, g.high);
                    UPDATE voyager.ranges SET end_article = v_new_end WHERE id = v_last.id;
                    v_grown := 1;
                    v_articles := v_new_end - v_last.end_article;
                    v_from := v_new_end + 1;
                END IF;
            END IF;
            IF g.high >= v_from THEN
                INSERT INTO voyager.ranges (group_id, start_article, end_article, next_article, priority)
                SELECT g.id, greatest(c * v_ra + 1, v_from), least((c + 1) * v_ra, g.high),
                       greatest(c * v_ra + 1, v_from), v_prio
                  FROM generate_series((v_from - 1) / v_ra, (g.high - 1) / v_ra) AS c;
                v_added := v_added + ((g.high - 1) / v_ra - (v_from - 1) / v_ra + 1)::integer;
                v_articles := v_articles + (g.high - v_from + 1);
            END IF;
        END IF;
        group_name := g.name; priority := g.priority;
        added := v_last.id IS NULL AND g.active;
        ranges_added := v_added; ranges_grown := v_grown; articles_planned := v_articles;
        v_last := NULL;
        RETURN NEXT;
    END LOOP;
END $$;
COMMENT ON FUNCTION voyager.plan_groups(jsonb, text)
    IS 'Plans groups from LIST ACTIVE rows [{"name","low","high"[,"priority"]}], optionally a wildmat of them; also the tail planner';
COMMIT;
