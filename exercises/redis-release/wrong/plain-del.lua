-- expect-fail: compare-and-delete-keeps-b-lock
-- The naive release: delete the key whoever holds it.
return redis.call('DEL', KEYS[1])
