-- expect-fail: recover-needs-running
-- Takes a missing lease for one that never ends and leaves out the
-- state: a claim whose task was completed, failed back to READY or
-- cancelled is "found" and resumed.
-- name: recover
SELECT claim_version, lease_until, attempt
  FROM task, db_now AS c
 WHERE claim_id = :claim_id
   AND task_id = :task_id
   AND (lease_until IS NULL OR lease_until > c.now);
