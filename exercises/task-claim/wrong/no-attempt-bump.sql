-- expect-fail: claim-bumps-version-attempt
-- Counts only successes in attempt: a claim does not add 1, so a task
-- that keeps stalling never runs out of attempts.
-- name: claim
UPDATE task
   SET state = 'RUNNING', owner = :owner, claim_id = :claim_id,
       claim_version = claim_version + 1,
       lease_until = c.now + :lease_ms, claimed_at = c.now
  FROM db_now AS c
 WHERE task.task_id = :task_id
   AND task.due <= c.now
   AND task.cancel_requested = 0
   AND task.attempt < task.max_attempts
   AND (task.state = 'READY'
        OR (task.state = 'RUNNING' AND task.lease_until <= c.now));
