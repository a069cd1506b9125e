-- renew.lua: compare-and-pexpire, run by the server as one atomic step.
-- KEYS[1]: the lock key   ARGV[1]: your token   ARGV[2]: the new lease (ms)
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0  -- not ours any more: stop protected work
end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
