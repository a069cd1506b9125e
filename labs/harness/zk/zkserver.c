/*
 * zkserver.c - one real ZooKeeper server process (see zkserver.h): its
 * config, spawn, readiness and lifecycle.
 *
 * Design notes:
 *  - The JVM is started the way Debian's zkServer.sh does (QuorumPeerMain
 *    with a zoo.cfg), but with our own class path so that slf4j finds the
 *    log4j 1.2 binding (else the server log is silent) and with
 *    log4j.properties in the server directory writing zookeeper.log there.
 *    QuorumPeerMain runs a standalone server when the config has no
 *    server.N lines, and an ensemble member when it has them, so issue 7
 *    only adds lines.
 *  - Readiness is 'ruok' answering 'imok' and 'srvr' reporting a Mode
 *    (imok alone comes before the database is loaded), asked when the
 *    server log (watched with inotify) shows a start-up-done line and
 *    otherwise every 200 ms, until a deadline; a JVM that exits
 *    meanwhile (a pidfd) is reported with its log.
 *  - Ports are reserved by binding and closing (a port below the ephemeral
 *    range when one is free, else port 0): another process may take one
 *    before the JVM binds it.  A standalone server that fails with
 *    "Address already in use" is retried on fresh ports; an ensemble member
 *    cannot be (its ports are in the other members' configs).
 *  - Lab speed settings: tickTime 200 ms, forceSync=no (labs test protocol
 *    behaviour, not disk durability), a 4 MiB log preallocation, a
 *    client-compiler-only JIT and the serial collector (faster start, less
 *    memory on small machines), maxClientCnxns=0 (the herd lab opens more
 *    than the default 60 connections from 127.0.0.1).
 *
 * Invariants: those of struct zkserver (zkserver_int.h).  Only this file
 * spawns, signals or reaps a server's own JVM; a hosted member's JVM is
 * zkhost.c's, and this file only looks at it (jvm_exited, zkserver_died).
 *
 * Not here: the java runtime, the class-data cache and the launcher
 * (zkjvm.c), members in one shared JVM (zkhost.c), clients, the fault
 * proxy, lab reporting.
 */
#include "harness/zk/zkserver.h"
#include "base/mono.h"
#include "base/testhook.h"
#include "base/wb.h"
#include "harness/proc.h"
#include "harness/zk/zkjvm.h"
#include "harness/zk/zkserver_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void zkserver_set_err(struct zkserver *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof s->err, fmt, ap);
	va_end(ap);
}

/* 127.0.0.1:port as a socket address (port 0: any free one). */
struct sockaddr_in zkserver_loopback(int port)
{
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((unsigned short)port);
	return a;
}

/* Binds port 0 on 127.0.0.1 and returns the port the kernel chose, or a
 * negative WB_E* code. */
static int reserve_port(void)
{
	/* Ensembles (issue 7): first try a random free port just below the
	 * kernel's ephemeral range.  bind(0) and connect() never hand those
	 * out, so a member's reserved quorum or election port - often not
	 * bound until much later - cannot be taken meanwhile by a relay's
	 * listener or by any outgoing connection of this machine. */
	int lo = 32768;
	FILE *r = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r");
	if (r) {
		if (fscanf(r, "%d", &lo) != 1)
			lo = 32768;
		fclose(r);
	}
	/* Successive reservations of this process walk the range from a
	 * random start, so they never repeat a port not yet bound. */
	static _Atomic unsigned next_port;
	unsigned zero = 0, seed = (unsigned)getpid() ^ (unsigned)mono_now_ms();
	atomic_compare_exchange_strong(&next_port, &zero, 1 + (unsigned)rand_r(&seed) % 10000u);
	for (int i = 0; lo > 11024 && i < 32; i++) {
		int cand = lo - 1 - (int)(atomic_fetch_add(&next_port, 1) % 10000u);
		int pfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (pfd < 0)
			break;
		struct sockaddr_in c = zkserver_loopback(cand);
		int ok = bind(pfd, (struct sockaddr *)&c, sizeof c) == 0;
		close(pfd);
		if (ok)
			return cand;
	}
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return WB_EIO;
	struct sockaddr_in a = zkserver_loopback(0);
	socklen_t len = sizeof a;
	int port = WB_EIO;
	if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	close(fd);
	return port;
}

static int reserve_ports(struct zkserver *s)
{
	int p = reserve_port();
	/* Test hook: WORKBENCH_TEST_ZK_TAKEN_PORT=P makes a standalone
	 * server's first reservation P, a port the test holds, so the
	 * "taken between probe and bind" path runs for real. */
	const char *taken = testhook_zk_taken_port();
	if (taken && *taken && s->port == 0 && s->myid == 0 && atoi(taken) > 0)
		p = atoi(taken);
	if (p < 0)
		return p;
	s->port = p;
	snprintf(s->connect, sizeof s->connect, "127.0.0.1:%d", p);
	free(s->quorum_line);
	s->quorum_line = wb_xstrdup("");
	if (s->myid > 0) {
		int q = reserve_port(), e = reserve_port();
		if (q < 0 || e < 0)
			return WB_EIO;
		s->quorum_port = q;
		s->election_port = e;
		free(s->quorum_line);
		s->quorum_line = wb_xasprintf("server.%d=127.0.0.1:%d:%d", s->myid, q, e);
	}
	return 0;
}

int zkserver_new(const char *run_dir, const struct zkserver_opts *opts, struct zkserver **out,
		 char **why)
{
	static const struct zkserver_opts defaults;
	if (!opts)
		opts = &defaults;
	*out = NULL;
	if (why)
		*why = NULL;
	if (!run_dir || opts->myid < 0 || opts->myid > 255 || opts->tick_ms < 0 ||
	    opts->min_session_ms < 0 || opts->max_session_ms < 0 ||
	    (opts->name && (!*opts->name || strchr(opts->name, '/')))) {
		if (why)
			*why = wb_xstrdup("zkserver: bad options (run_dir, myid 0..255, name)");
		return WB_EINVAL;
	}
	if (strpbrk(run_dir, "\\\n")) {
		if (why)
			*why = wb_xasprintf("zkserver: run directory %s has a character that "
					    "zoo.cfg cannot hold",
					    run_dir);
		return WB_EINVAL;
	}
	struct zkserver *s = wb_xcalloc(1, sizeof *s);
	s->run_dir = wb_xstrdup(run_dir);
	s->myid = opts->myid;
	s->tick_ms = opts->tick_ms ? opts->tick_ms : 200;
	s->min_session_ms = opts->min_session_ms ? opts->min_session_ms : 2 * s->tick_ms;
	s->max_session_ms = opts->max_session_ms ? opts->max_session_ms : 60000;
	s->start_timeout = opts->start_timeout_ms ? opts->start_timeout_ms : 60000;
	if (opts->name)
		s->dir = wb_xasprintf("%s/%s", run_dir, opts->name);
	else if (opts->myid)
		s->dir = wb_xasprintf("%s/zk%d", run_dir, opts->myid);
	else
		s->dir = wb_xasprintf("%s/zk", run_dir);
	s->log_path = wb_xasprintf("%s/zookeeper.log", s->dir);
	char *data = wb_xasprintf("%s/data", s->dir);
	int rc = 0;
	if (mkdir(s->dir, 0700) != 0 || mkdir(data, 0700) != 0) {
		if (why)
			*why = wb_xasprintf("zkserver: cannot create %s: %s", data,
					    strerror(errno));
		rc = WB_EIO;
		goto out;
	}
	if (s->myid > 0) {
		char *idf = wb_xasprintf("%s/myid", data);
		FILE *f = fopen(idf, "w");
		int bad = !f || fprintf(f, "%d\n", s->myid) < 0;
		if (f && fclose(f) != 0)
			bad = 1;
		free(idf);
		if (bad) {
			if (why)
				*why = wb_xasprintf("zkserver: cannot write myid in %s", data);
			rc = WB_EIO;
			goto out;
		}
	}
	rc = reserve_ports(s);
	if (rc) {
		if (why)
			*why = wb_xasprintf("zkserver: cannot bind a port on 127.0.0.1: %s",
					    strerror(errno));
		goto out;
	}
out:
	free(data);
	if (rc) {
		zkserver_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void zkserver_set_extra_cfg(struct zkserver *s, const char *text)
{
	free(s->extra_cfg);
	s->extra_cfg = text ? wb_xstrdup(text) : NULL;
}

const char *zkserver_quorum_line(const struct zkserver *s)
{
	return s->quorum_line ? s->quorum_line : "";
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return WB_EIO;
	int bad = fputs(text, f) == EOF;
	if (fclose(f) != 0)
		bad = 1;
	return bad ? WB_EIO : 0;
}

int zkserver_write_config(struct zkserver *s)
{
	struct wb_buf b = {0};
	wb_buf_printf(&b,
		      "# written by workbench (labs/harness/zkserver.c) for one lab run\n"
		      "tickTime=%d\n"
		      "initLimit=10\n"
		      "syncLimit=5\n"
		      "dataDir=%s/data\n"
		      "clientPort=%d\n"
		      "clientPortAddress=127.0.0.1\n"
		      "minSessionTimeout=%d\n"
		      "maxSessionTimeout=%d\n"
		      "maxClientCnxns=0\n"
		      "admin.enableServer=false\n"
		      "4lw.commands.whitelist=*\n"
		      "forceSync=no\n",
		      s->tick_ms, s->dir, s->port, s->min_session_ms, s->max_session_ms);
	if (s->myid > 0)
		wb_buf_puts(&b, "quorumListenOnAllIPs=false\n");
	if (s->extra_cfg) {
		wb_buf_puts(&b, s->extra_cfg);
		if (b.len && b.data[b.len - 1] != '\n')
			wb_buf_puts(&b, "\n");
	}
	char *cfg = wb_xasprintf("%s/zoo.cfg", s->dir);
	int rc = write_text(cfg, b.data);
	free(cfg);
	wb_buf_free(&b);
	if (rc)
		return rc;

	char *props =
		wb_xasprintf("# written by workbench: the server log stays in this directory\n"
			     "log4j.rootLogger=INFO, FILE\n"
			     "log4j.appender.FILE=org.apache.log4j.FileAppender\n"
			     "log4j.appender.FILE.File=%s\n"
			     "log4j.appender.FILE.Append=true\n"
			     "log4j.appender.FILE.layout=org.apache.log4j.PatternLayout\n"
			     "log4j.appender.FILE.layout.ConversionPattern=%%d{ISO8601} - %%-5p "
			     "[%%t:%%C{1}@%%L] - "
			     "%%m%%n\n",
			     s->log_path);
	char *ppath = wb_xasprintf("%s/log4j.properties", s->dir);
	rc = write_text(ppath, props);
	free(ppath);
	free(props);
	return rc;
}

static void cds_settle(struct zkserver *s, int keep)
{
	zkjvm_cds_settle(&s->cds_tmp, &s->cds_final, keep);
}

static int cds_option(struct zkserver *s, const char *java, const char *cp, char **opt, char **why)
{
	cds_settle(s, 0);
	return zkjvm_cds_option(opt, &s->cds_tmp, &s->cds_final, s->port, java, cp, why);
}

/* Spawns the JVM.  Returns 0 or a WB_E* code with s->err set. */
static int spawn(struct zkserver *s)
{
	char *java = NULL, *cp = NULL, *why = NULL;
	int rc = zkjvm_find_java(&java, &why);
	if (!rc)
		rc = zkjvm_find_classpath(&cp, &why);
	if (rc) {
		zkserver_set_err(s, "%s", why);
		free(why);
		free(java);
		free(cp);
		return rc;
	}
	/* With the Debian jars the class path is the jars alone, so that
	 * their classes can come from the shared archive (a directory in
	 * the class path stops the JVM writing one; log4j finds its file
	 * through -Dlog4j.configuration).  $ZOOKEEPER_CLASSPATH keeps the
	 * directory first and gets no archive. */
	const char *env_cp = getenv("ZOOKEEPER_CLASSPATH");
	int custom = env_cp && *env_cp;
	char *cds = NULL;
	if (!custom && cds_option(s, java, cp, &cds, &why) != 0) {
		zkserver_set_err(s, "%s", why);
		free(why);
		free(java);
		free(cp);
		return WB_EUNAVAIL;
	}
	char *classpath = custom ? wb_xasprintf("%s:%s", s->dir, cp) : wb_xstrdup(cp);
	char *log4j = wb_xasprintf("-Dlog4j.configuration=file:%s/log4j.properties", s->dir);
	char *logdir = wb_xasprintf("-Dzookeeper.log.dir=%s", s->dir);
	char *cfg = wb_xasprintf("%s/zoo.cfg", s->dir);
	char *argv[ZKJVM_ARGV_MAX];
	size_t n = zkjvm_argv(argv, java, cds);
	argv[n++] = log4j;
	argv[n++] = logdir;
	argv[n++] = "-cp";
	argv[n++] = classpath;
	argv[n++] = "org.apache.zookeeper.server.quorum.QuorumPeerMain";
	argv[n++] = cfg;
	argv[n] = NULL;
	char *envp[ZKJVM_ENV_MAX];
	zkjvm_env(envp, s->dir);
	char *out_log = wb_xasprintf("%s/stdout.log", s->dir);
	pid_t pid = 0;
	rc = proc_spawn(s->run_dir, argv, envp, out_log, &pid);
	if (rc == WB_EUNAVAIL)
		zkserver_set_err(s, "cannot run %s: not found (install default-jre-headless)",
				 java);
	else if (rc && pid > 0)
		zkserver_set_err(s, "cannot record the server pid in %s/pids", s->run_dir);
	else if (rc)
		zkserver_set_err(s, "cannot start %s: %s", java, strerror(errno));
	if (pid > 0)
		s->pid = pid; /* even if recording failed: we must stop it */
	free(out_log);
	zkjvm_env_free(envp);
	free(cfg);
	free(logdir);
	free(log4j);
	free(classpath);
	free(cds);
	free(cp);
	free(java);
	return rc;
}

/* The test hook described in zkserver.h. */
static void ready_hook(const struct zkserver *s)
{
	const char *dir = testhook_zk_ready_dir();
	if (!dir || !*dir)
		return;
	char *ready = wb_xasprintf("%s/ready", dir);
	char *go = wb_xasprintf("%s/go", dir);
	int fd = open(ready, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		char line[32];
		int n = snprintf(line, sizeof line, "%d\n", (int)s->pid);
		ssize_t w = write(fd, line, (size_t)n);
		(void)w;
		close(fd);
		fd = open(go, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			char buf[64];
			while (read(fd, buf, sizeof buf) > 0)
				;
			close(fd);
		}
	}
	free(go);
	free(ready);
}

/* 'imok' only says the process is up and bound to its port; until the
 * server has loaded its database (and, in an ensemble, joined a quorum)
 * 'srvr' answers "not currently serving requests".  Ready means both. */
static int serving(const struct zkserver *s, long long deadline)
{
	char *answer = NULL;
	int left = (int)(deadline - mono_now_ms());
	int ok = zk_four_letter("127.0.0.1", s->port, "ruok", left < 1000 ? left : 1000, &answer) ==
			 0 &&
		 !strcmp(answer, "imok");
	free(answer);
	answer = NULL;
	left = (int)(deadline - mono_now_ms());
	ok = ok &&
	     zk_four_letter("127.0.0.1", s->port, "srvr", left < 1000 ? left : 1000, &answer) ==
		     0 &&
	     strstr(answer, "Mode: ") != NULL;
	free(answer);
	return ok;
}

int zkserver_spawn(struct zkserver *s)
{
	s->err[0] = '\0';
	if (s->pid > 0) {
		zkserver_set_err(s, "the server in %s is already running (pid %d)", s->dir,
				 (int)s->pid);
		return WB_EINVAL;
	}
	int rc = zkserver_write_config(s);
	if (rc) {
		zkserver_set_err(s, "cannot write zoo.cfg or log4j.properties in %s", s->dir);
		return rc;
	}
	struct stat st;
	s->log_off = stat(s->log_path, &st) == 0 ? (size_t)st.st_size : 0;
	s->spawned_at = mono_now_ms();
	rc = spawn(s);
	if (rc && s->pid > 0)
		zkserver_kill(s);
	return rc;
}

/* Whether this start's part of the log (after log_off) says needle. */
static int log_says(const struct zkserver *s, const char *needle)
{
	char *text = NULL;
	size_t len = 0;
	if (wb_read_file(s->log_path, &text, &len) != 0)
		return 0;
	int found = len > s->log_off && strstr(text + s->log_off, needle) != NULL;
	free(text);
	return found;
}

/* Lines of the server log that come when a start is (about) done: a
 * standalone 3.8 server's last start-up line, and an ensemble member
 * entering the broadcast phase ("Peer state changed: leading -
 * broadcast").  Only hints: 'ruok' + 'srvr' still decide. */
static const char *const ready_hints[] = {
	"ZooKeeper audit is",
	" - broadcast",
};

/* Whether the log written since *off says one of ready_hints; moves *off
 * on (keeping a short overlap, so a hint split between two reads is
 * found). */
static int log_hints_ready(const struct zkserver *s, size_t *off)
{
	enum { OVERLAP = 64 };
	int fd = open(s->log_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	size_t from = *off >= s->log_off + OVERLAP ? *off - OVERLAP : s->log_off;
	int found = 0;
	char buf[8192 + 1];
	for (;;) {
		ssize_t n = pread(fd, buf, sizeof buf - 1, (off_t)from);
		if (n <= 0)
			break;
		buf[n] = '\0';
		for (size_t i = 0; i < WB_ARRAY_LEN(ready_hints) && !found; i++)
			found = strstr(buf, ready_hints[i]) != NULL;
		*off = from + (size_t)n;
		if (found || n < (ssize_t)sizeof buf - 1)
			break;
		from = *off - OVERLAP;
	}
	close(fd);
	return found;
}

/* The JVM ended during start-up: WB_EBUSY when its port was taken, else
 * WB_EIO with the reason and the log's tail in s->err. */
static int start_exited(struct zkserver *s, int status)
{
	s->pid = 0;
	if (log_says(s, "Address already in use"))
		return WB_EBUSY;
	char *tail = zkjvm_file_tail(s->log_path, 600);
	if (!*tail) {
		free(tail);
		char *out = s->hosted ? wb_xasprintf("%s/zkhost/stdout.log", s->run_dir)
				      : wb_xasprintf("%s/stdout.log", s->dir);
		tail = zkjvm_file_tail(out, 600);
		free(out);
	}
	zkserver_set_err(s, "the ZooKeeper server exited during start-up (%s %d); see %s: %s",
			 WIFEXITED(status) ? "status" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), s->log_path,
			 tail);
	free(tail);
	return WB_EIO;
}

/* Whether the JVM has ended, with its wait status in *status.  Our own
 * JVM is reaped; a shared one (zkhost) is only looked at, since every
 * member waits on it and its owner reaps it. */
static int jvm_exited(const struct zkserver *s, int *status)
{
	if (!s->hosted)
		return waitpid(s->pid, status, WNOHANG) == s->pid;
	siginfo_t si;
	memset(&si, 0, sizeof si);
	if (waitid(P_PID, (id_t)s->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 ||
	    si.si_pid != s->pid)
		return 0;
	/* the wait status the W* macros read */
	*status = si.si_code == CLD_EXITED ? (si.si_status & 0xff) << 8 : si.si_status & 0x7f;
	return 1;
}

/* Like zkserver_wait_ready, but WB_EBUSY when the JVM exited because its
 * port was taken (the caller may retry on fresh ports).
 *
 * Readiness by event, not by a tight poll: the wait sleeps in poll(2) on
 * an inotify watch of the server directory (the log growing) and on a
 * pidfd (the JVM exiting), and asks 'ruok' + 'srvr' only when the log
 * shows a ready hint, or every FALLBACK_MS whatever the log says (a
 * server version whose lines differ still comes up).  Each four-letter
 * word costs the booting JVM an accept, a worker and log lines, CPU that
 * every member of an ensemble is short of while they all start; polling
 * every 20 ms asked about 50 of them per start. */
static int wait_ready(struct zkserver *s)
{
	enum { FALLBACK_MS = 200 };
	if (s->pid <= 0) {
		if (!s->err[0])
			zkserver_set_err(s, "the server in %s is not running", s->dir);
		return WB_EIO;
	}
	long long deadline = s->spawned_at + s->start_timeout;
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (in >= 0 && inotify_add_watch(in, s->dir, IN_MODIFY | IN_CREATE) < 0) {
		close(in);
		in = -1;
	}
	int pfd = (int)syscall(SYS_pidfd_open, s->pid, 0);
	size_t off = s->log_off;
	long long next_ask = mono_now_ms(); /* ask once at once: a restart may be quick */
	int rc = 0;
	for (;;) {
		int status = 0;
		if (jvm_exited(s, &status)) {
			rc = start_exited(s, status);
			break;
		}
		long long now = mono_now_ms();
		if (now >= next_ask || log_hints_ready(s, &off)) {
			if (serving(s, deadline))
				break;
			/* without the log watch, ask as often as before it */
			next_ask = mono_now_ms() + (in >= 0 ? FALLBACK_MS : 20);
		}
		now = mono_now_ms();
		if (now >= deadline) {
			zkserver_kill(s);
			zkserver_set_err(
				s,
				"the ZooKeeper server on %s was not serving within %d ms; see %s",
				s->connect, s->start_timeout, s->log_path);
			rc = WB_EIO;
			break;
		}
		long long until = next_ask < deadline ? next_ask : deadline;
		struct pollfd fds[2] = {{in, POLLIN, 0}, {pfd, POLLIN, 0}};
		poll(fds, 2, (int)(until - now) + 1); /* neither fd: a plain sleep */
		if (in >= 0 && (fds[0].revents & POLLIN)) {
			char ev[4096];
			while (read(in, ev, sizeof ev) > 0)
				; /* drained: the log is read from off on */
		}
	}
	if (pfd >= 0)
		close(pfd);
	if (in >= 0)
		close(in);
	if (rc == 0)
		s->start_ms = (int)(mono_now_ms() - s->spawned_at);
	return rc;
}

int zkserver_wait_ready(struct zkserver *s)
{
	int rc = wait_ready(s);
	if (rc == WB_EBUSY) {
		zkserver_set_err(
			s,
			"a reserved port on 127.0.0.1 was taken before the server bound it; see %s",
			s->log_path);
		rc = WB_EIO;
	}
	if (rc == 0)
		ready_hook(s);
	return rc;
}

int zkserver_start(struct zkserver *s)
{
	int rc = WB_EIO, busy = 0;
	for (int attempt = 0; attempt < 3; attempt++) {
		rc = zkserver_spawn(s);
		if (rc == 0)
			rc = wait_ready(s);
		if (rc != WB_EBUSY)
			break;
		busy++;
		if (s->myid > 0) {
			zkserver_set_err(
				s,
				"ensemble member %d: a reserved port on 127.0.0.1 was taken "
				"before the server bound it; see %s",
				s->myid, s->log_path);
			return WB_EIO;
		}
		if (reserve_ports(s) != 0)
			break;
	}
	if (rc == WB_EBUSY) {
		zkserver_set_err(
			s, "the ZooKeeper server could not bind a free port three times; see %s",
			s->log_path);
		rc = WB_EIO;
	}
	/* The taken-port hook must have taken effect, or a test of the
	 * retry would pass without exercising it. */
	const char *taken = testhook_zk_taken_port();
	if (rc == 0 && taken && *taken && s->myid == 0 && !busy) {
		zkserver_set_err(s, "test hook: port %s was not in use, nothing was retried",
				 taken);
		zkserver_kill(s);
		rc = WB_EIO;
	}
	if (rc == 0)
		ready_hook(s);
	return rc;
}

int zkserver_stop(struct zkserver *s)
{
	if (!s || s->pid <= 0)
		return WB_ENOENT;
	pid_t pid = s->pid;
	s->pid = 0;
	if (s->hosted) /* the shared JVM is its zkhost's to end */
		return 0;
	int rc = proc_stop(pid, ZKSERVER_STOP_GRACE_MS);
	cds_settle(s, rc == 0);
	return rc;
}

int zkserver_kill(struct zkserver *s)
{
	if (!s || s->pid <= 0)
		return WB_ENOENT;
	pid_t pid = s->pid;
	s->pid = 0;
	if (s->hosted)
		return 0;
	proc_kill(pid);
	cds_settle(s, 0);
	return 0;
}

int zkserver_discard(struct zkserver *s)
{
	if (!s || s->pid <= 0)
		return WB_ENOENT;
	if (!s->cds_tmp)
		return zkserver_kill(s);
	/* This JVM writes the class archive at a normal exit: let it. */
	return zkserver_stop(s);
}

int zkserver_died(const struct zkserver *s, char *why, size_t n)
{
	pid_t pid = s ? s->pid : 0;
	if (pid <= 0)
		return 0;
	siginfo_t si;
	memset(&si, 0, sizeof si);
	/* WNOWAIT: look without reaping, so zkserver_stop/kill still can. */
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid != pid)
		return 0;
	if (why && n) {
		if (si.si_code == CLD_EXITED)
			snprintf(why, n,
				 "the ZooKeeper server (pid %d) died: it exited with status %d",
				 (int)pid, si.si_status);
		else
			snprintf(why, n, "the ZooKeeper server (pid %d) died: killed by signal %d",
				 (int)pid, si.si_status);
	}
	return 1;
}

void zkserver_free(struct zkserver *s)
{
	if (!s)
		return;
	zkserver_stop(s);
	free(s->run_dir);
	free(s->dir);
	free(s->log_path);
	free(s->quorum_line);
	free(s->extra_cfg);
	cds_settle(s, 0);
	free(s);
}

int zkserver_port(const struct zkserver *s)
{
	return s->port;
}

const char *zkserver_connect(const struct zkserver *s)
{
	return s->connect;
}

const char *zkserver_dir(const struct zkserver *s)
{
	return s->dir;
}

const char *zkserver_log_path(const struct zkserver *s)
{
	return s->log_path;
}

pid_t zkserver_pid(const struct zkserver *s)
{
	return s->pid;
}

int zkserver_start_ms(const struct zkserver *s)
{
	return s->start_ms;
}

const char *zkserver_error(const struct zkserver *s)
{
	return s->err;
}

int zkserver_myid(const struct zkserver *s)
{
	return s->myid;
}

int zk_four_letter(const char *host, int port, const char *word, int timeout_ms, char **out)
{
	*out = NULL;
	if (!word || strlen(word) != 4 || port <= 0 || port > 65535)
		return WB_EINVAL;
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	if (inet_pton(AF_INET, host, &a.sin_addr) != 1)
		return WB_EINVAL;
	long long deadline = mono_now_ms() + (timeout_ms > 0 ? timeout_ms : 1);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return WB_EIO;
	int rc = WB_EIO;
	struct wb_buf b = {0};
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		if (errno != EINPROGRESS)
			goto out;
		struct pollfd p = {fd, POLLOUT, 0};
		int left = (int)(deadline - mono_now_ms());
		if (left <= 0 || poll(&p, 1, left) != 1)
			goto out;
		int soerr = 0;
		socklen_t sl = sizeof soerr;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) != 0 || soerr != 0)
			goto out;
	}
	if (send(fd, word, 4, MSG_NOSIGNAL) != 4)
		goto out;
	for (;;) {
		int left = (int)(deadline - mono_now_ms());
		if (left <= 0)
			goto out;
		struct pollfd p = {fd, POLLIN, 0};
		int pr = poll(&p, 1, left);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr != 1)
			goto out;
		char buf[4096];
		ssize_t n = recv(fd, buf, sizeof buf, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			goto out;
		if (n == 0)
			break;
		wb_buf_append(&b, buf, (size_t)n);
	}
	*out = wb_buf_steal(&b);
	rc = 0;
out:
	wb_buf_free(&b);
	close(fd);
	return rc;
}

int zkserver_four_letter(const struct zkserver *s, const char *word, char **out)
{
	return zk_four_letter("127.0.0.1", s->port, word, 5000, out);
}
