-- release.lua: release a Redis lock, but only if it is still yours.
-- KEYS[1]: the lock key   ARGV[1]: the token your acquisition wrote
-- Return 1 when this call deleted the key, 0 otherwise.
--
-- TODO: compare the key's value with ARGV[1] and delete only on a match.
return 0
