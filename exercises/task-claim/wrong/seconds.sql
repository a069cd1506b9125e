-- expect-fail: claim-sets-lease
-- Takes :lease_ms for seconds: the lease is a thousand times too long,
-- and a stalled holder keeps its task for hours.
-- name: claim
UPDATE task
   SET state = 'RUNNING', owner = :owner, claim_id = :claim_id,
       claim_version = claim_version + 1, attempt = attempt + 1,
       lease_until = c.now + :lease_ms * 1000, claimed_at = c.now
  FROM db_now AS c
 WHERE task.task_id = :task_id
   AND task.due <= c.now
   AND task.cancel_requested = 0
   AND task.attempt < task.max_attempts
   AND (task.state = 'READY'
        OR (task.state = 'RUNNING' AND task.lease_until <= c.now));
