-- expect-fail: claim-takes-claimable
-- Never takes over an expired lease: a stalled holder keeps its task.
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
   AND task.state = 'READY';
