-- expect-fail: renew-only-own
-- "Renews" by writing our token back with a fresh lease when the key
-- exists, without asking whose key it is: it takes B's lock over and
-- reports success.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'XX', 'PX', ARGV[2])
return 1
