-- expect-fail: renew-sets-lease
-- Extends from the old end of the lease instead of from now: every
-- renew adds to what was left, so the lease drifts ever further ahead.
-- name: renew
UPDATE task SET lease_until = task.lease_until + :lease_ms
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.claim_version = :claim_version
   AND task.state = 'RUNNING' AND task.lease_until > c.now;

-- name: complete
UPDATE task SET state = 'SUCCEEDED', lease_until = NULL, finished_at = c.now
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.claim_version = :claim_version
   AND task.state = 'RUNNING' AND task.lease_until > c.now;
