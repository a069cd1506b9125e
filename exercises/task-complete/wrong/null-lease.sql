-- expect-fail: writes-need-running
-- Takes a missing lease for one that never ends and leaves out the
-- state: a task that was completed, failed back to READY or cancelled
-- under this claim is written again.
-- name: renew
UPDATE task SET lease_until = c.now + :lease_ms
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.claim_version = :claim_version
   AND (task.lease_until IS NULL OR task.lease_until > c.now);

-- name: complete
UPDATE task SET state = 'SUCCEEDED', lease_until = NULL, finished_at = c.now
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.claim_version = :claim_version
   AND (task.lease_until IS NULL OR task.lease_until > c.now);
