-- expect-fail: step6-A-complete-zero-rows
-- The complete asks only for the task: A's late complete wins.
-- name: renew
UPDATE task SET lease_until = c.now + :lease_ms
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.claim_version = :claim_version
   AND task.state = 'RUNNING' AND task.lease_until > c.now;

-- name: complete
UPDATE task SET state = 'SUCCEEDED', lease_until = NULL,
       finished_at = (SELECT now FROM db_now)
 WHERE task_id = :task_id AND state = 'RUNNING';
