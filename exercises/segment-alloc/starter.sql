-- alloc.sql: allocate :n numbers of sequence :name (see the task text).
-- Return one row with the columns first, last and generation, or no row
-- to refuse.  This starter moves h but never asks the witness.
-- name: alloc
UPDATE segment_seq
   SET high_water = high_water + :n, generation = generation + 1
 WHERE name = :name
RETURNING high_water - :n + 1 AS first, high_water AS last, generation;
