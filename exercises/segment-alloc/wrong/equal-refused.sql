-- expect-fail: caught-up-served
-- Strictly ahead of the witness: but after every allocation the witness
-- holds exactly the row's generation, so the second allocation is refused.
-- name: alloc
UPDATE segment_seq
   SET high_water = high_water + :n, generation = generation + 1
 WHERE name = :name
   AND generation > COALESCE((SELECT generation FROM witness.segment_witness
                               WHERE name = :name), -1)
RETURNING high_water - :n + 1 AS first, high_water AS last, generation;
