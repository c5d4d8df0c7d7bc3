-- Deploy voyager:view_status_judge to pg
BEGIN;
-- The judge at a glance: a row a rule in its order, with the releases it
-- hides and its last verdict; on every row the dirty backlog (marks waiting
-- and the oldest), the judge job's last run and the daily pass's (where it
-- is: the id it has judged up to in the pass begun at its place).
CREATE VIEW voyager.status_judge AS
SELECT v.verdict, coalesce(c.releases, 0) AS releases, c.last_judged_at,
       q.backlog, q.oldest_mark, greatest(date_trunc('second', now() - q.oldest_mark), interval '0') AS waiting,
       jd.last_run_at AS judge_last_run_at, jd.last_result AS judge_last_result, jd.last_error AS judge_last_error,
       dl.last_run_at AS daily_last_run_at, dl.place AS daily_pass_began, dl.place_id AS daily_at_id,
       dl.last_result AS daily_last_result, dl.last_error AS daily_last_error
  FROM unnest(ARRAY['dead', 'fake', 'repeated', 'locked', 'unusable']) WITH ORDINALITY v(verdict, ord)
  LEFT JOIN (SELECT j.verdict, count(*) AS releases, max(j.judged_at) AS last_judged_at
               FROM voyager.release_judgements j WHERE j.verdict <> 'merged' GROUP BY j.verdict) c
         ON c.verdict = v.verdict
 CROSS JOIN (SELECT count(*) AS backlog, min(x.marked_at) AS oldest_mark FROM voyager.judge_queue x) q
  LEFT JOIN voyager.jobs jd ON jd.name = 'judge'
  LEFT JOIN voyager.jobs dl ON dl.name = 'judge_daily'
 ORDER BY v.ord;
COMMENT ON VIEW voyager.status_judge IS
    'The junk judge: releases hidden by rule, the dirty backlog and its oldest mark, the judge and judge_daily jobs'' last runs';
COMMIT;
