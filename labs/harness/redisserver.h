/*
 * redisserver.h - a real redis-server (Debian's `redis-server` package)
 * started for one lab: 127.0.0.1 only, a free port, no persistence (no RDB
 * snapshots, no AOF), protected mode on, working directory and log inside
 * the run directory.
 *
 * The server is spawned through harness/proc.h (its own process group,
 * SIGKILL when the spawning thread dies, pid recorded in the run
 * directory), so it is reaped on every path.  Readiness is a PING answered
 * with PONG, polled until a deadline.
 *
 * It deliberately knows nothing about locks (recipes/redislock.h) and
 * starts no replicas: the labs describe failover, they do not stage it.
 */
#ifndef WB_REDISSERVER_H
#define WB_REDISSERVER_H

#include <sys/types.h>

struct redisserver;

/*
 * Spawns redis-server in run_dir and waits (up to timeout_ms; 0: 10000)
 * until PING answers.  A port taken between choosing and binding is
 * retried on a fresh port.  Returns 0 with *out (free with
 * redisserver_free); WB_EUNAVAIL when redis-server is not installed;
 * WB_EIO when it exited or never answered (it is killed).  On error *why
 * (if non-NULL) receives a message the caller frees, naming the package
 * or the log file.
 */
int redisserver_start(const char *run_dir, int timeout_ms, struct redisserver **out, char **why);

/* Stops the server (SHUTDOWN is not needed: SIGTERM, grace, SIGKILL),
 * reaps it and frees s.  Accepts NULL. */
void redisserver_free(struct redisserver *s);

int redisserver_port(const struct redisserver *s);
pid_t redisserver_pid(const struct redisserver *s);
/* Milliseconds from spawn to the first PONG. */
int redisserver_start_ms(const struct redisserver *s);
/* The server's version as INFO reports it (e.g. "7.0.15"); borrowed. */
const char *redisserver_version(const struct redisserver *s);
/* Its log file; borrowed. */
const char *redisserver_log_path(const struct redisserver *s);

#endif
