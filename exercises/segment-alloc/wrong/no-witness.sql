-- expect-fail: behind-witness-refused
-- Atomic, but never compares the generation with the witness: a restored
-- old backup hands out ranges that were issued before.
-- name: alloc
UPDATE segment_seq
   SET high_water = high_water + :n, generation = generation + 1
 WHERE name = :name
RETURNING high_water - :n + 1 AS first, high_water AS last, generation;
