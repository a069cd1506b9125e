-- expect-fail: recover-by-claim-id
-- Recovers by the worker's name: adopts a restarted process's claim,
-- which has the same owner but another claim_id.
-- name: recover
SELECT claim_version, lease_until, attempt
  FROM task, db_now AS c
 WHERE task_id = :task_id AND owner = :owner
   AND state = 'RUNNING' AND lease_until > c.now;
