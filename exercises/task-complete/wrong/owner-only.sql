-- expect-fail: writes-match-claim-version
-- Guards by the owner's name but not by claim_version: a restarted
-- process with the same name is taken for the same claim.
-- name: renew
UPDATE task SET lease_until = c.now + :lease_ms
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.state = 'RUNNING' AND task.lease_until > c.now;

-- name: complete
UPDATE task SET state = 'SUCCEEDED', lease_until = NULL, finished_at = c.now
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.state = 'RUNNING' AND task.lease_until > c.now;
