-- expect-fail: claim-only-named-task
-- Checks the named task in a subquery, but the UPDATE itself is not
-- restricted to it: when :task_id is claimable, every row of the table
-- is claimed with it, under one claim_id.
-- name: claim
UPDATE task
   SET state = 'RUNNING', owner = :owner, claim_id = :claim_id,
       claim_version = claim_version + 1, attempt = attempt + 1,
       lease_until = c.now + :lease_ms, claimed_at = c.now
  FROM db_now AS c
 WHERE EXISTS (SELECT 1 FROM task AS t
                WHERE t.task_id = :task_id
                  AND t.due <= c.now
                  AND t.cancel_requested = 0
                  AND t.attempt < t.max_attempts
                  AND (t.state = 'READY'
                       OR (t.state = 'RUNNING' AND t.lease_until <= c.now)));
