-- expect-fail: unknown-name-refused
-- An upsert: a name without a row starts a new sequence at 0, also when
-- its row is missing because a restore lost it.
-- name: alloc
INSERT INTO segment_seq (name, high_water, generation) VALUES (:name, :n, 1)
ON CONFLICT (name) DO UPDATE
   SET high_water = high_water + :n, generation = generation + 1
 WHERE generation >= COALESCE((SELECT generation FROM witness.segment_witness
                                WHERE name = :name), 0)
RETURNING high_water - :n + 1 AS first, high_water AS last, generation;
