-- expect-fail: generation-advances
-- Never moves the generation: a restored backup has the same generation
-- as the live row, and the witness cannot tell them apart.
-- name: alloc
UPDATE segment_seq
   SET high_water = high_water + :n
 WHERE name = :name
   AND generation >= COALESCE((SELECT generation FROM witness.segment_witness
                                WHERE name = :name), 0)
RETURNING high_water - :n + 1 AS first, high_water AS last, generation;
