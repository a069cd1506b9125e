-- expect-fail: renew-only-own
-- The naive renewal: stretch the lease of whoever holds the key.
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
