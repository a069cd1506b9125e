-- expect-fail: writes-need-live-lease
-- Trusts the claim until someone takes it over: a holder whose lease
-- has ended still renews and completes, although any claimer may take
-- the task at that moment.
-- name: renew
UPDATE task SET lease_until = c.now + :lease_ms
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.claim_version = :claim_version
   AND task.state = 'RUNNING';

-- name: complete
UPDATE task SET state = 'SUCCEEDED', lease_until = NULL, finished_at = c.now
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.claim_version = :claim_version
   AND task.state = 'RUNNING';
