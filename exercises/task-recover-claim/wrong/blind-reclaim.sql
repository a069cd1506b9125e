-- expect-fail: recover-finds-current
-- "Unknown means claim again": it claims its task once more under the
-- claim_id it sent instead of reading the claim.  It finds the claim
-- exactly when it should, but it moves claim_version and the lease on,
-- so the worker resumes with a version and a lease nobody gave it.
-- name: recover
UPDATE task
   SET claim_version = claim_version + 1, attempt = attempt + 1,
       lease_until = c.now + 30000, claimed_at = c.now
  FROM db_now AS c
 WHERE task.claim_id = :claim_id
   AND task.task_id = :task_id
   AND task.state = 'RUNNING'
   AND task.lease_until > c.now
RETURNING claim_version, lease_until, attempt;
