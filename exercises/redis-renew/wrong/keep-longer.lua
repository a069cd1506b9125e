-- expect-fail: renew-owner-sets-lease
-- Only ever lengthens the lease: a holder that asks for a shorter one
-- (to hand the lock over sooner) keeps the longer lease it had.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
if redis.call('PTTL', KEYS[1]) >= tonumber(ARGV[2]) then
  return 1
end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
