-- claim.sql: write the claim of one task (see TASK.md beside it).
-- The schema is data/tasks.sql; the parameters are :task_id, :owner,
-- :claim_id and :lease_ms (and :now, the worker's clock: never use it).
--
-- The rules the check judges (task: `workbench exercise start task-claim`):
--   claim-takes-claimable: due, not cancelled, an attempt left, READY or lease ended (<= now): claim it
--   claim-records-holder: RUNNING, owner = :owner, claim_id = :claim_id; other columns stay
--   claim-bumps-version-attempt: claim_version + 1 and attempt + 1
--   claim-sets-lease: claimed_at = now, lease_until = now + :lease_ms (ms of db_now)
--   claim-not-before-due: due later than now, even by 1 ms: 0 rows
--   claim-not-cancelled: cancel_requested = 1: 0 rows
--   claim-within-attempts: attempt >= max_attempts: 0 rows
--   claim-not-live-lease: RUNNING with lease_until > now: 0 rows
--   claim-not-finished: SUCCEEDED, FAILED, CANCELLED: 0 rows
--   claim-only-named-task: no row but :task_id's changes
--   claim-ignores-worker-clock: the same outcome whatever :now reads
-- Every rule is judged on a real SQLite file with the database clock fixed.
--
-- TODO: this starter only takes READY tasks and judges nothing else:
-- make its WHERE the whole precondition.
-- name: claim
UPDATE task
   SET state = 'RUNNING', owner = :owner, claim_id = :claim_id,
       claim_version = claim_version + 1, attempt = attempt + 1,
       lease_until = (SELECT now FROM db_now) + :lease_ms,
       claimed_at = (SELECT now FROM db_now)
 WHERE task_id = :task_id AND state = 'READY';
