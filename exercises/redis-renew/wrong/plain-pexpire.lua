-- expect-fail: compare-and-pexpire-leaves-b-lease
-- The naive renewal: stretch the lease of whoever holds the key.
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
