-- renew.lua: extend a Redis lock's lease, but only if it is still yours.
-- KEYS[1]: the lock key   ARGV[1]: your token   ARGV[2]: the new lease (ms)
-- Return 1 when this call set the new lease, 0 otherwise (0 means: stop
-- the protected work now).
--
-- TODO: compare the key's value with ARGV[1]; only on a match PEXPIRE it.
return 0
