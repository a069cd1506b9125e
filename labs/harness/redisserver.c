/*
 * redisserver.c - a redis-server for one lab (see redisserver.h).
 *
 * Readiness and the version are asked over a plain socket in RESP
 * ("PING\r\n", "INFO server\r\n") so the harness does not need hiredis;
 * the lab talks to the server through hiredis itself.
 */
#include "harness/redisserver.h"
#include "base/mono.h"
#include "base/wb.h"
#include "harness/proc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct redisserver {
	pid_t pid;	  /* the server, 0 once reaped */
	int port;	  /* its TCP port on 127.0.0.1 */
	int start_ms;	  /* spawn to first PONG */
	char version[32]; /* redis_version from INFO */
	char *log_path;	  /* <run_dir>/redis.log */
};

/* A port that was free a moment ago (bind port 0, read it, close). */
static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_in a = {.sin_family = AF_INET};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof a;
	int port = -1;
	if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	close(fd);
	return port;
}

/* Sends one inline command and reads what arrives until `until` is seen
 * or timeout_ms passes.  Returns 0 with *out (caller frees) or WB_EIO. */
static int ask(int port, const char *cmd, const char *until, int timeout_ms, char **out)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return WB_EIO;
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	struct wb_buf b = {0};
	int rc = WB_EIO;
	long long deadline = mono_now_ms() + timeout_ms;
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
		goto out;
	size_t n = strlen(cmd);
	if (write(fd, cmd, n) != (ssize_t)n)
		goto out;
	for (;;) {
		long long left = deadline - mono_now_ms();
		if (left <= 0)
			goto out;
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (poll(&p, 1, (int)left) <= 0)
			goto out;
		char chunk[1024];
		ssize_t got = read(fd, chunk, sizeof chunk);
		if (got <= 0)
			goto out;
		wb_buf_append(&b, chunk, (size_t)got);
		if (strstr(b.data, until)) {
			rc = 0;
			break;
		}
	}
out:
	close(fd);
	if (rc == 0)
		*out = wb_buf_steal(&b);
	wb_buf_free(&b);
	return rc;
}

/* 1 when the log says the port was taken. */
static int log_says_in_use(const char *log_path)
{
	char *text = NULL;
	size_t len;
	int yes = 0;
	if (wb_read_file(log_path, &text, &len) == 0)
		yes = strstr(text, "Address already in use") != NULL;
	free(text);
	return yes;
}

/* One attempt on one port.  Returns 0, WB_EUNAVAIL, WB_EIO, or WB_EBUSY
 * when the port was taken (the caller retries). */
static int try_start(struct redisserver *s, const char *run_dir, int timeout_ms, char **why)
{
	char port_s[16];
	snprintf(port_s, sizeof port_s, "%d", s->port);
	char *argv[] = {"redis-server",
			"--port",
			port_s,
			"--bind",
			"127.0.0.1",
			"--save",
			"",
			"--appendonly",
			"no",
			"--dir",
			(char *)run_dir,
			"--protected-mode",
			"yes",
			"--daemonize",
			"no",
			"--logfile",
			"",
			NULL};
	const char *path = getenv("PATH");
	char *env_path = wb_xasprintf("PATH=%s", path && *path ? path : "/usr/sbin:/usr/bin:/bin");
	char *envp[] = {env_path, "LANG=C.UTF-8", NULL};
	long long t0 = mono_now_ms();
	int rc = proc_spawn(run_dir, argv, envp, s->log_path, &s->pid);
	free(env_path);
	if (rc == WB_EUNAVAIL) {
		s->pid = 0;
		*why = wb_xstrdup("redis-server is not installed: install the Debian package "
				  "redis-server (./wb deps)");
		return rc;
	}
	if (rc) {
		s->pid = 0;
		*why = wb_xasprintf("could not start redis-server: %s", wb_strerror(rc));
		return rc;
	}
	long long deadline = t0 + timeout_ms;
	struct timespec tick = {0, 10 * 1000 * 1000};
	for (;;) {
		int status;
		if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
			s->pid = 0;
			if (log_says_in_use(s->log_path))
				return WB_EBUSY;
			*why = wb_xasprintf("redis-server exited at start; see %s", s->log_path);
			return WB_EIO;
		}
		char *pong = NULL;
		if (ask(s->port, "PING\r\n", "\r\n", 500, &pong) == 0) {
			int ok = strncmp(pong, "+PONG", 5) == 0;
			free(pong);
			if (ok)
				break;
		}
		if (mono_now_ms() >= deadline) {
			proc_stop(s->pid, 1000);
			s->pid = 0;
			*why = wb_xasprintf("redis-server did not answer PING within %d ms; see %s",
					    timeout_ms, s->log_path);
			return WB_EIO;
		}
		nanosleep(&tick, NULL);
	}
	s->start_ms = (int)(mono_now_ms() - t0);
	char *info = NULL;
	/* A bulk reply whose text ends with a blank line. */
	if (ask(s->port, "INFO server\r\n", "\r\n\r\n", 2000, &info) == 0) {
		const char *v = strstr(info, "redis_version:");
		if (v) {
			v += strlen("redis_version:");
			size_t n = strcspn(v, "\r\n");
			snprintf(s->version, sizeof s->version, "%.*s", (int)n, v);
		}
		free(info);
	}
	return 0;
}

int redisserver_start(const char *run_dir, int timeout_ms, struct redisserver **out, char **why)
{
	struct redisserver *s = wb_xcalloc(1, sizeof *s);
	char *msg = NULL;
	int rc = WB_EIO;
	*out = NULL;
	if (timeout_ms <= 0)
		timeout_ms = 10000;
	s->log_path = wb_xasprintf("%s/redis.log", run_dir);
	snprintf(s->version, sizeof s->version, "?");
	for (int attempt = 0; attempt < 3; attempt++) {
		s->port = free_port();
		if (s->port <= 0) {
			msg = wb_xstrdup("no free TCP port on 127.0.0.1");
			rc = WB_EIO;
			break;
		}
		rc = try_start(s, run_dir, timeout_ms, &msg);
		if (rc != WB_EBUSY)
			break;
	}
	if (rc == WB_EBUSY) {
		rc = WB_EIO;
		msg = wb_xasprintf("every port tried was taken; see %s", s->log_path);
	}
	if (rc) {
		if (why)
			*why = msg;
		else
			free(msg);
		redisserver_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void redisserver_free(struct redisserver *s)
{
	if (!s)
		return;
	if (s->pid > 0)
		proc_stop(s->pid, 2000);
	free(s->log_path);
	free(s);
}

int redisserver_port(const struct redisserver *s)
{
	return s->port;
}

pid_t redisserver_pid(const struct redisserver *s)
{
	return s->pid;
}

int redisserver_start_ms(const struct redisserver *s)
{
	return s->start_ms;
}

const char *redisserver_version(const struct redisserver *s)
{
	return s->version;
}

const char *redisserver_log_path(const struct redisserver *s)
{
	return s->log_path;
}
