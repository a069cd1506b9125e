-- expect-fail: sequences-independent
-- Forgets "name = :name" in the UPDATE: every sequence the witness check
-- lets through moves by :n.
-- name: alloc
UPDATE segment_seq
   SET high_water = high_water + :n, generation = generation + 1
 WHERE generation >= COALESCE((SELECT generation FROM witness.segment_witness w
                                WHERE w.name = segment_seq.name), 0)
   AND :name IS NOT NULL
RETURNING high_water - :n + 1 AS first, high_water AS last, generation;
