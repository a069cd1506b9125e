-- expect-fail: recovered-by-claim-id
-- "Unknown means failed": claims again instead of looking.
-- name: recover
UPDATE task
   SET state = 'RUNNING', owner = :owner, claim_id = :claim_id,
       claim_version = claim_version + 1, attempt = attempt + 1,
       lease_until = c.now + 30, claimed_at = c.now
  FROM db_now AS c
 WHERE task.task_id = :task_id
   AND (task.state = 'READY'
        OR (task.state = 'RUNNING' AND task.lease_until <= c.now))
RETURNING claim_version, lease_until, attempt;
