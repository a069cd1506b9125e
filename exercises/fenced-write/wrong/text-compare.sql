-- expect-fail: tokens-compare-as-integers
-- Compares the tokens as text: '9' sorts after '10', so token 10 is
-- rejected by a mark of 9 and token 9 accepted over a mark of 10.
-- name: write
INSERT INTO fenced_resource (domain, mark, value) VALUES (:domain, :token, :value)
ON CONFLICT (domain) DO UPDATE SET mark = excluded.mark, value = excluded.value
 WHERE CAST(fenced_resource.mark AS TEXT) <= CAST(excluded.mark AS TEXT);
