-- expect-fail: claim-records-holder
-- Keeps the first claim_id a task ever got: after a takeover the row
-- still carries the previous holder's request id, so neither can recover
-- its own claim by it.
-- name: claim
UPDATE task
   SET state = 'RUNNING', owner = :owner, claim_id = COALESCE(claim_id, :claim_id),
       claim_version = claim_version + 1, attempt = attempt + 1,
       lease_until = c.now + :lease_ms, claimed_at = c.now
  FROM db_now AS c
 WHERE task.task_id = :task_id
   AND task.due <= c.now
   AND task.cancel_requested = 0
   AND task.attempt < task.max_attempts
   AND (task.state = 'READY'
        OR (task.state = 'RUNNING' AND task.lease_until <= c.now));
