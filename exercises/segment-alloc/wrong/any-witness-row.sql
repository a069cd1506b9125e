-- expect-fail: sequences-independent
-- Asks the witness without naming the sequence: it compares with
-- whichever sequence's generation comes first.
-- name: alloc
UPDATE segment_seq
   SET high_water = high_water + :n, generation = generation + 1
 WHERE name = :name
   AND generation >= COALESCE((SELECT generation FROM witness.segment_witness), 0)
RETURNING high_water - :n + 1 AS first, high_water AS last, generation;
