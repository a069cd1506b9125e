-- expect-fail: compare-and-pexpire-leaves-b-lease
-- "Renews" by writing our token back with a fresh lease, without asking
-- whose key it is: it takes B's lock over and reports success.
redis.call('SET', KEYS[1], ARGV[1], 'XX', 'PX', ARGV[2])
return 1
