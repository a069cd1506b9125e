-- expect-fail: claim-not-finished
-- Says "anything but a live lease": a finished task (SUCCEEDED, FAILED,
-- CANCELLED) is not RUNNING, so it is claimed again.
-- name: claim
UPDATE task
   SET state = 'RUNNING', owner = :owner, claim_id = :claim_id,
       claim_version = claim_version + 1, attempt = attempt + 1,
       lease_until = c.now + :lease_ms, claimed_at = c.now
  FROM db_now AS c
 WHERE task.task_id = :task_id
   AND task.due <= c.now
   AND task.cancel_requested = 0
   AND task.attempt < task.max_attempts
   AND (task.state <> 'RUNNING' OR task.lease_until <= c.now);
