-- expect-fail: writes-match-claim-version
-- Asks only that the task is running under a live lease, not whose
-- claim it is: after a takeover the late holder renews and completes the
-- new holder's claim.
-- name: renew
UPDATE task SET lease_until = c.now + :lease_ms
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.state = 'RUNNING' AND task.lease_until > c.now;

-- name: complete
UPDATE task SET state = 'SUCCEEDED', lease_until = NULL, finished_at = c.now
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.state = 'RUNNING' AND task.lease_until > c.now;
