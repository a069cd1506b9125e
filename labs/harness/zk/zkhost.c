/*
 * zkhost.c - ensemble members in one shared JVM (see zkserver.h, "Members
 * in one shared JVM").
 *
 * Design notes:
 *  - The launcher data/zk/MultiPeer.java runs one QuorumPeer per member,
 *    each from a thread of its own, so the JVM starts and loads the
 *    server's classes once instead of once per member.  Its jar and its
 *    class-data archive come from the cache (zkjvm.c).
 *  - Each member keeps its own struct zkserver: zoo.cfg, ports, data and
 *    zookeeper.log, and readiness is zkserver_wait_ready's, unchanged.
 *    While a member runs, its pid is the shared JVM's and it is marked
 *    hosted (host_attach), so zkserver.c only looks at that JVM (waitid
 *    with WNOWAIT) and never signals or reaps it.
 *  - A member is stopped and started inside the JVM through a control
 *    FIFO, one line per command ("stop 2", "start 2"), which the launcher
 *    handles in order; we hold the FIFO open read-write so that neither
 *    side's open blocks.  A stop is done when the member's client port
 *    no longer accepts connections.
 *
 * Invariants:
 *  - h->m[k - 1] is the member at position k (1..h->n), borrowed: the
 *    members outlive h.
 *  - h->pid is the JVM's pid while it may run; only zkhost_end ends and
 *    reaps it, then clears every member's pid and hosted mark.
 *  - h->cds_tmp and h->cds_final are both set or both NULL, as for a
 *    server's (zkserver_int.h).
 *
 * Not here: one server's config and readiness (zkserver.c), the JVM's
 * command line, cache and launcher build (zkjvm.c).
 */
#include "base/mono.h"
#include "base/wb.h"
#include "harness/proc.h"
#include "harness/zk/zkjvm.h"
#include "harness/zk/zkserver.h"
#include "harness/zk/zkserver_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct zkhost {
	char *dir;	/* <run_dir>/zkhost: its stdout.log, other.log, ctl */
	char *ctl_path; /* the control FIFO */
	int ctl;	/* our end of it (read-write, so the JVM's open never blocks) */
	pid_t pid;	/* the JVM, 0 once ended */
	int n;		/* members */
	struct zkserver *m[ZKHOST_MAX]; /* borrowed, position k is m[k - 1] */
	char *cds_tmp, *cds_final;	/* the class archive this JVM writes at exit */
};

/* The host's files and control FIFO under <run_dir>/zkhost, and our end
 * of the FIFO.  0 or WB_EIO with *why. */
static int host_files(struct zkhost *h, const char *run_dir, char **why)
{
	h->dir = wb_xasprintf("%s/zkhost", run_dir);
	h->ctl_path = wb_xasprintf("%s/ctl", h->dir);
	if ((mkdir(h->dir, 0700) != 0 && errno != EEXIST) ||
	    (mkfifo(h->ctl_path, 0600) != 0 && errno != EEXIST) ||
	    (h->ctl = open(h->ctl_path, O_RDWR | O_CLOEXEC)) < 0) {
		*why = wb_xasprintf("cannot make the control FIFO %s: %s", h->ctl_path,
				    strerror(errno));
		return WB_EIO;
	}
	return 0;
}

/* Writes each member's zoo.cfg and marks it hosted by a JVM to come.
 * 0, or WB_EINVAL (one runs already) / WB_EIO with *why. */
static int host_members(struct zkhost *h, struct zkserver *const *m, int n, char **why)
{
	for (int i = 0; i < n; i++) {
		if (m[i]->pid > 0) {
			*why = wb_xasprintf("the server in %s is already running", m[i]->dir);
			return WB_EINVAL;
		}
		if (zkserver_write_config(m[i]) != 0) {
			*why = wb_xasprintf("cannot write zoo.cfg in %s", m[i]->dir);
			return WB_EIO;
		}
		h->m[i] = m[i];
	}
	h->n = n;
	return 0;
}

/* Marks member s as starting now inside h's JVM. */
static void host_attach(struct zkhost *h, struct zkserver *s)
{
	struct stat st;
	s->err[0] = '\0';
	s->log_off = stat(s->log_path, &st) == 0 ? (size_t)st.st_size : 0;
	s->spawned_at = mono_now_ms();
	s->hosted = 1;
	s->pid = h->pid;
}

int zkhost_spawn(const char *run_dir, const char *src, struct zkserver *const *m, int n,
		 struct zkhost **out, char **why)
{
	*out = NULL;
	*why = NULL;
	if (n < 1 || n > ZKHOST_MAX || !src) {
		*why = wb_xasprintf("zkhost: 1..%d members and a launcher source", ZKHOST_MAX);
		return WB_EINVAL;
	}
	struct zkhost *h = wb_xcalloc(1, sizeof *h);
	h->ctl = -1;
	char *java = NULL, *cp = NULL, *jar = NULL, *classpath = NULL, *cds = NULL;
	char *other = NULL, *out_log = NULL, *envp[ZKJVM_ENV_MAX] = {NULL};
	int rc = zkjvm_find_java(&java, why);
	if (!rc)
		rc = zkjvm_find_classpath(&cp, why);
	if (!rc)
		rc = zkjvm_launcher_jar(run_dir, java, cp, src, &jar, why);
	if (!rc)
		rc = host_members(h, m, n, why);
	if (!rc)
		rc = host_files(h, run_dir, why);
	if (rc)
		goto out;
	const char *env_cp = getenv("ZOOKEEPER_CLASSPATH");
	classpath = wb_xasprintf("%s:%s", jar, cp);
	if (!(env_cp && *env_cp))
		rc = zkjvm_cds_option(&cds, &h->cds_tmp, &h->cds_final, 0, java, classpath, why);
	if (rc)
		goto out;
	other = wb_xasprintf("%s/other.log", h->dir);
	out_log = wb_xasprintf("%s/stdout.log", h->dir);
	char *argv[ZKJVM_ARGV_MAX + ZKHOST_MAX];
	size_t k = zkjvm_argv(argv, java, cds);
	argv[k++] = "-cp";
	argv[k++] = classpath;
	argv[k++] = "MultiPeer";
	argv[k++] = other;
	argv[k++] = h->ctl_path;
	for (int i = 0; i < n; i++)
		argv[k++] = m[i]->dir;
	argv[k] = NULL;
	zkjvm_env(envp, h->dir);
	rc = proc_spawn(run_dir, argv, envp, out_log, &h->pid);
	if (rc)
		*why = wb_xasprintf("cannot start %s for the shared JVM", java);
	for (int i = 0; i < n && h->pid > 0; i++)
		host_attach(h, m[i]);
out:
	zkjvm_env_free(envp);
	free(out_log);
	free(other);
	free(cds);
	free(classpath);
	free(jar);
	free(cp);
	free(java);
	if (rc) {
		zkhost_end(h);
		return rc;
	}
	*out = h;
	return 0;
}

/* Sends one control line ("stop 2").  0 or WB_EIO. */
static int host_say(struct zkhost *h, const char *word, int pos)
{
	char line[32];
	int len = snprintf(line, sizeof line, "%s %d\n", word, pos);
	return write(h->ctl, line, (size_t)len) == len ? 0 : WB_EIO;
}

/* Whether something accepts connections on 127.0.0.1:port. */
static int port_open(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	struct sockaddr_in a = zkserver_loopback(port);
	int open = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
	close(fd);
	return open;
}

int zkhost_stop_member(struct zkhost *h, int pos)
{
	if (!h || pos < 1 || pos > h->n)
		return WB_EINVAL;
	struct zkserver *s = h->m[pos - 1];
	if (s->pid <= 0)
		return WB_ENOENT;
	s->pid = 0;
	if (host_say(h, "stop", pos) != 0)
		return WB_EIO;
	/* The peer's shutdown closes its client port first; the launcher
	 * handles control lines in order, so a later start comes after
	 * the whole shutdown. */
	long long deadline = mono_now_ms() + ZKSERVER_STOP_GRACE_MS;
	struct timespec step = {0, 10 * 1000 * 1000};
	while (port_open(s->port)) {
		if (mono_now_ms() >= deadline) {
			zkserver_set_err(s, "member in %s did not stop within %d ms", s->dir,
					 ZKSERVER_STOP_GRACE_MS);
			return WB_EIO;
		}
		nanosleep(&step, NULL);
	}
	return 0;
}

int zkhost_start_member(struct zkhost *h, int pos)
{
	if (!h || pos < 1 || pos > h->n || h->m[pos - 1]->pid > 0)
		return WB_EINVAL;
	host_attach(h, h->m[pos - 1]);
	if (host_say(h, "start", pos) != 0) {
		h->m[pos - 1]->pid = 0;
		return WB_EIO;
	}
	return 0;
}

pid_t zkhost_pid(const struct zkhost *h)
{
	return h ? h->pid : 0;
}

int zkhost_failed_member(const struct zkhost *h)
{
	if (!h)
		return 0;
	char *path = wb_xasprintf("%s/stdout.log", h->dir);
	char *text = NULL;
	size_t len = 0;
	int pos = 0;
	if (wb_read_file(path, &text, &len) == 0) {
		static const char word[] = "member ";
		for (const char *p = text; (p = strstr(p, word)) != NULL; p++) {
			int k = 0, used = 0;
			if ((p == text || p[-1] == '\n') &&
			    sscanf(p, "member %d failed to start%n", &k, &used) == 1 && used > 0 &&
			    k >= 1 && k <= h->n) {
				pos = k;
				break;
			}
		}
		free(text);
	}
	free(path);
	return pos;
}

void zkhost_end(struct zkhost *h)
{
	if (!h)
		return;
	if (h->pid > 0 && h->cds_tmp) { /* this JVM writes the class archive at exit */
		zkjvm_cds_settle(&h->cds_tmp, &h->cds_final,
				 proc_stop(h->pid, ZKSERVER_STOP_GRACE_MS) == 0);
	} else if (h->pid > 0) {
		proc_kill(h->pid);
	}
	zkjvm_cds_settle(&h->cds_tmp, &h->cds_final, 0);
	for (int i = 0; i < h->n; i++) {
		h->m[i]->pid = 0;
		h->m[i]->hosted = 0;
	}
	if (h->ctl >= 0)
		close(h->ctl);
	if (h->ctl_path)
		unlink(h->ctl_path);
	free(h->ctl_path);
	free(h->dir);
	free(h);
}
