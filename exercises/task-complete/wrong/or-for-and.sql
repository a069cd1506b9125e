-- expect-fail: writes-only-named-task
-- OR where AND was meant: the claim's version and owner match on every
-- task the worker holds with that version, so one complete finishes
-- them all.
-- name: renew
UPDATE task SET lease_until = c.now + :lease_ms
  FROM db_now AS c
 WHERE (task.task_id = :task_id OR task.owner = :owner)
   AND task.claim_version = :claim_version
   AND task.state = 'RUNNING' AND task.lease_until > c.now;

-- name: complete
UPDATE task SET state = 'SUCCEEDED', lease_until = NULL, finished_at = c.now
  FROM db_now AS c
 WHERE (task.task_id = :task_id OR task.owner = :owner)
   AND task.claim_version = :claim_version
   AND task.state = 'RUNNING' AND task.lease_until > c.now;
