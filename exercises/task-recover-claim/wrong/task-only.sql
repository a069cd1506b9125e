-- expect-fail: recover-by-claim-id
-- Asks only whether the task is running under a live lease: it finds
-- whoever holds the task, another worker included, and calls it ours.
-- name: recover
SELECT claim_version, lease_until, attempt
  FROM task, db_now AS c
 WHERE task_id = :task_id
   AND state = 'RUNNING' AND lease_until > c.now;
