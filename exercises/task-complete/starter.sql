-- complete.sql: the holder's renew and complete (see TASK.md beside it).
-- Parameters: :task_id, :owner, :claim_version, and :lease_ms for renew.
--
-- The rules the check judges (task: `workbench exercise start task-complete`):
--   renew-sets-lease: current claim: lease_until = now + :lease_ms, nothing else (also with a cancel requested)
--   complete-sets-succeeded: current claim: SUCCEEDED, lease_until NULL, finished_at = now
--   writes-match-claim-version: another claim_version (a takeover, a restart under the same name): 0 rows
--   writes-need-live-lease: the lease ended (lease_until <= now), even untaken: 0 rows
--   writes-need-running: the task is no longer RUNNING: 0 rows
--   writes-only-named-task: no row but :task_id's changes
-- "now" is db_now; every rule is judged on a real SQLite file.
--
-- TODO: these starters guard nothing: a late holder overwrites the new one.
-- name: renew
UPDATE task SET lease_until = (SELECT now FROM db_now) + :lease_ms
 WHERE task_id = :task_id;

-- name: complete
UPDATE task SET state = 'SUCCEEDED', lease_until = NULL,
       finished_at = (SELECT now FROM db_now)
 WHERE task_id = :task_id;
