-- recover.sql: find the claim whose reply was lost (see the task text).
-- Parameters: :task_id, :claim_id, :owner.  Return claim_version and
-- lease_until of the claim, or no row when it is not yours to resume.
-- This starter finds nothing.
-- name: recover
SELECT claim_version, lease_until FROM task WHERE 0;
