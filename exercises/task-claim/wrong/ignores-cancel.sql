-- expect-fail: claim-not-cancelled
-- Forgets the cancel flag: a task whose cancellation was requested is
-- handed to the next worker when its lease runs out.
-- name: claim
UPDATE task
   SET state = 'RUNNING', owner = :owner, claim_id = :claim_id,
       claim_version = claim_version + 1, attempt = attempt + 1,
       lease_until = c.now + :lease_ms, claimed_at = c.now
  FROM db_now AS c
 WHERE task.task_id = :task_id
   AND task.due <= c.now
   AND task.attempt < task.max_attempts
   AND (task.state = 'READY'
        OR (task.state = 'RUNNING' AND task.lease_until <= c.now));
