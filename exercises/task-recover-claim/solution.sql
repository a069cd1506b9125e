-- Recovery by the claim_id the worker sent, only while that claim is
-- still the current one.
-- name: recover
SELECT claim_version, lease_until, attempt
  FROM task, db_now AS c
 WHERE claim_id = :claim_id
   AND task_id = :task_id
   AND state = 'RUNNING'
   AND lease_until > c.now;
