-- expect-fail: claim-not-before-due
-- Forgets due: a task that is backing off, or scheduled for later, is
-- claimed as soon as it is READY.
-- name: claim
UPDATE task
   SET state = 'RUNNING', owner = :owner, claim_id = :claim_id,
       claim_version = claim_version + 1, attempt = attempt + 1,
       lease_until = c.now + :lease_ms, claimed_at = c.now
  FROM db_now AS c
 WHERE task.task_id = :task_id
   AND task.cancel_requested = 0
   AND task.attempt < task.max_attempts
   AND (task.state = 'READY'
        OR (task.state = 'RUNNING' AND task.lease_until <= c.now));
