-- expect-fail: claim-id-recovery-stops
-- Recovers by the worker's name: adopts a restarted process's claim.
-- name: recover
SELECT claim_version, lease_until, attempt
  FROM task
 WHERE task_id = :task_id AND owner = :owner AND state = 'RUNNING';
