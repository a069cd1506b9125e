-- tasks.sql - the durable task table of chapter 01 ("The task table: due,
-- state, claim, lease, attempt") and the clock it is judged by.
--
-- labs/recipes/tasktable.c applies this file once to a fresh database,
-- inside one BEGIN IMMEDIATE transaction, when PRAGMA user_version is 0.
-- It deliberately holds no data and no statements the recipe runs: the
-- conditional UPDATEs live in the recipe, next to the rules they enforce.
--
-- Invariants the schema itself enforces (the recipe enforces the rest):
-- * state is one of the five states; RUNNING always has an owner, a
--   claim_id, a positive claim_version and a lease_until.
-- * claim_version and attempt never go below 0; max_attempts is 1..30 and
--   backoff_ms at most a day, so backoff_ms << (attempt - 1) fits 64 bits.
-- * Every claim request has a fresh claim_id (128 bits from the kernel's
--   random source, made before the request is sent), and recovery looks a
--   claim up by it alone.
-- * Time is an integer in milliseconds of the database's clock (db_now),
--   never a worker's wall clock.

-- The time authority.  One row.  fixed_ms NULL means the real clock; a lab
-- sets fixed_ms to replay a trace ("the claim store's clock reads 100").
CREATE TABLE task_clock (
	id       INTEGER PRIMARY KEY CHECK (id = 1),
	fixed_ms INTEGER
) STRICT;
INSERT INTO task_clock (id, fixed_ms) VALUES (1, NULL);

-- "now" as every statement of the recipe reads it, inside the statement
-- that uses it.  julianday('now') is fixed for the duration of one
-- sqlite3_step(), so one statement sees one instant.
CREATE VIEW db_now (now) AS
SELECT COALESCE((SELECT fixed_ms FROM task_clock WHERE id = 1),
		CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER));

CREATE TABLE task (
	task_id          TEXT PRIMARY KEY NOT NULL
	                 CHECK (length(task_id) BETWEEN 1 AND 63),
	due              INTEGER NOT NULL,          -- earliest claim time (db ms)
	-- Five equalities, not "state IN (...)": SQLite builds an IN list of
	-- more than two values into an ephemeral index every time the
	-- statement runs, and this CHECK runs on every UPDATE that sets state:
	-- it was a quarter of a claim+complete's instructions (callgrind,
	-- 2000 pairs: 249k -> 184k a pair with the OR chain).
	state            TEXT NOT NULL DEFAULT 'READY'
	                 CHECK (state = 'READY' OR state = 'RUNNING'
	                        OR state = 'SUCCEEDED' OR state = 'FAILED'
	                        OR state = 'CANCELLED'),
	owner            TEXT,                      -- current (or last) holder
	claim_id         TEXT,                      -- that holder's claim request
	claim_version    INTEGER NOT NULL DEFAULT 0 CHECK (claim_version >= 0),
	lease_until      INTEGER,                   -- NULL unless RUNNING
	claimed_at       INTEGER,                   -- db time of the last claim
	attempt          INTEGER NOT NULL DEFAULT 0 CHECK (attempt >= 0),
	max_attempts     INTEGER NOT NULL DEFAULT 3
	                 CHECK (max_attempts BETWEEN 1 AND 30),
	backoff_ms       INTEGER NOT NULL DEFAULT 1000
	                 CHECK (backoff_ms BETWEEN 0 AND 86400000),
	backoff_max_ms   INTEGER NOT NULL DEFAULT 60000 CHECK (backoff_max_ms >= 0),
	cancel_requested INTEGER NOT NULL DEFAULT 0
	                 CHECK (cancel_requested IN (0, 1)),
	last_error       TEXT,
	finished_at      INTEGER,                   -- db time of the terminal move
	CHECK (state <> 'RUNNING' OR (owner IS NOT NULL AND claim_id IS NOT NULL
	                              AND claim_version > 0
	                              AND lease_until IS NOT NULL))
) STRICT;

-- Due scanning: "WHERE state = 'READY' AND due <= now ORDER BY due" and the
-- oldest-due-age alarm (MIN(due)) read one index range from its start.
-- Partial: only READY rows are in it, so a claim removes one entry and a
-- completion touches none (with (state, due) over every row, each state
-- change moved an entry between two parts of the index: two more pages in
-- each commit, and finished rows kept the index growing).
CREATE INDEX task_state_due ON task (due) WHERE state = 'READY';
-- Takeover and sweeping: expired leases, oldest first.  Only RUNNING rows
-- (the only ones with a lease), for the same reason.
-- Recovery of a claim whose reply was lost (by claim_id, never by owner)
-- reads the same index: a claim can only be recovered while it is RUNNING
-- with an unexpired lease, so it scans the live leases (as many as there
-- are holders) and finds claim_id in the index entry itself.  A unique
-- index of its own on claim_id cost every claim one more b-tree insert and
-- one more page in its commit (callgrind, 2000 claim+complete pairs:
-- 184k -> 171k instructions a pair; 2 pwrites fewer) to rule out a repeat
-- of a 128-bit random value.
CREATE INDEX task_state_lease ON task (lease_until, claim_id) WHERE state = 'RUNNING';

-- The claim-conflict monitor: how claim requests ended, per interval of
-- db time.  A ring of TASK_STAT_SLOTS rows (labs/recipes/tasktable.h): the
-- interval number mod the slot count picks the row, and the first write in
-- a new interval resets that row's counters.  The recipe bumps exactly one
-- counter in the same transaction as the statement it counts, so a count
-- and the outcome it counts commit or roll back together.
--   won        a claim changed 1 row
--   conflicts  a claim by task_id changed 0 rows: another claimer won the
--              race, or the caller's candidate list was stale (the task is
--              running, finished, cancelled, backing off or spent)
--   empty      claim_next changed 0 rows: nothing was claimable (not a
--              conflict: it picks and claims in one statement under the
--              write lock, so it cannot lose a race)
--   stale      renew, complete, fail or stop changed 0 rows: the holder's
--              claim was no longer the current one
CREATE TABLE task_claim_stat (
	slot      INTEGER PRIMARY KEY NOT NULL,     -- interval number mod slots
	start     INTEGER NOT NULL,                 -- db ms the interval began
	won       INTEGER NOT NULL DEFAULT 0 CHECK (won >= 0),
	conflicts INTEGER NOT NULL DEFAULT 0 CHECK (conflicts >= 0),
	empty     INTEGER NOT NULL DEFAULT 0 CHECK (empty >= 0),
	stale     INTEGER NOT NULL DEFAULT 0 CHECK (stale >= 0)
) STRICT;

PRAGMA user_version = 4;
