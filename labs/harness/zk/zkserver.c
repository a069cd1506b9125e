/*
 * zkserver.c - one real ZooKeeper server process (see zkserver.h).
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
 *  - Class data sharing: the JVM's start is mostly loading and linking
 *    classes; mapping them from an archive (-XX:SharedArchiveFile, JDK
 *    13+) about halves it.  The archive is the JVM's own dynamic dump
 *    (-XX:ArchiveClassesAtExit) written by the first server that finds
 *    none, at its normal exit (zkserver_discard), into a temporary name
 *    then renamed; -Xshare:auto ignores a stale one.
 *  - The cache (cache_dir: the archives and the shared-JVM launcher's
 *    jar, each named by a hash of what it was built from) does not grow
 *    without bound: every use of an entry sets its access time (not its
 *    modification time: the jar's is part of its archive's name), and a
 *    process's first look at the cache removes our entries unused for
 *    CACHE_UNUSED_DAYS (left by an upgraded java or ZooKeeper, or an
 *    older launcher) and our half-written parts older than
 *    CACHE_PART_HOURS (a JVM killed while writing).  Other files there
 *    are left alone.
 *  - Lab speed settings: tickTime 200 ms, forceSync=no (labs test protocol
 *    behaviour, not disk durability), a 4 MiB log preallocation, a
 *    client-compiler-only JIT and the serial collector (faster start, less
 *    memory on small machines), maxClientCnxns=0 (the herd lab opens more
 *    than the default 60 connections from 127.0.0.1).
 *
 * Not here: clients, the fault proxy, lab reporting.
 */
#include "harness/zk/zkserver.h"
#include "base/mono.h"
#include "base/testhook.h"
#include "base/wb.h"
#include "harness/proc.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ZK_JAR		"/usr/share/java/zookeeper.jar"
#define SLF4J_LOG4J_JAR "/usr/share/java/slf4j-log4j12.jar"
#define LOG4J_JAR	"/usr/share/java/log4j-1.2.jar"
#define STOP_GRACE_MS	5000

struct zkserver {
	char *run_dir;	      /* where pids are recorded (borrowed path copied) */
	char *dir;	      /* <run_dir>/<name>: zoo.cfg, data/, logs */
	char *log_path;	      /* <dir>/zookeeper.log */
	int tick_ms;	      /* tickTime */
	int min_session_ms;   /* minSessionTimeout */
	int max_session_ms;   /* maxSessionTimeout */
	int start_timeout;    /* ms to wait for 'imok' */
	int myid;	      /* 0 standalone, else ensemble member id */
	int port;	      /* client port */
	int quorum_port;      /* peer port (myid > 0) */
	int election_port;    /* leader election port (myid > 0) */
	char connect[32];     /* "127.0.0.1:<port>" */
	char *quorum_line;    /* "server.N=..." or "" */
	char *extra_cfg;      /* appended to zoo.cfg, or NULL */
	pid_t pid;	      /* running JVM, 0 if none */
	int start_ms;	      /* last successful start, spawn to serving */
	long long spawned_at; /* CLOCK_MONOTONIC ms of the last spawn */
	size_t log_off;	      /* zookeeper.log size at the last spawn */
	char *cds_tmp;	      /* this JVM writes the class archive here at exit */
	char *cds_final;      /* ... to be renamed to this, or NULL */
	int hosted;	      /* runs in a shared JVM (zkhost): pid is not ours to end */
	char err[1024];	      /* last error message */
};

static void set_err(struct zkserver *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_err(struct zkserver *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof s->err, fmt, ap);
	va_end(ap);
}

/* 127.0.0.1:port as a socket address (port 0: any free one). */
static struct sockaddr_in loopback(int port)
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
		struct sockaddr_in c = loopback(cand);
		int ok = bind(pfd, (struct sockaddr *)&c, sizeof c) == 0;
		close(pfd);
		if (ok)
			return cand;
	}
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return WB_EIO;
	struct sockaddr_in a = loopback(0);
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

/* The java binary to run: $JAVA, else `java` in PATH.  Returns 0 with *out
 * (caller frees) or WB_EUNAVAIL with *why. */
static int find_java(char **out, char **why)
{
	const char *env = getenv("JAVA");
	if (env && *env) {
		if (access(env, X_OK) == 0) {
			*out = wb_xstrdup(env);
			return 0;
		}
		*why = wb_xasprintf("JAVA=%s is not an executable file: unset JAVA or point it at "
				    "a java binary (Debian package default-jre-headless)",
				    env);
		return WB_EUNAVAIL;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	char *copy = wb_xstrdup(path), *save = NULL;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *cand = wb_xasprintf("%s/java", *d ? d : ".");
		struct stat st;
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
			free(copy);
			*out = cand;
			return 0;
		}
		free(cand);
	}
	free(copy);
	*why = wb_xstrdup("java not found in PATH: the ZooKeeper server needs a Java runtime; "
			  "install the Debian package default-jre-headless "
			  "(sudo apt-get install default-jre-headless) or set JAVA");
	return WB_EUNAVAIL;
}

/* The class path after the config directory: $ZOOKEEPER_CLASSPATH, else
 * the Debian jars.  Returns 0 with *out or WB_EUNAVAIL with *why. */
static int find_classpath(char **out, char **why)
{
	const char *env = getenv("ZOOKEEPER_CLASSPATH");
	if (env && *env) {
		/* At least one entry must exist, or java fails later with a
		 * "could not find main class" that names no package. */
		int found = 0;
		char *copy = wb_xstrdup(env), *save = NULL;
		for (char *e = strtok_r(copy, ":", &save); e && !found;
		     e = strtok_r(NULL, ":", &save))
			found = access(e, R_OK) == 0;
		free(copy);
		if (!found) {
			*why = wb_xasprintf(
				"ZOOKEEPER_CLASSPATH=%s names no readable jar or directory: "
				"unset it to use the Debian package zookeeper "
				"(sudo apt-get install zookeeper)",
				env);
			return WB_EUNAVAIL;
		}
		*out = wb_xstrdup(env);
		return 0;
	}
	if (access(ZK_JAR, R_OK) != 0) {
		*why = wb_xstrdup("ZooKeeper server jars not found (" ZK_JAR
				  "): install the Debian "
				  "package zookeeper (sudo apt-get install zookeeper) or set "
				  "ZOOKEEPER_CLASSPATH");
		return WB_EUNAVAIL;
	}
	struct wb_buf b = {0};
	wb_buf_puts(&b, ZK_JAR);
	/* Without a binding slf4j prints one warning and logs nothing. */
	if (access(SLF4J_LOG4J_JAR, R_OK) == 0 && access(LOG4J_JAR, R_OK) == 0)
		wb_buf_puts(&b, ":" SLF4J_LOG4J_JAR ":" LOG4J_JAR);
	*out = wb_buf_steal(&b);
	return 0;
}

int zkserver_check_runtime(char **why)
{
	char *java = NULL, *cp = NULL;
	*why = NULL;
	int rc = find_java(&java, why);
	if (!rc)
		rc = find_classpath(&cp, why);
	free(java);
	free(cp);
	return rc;
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

static int write_config(struct zkserver *s)
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

/* The cache entries this file makes: "<prefix><hash><suffix>", and their
 * parts "<entry>.<pid>.<tag>.tmp" (an archive being written) and
 * "<entry>.build-XXXXXX" (a directory: the launcher being built). */
static const struct {
	const char *prefix, *suffix;
} cache_kinds[] = {{"zookeeper-cds-", ".jsa"}, {"multipeer-", ".jar"}};

enum { CACHE_UNUSED_DAYS = 30, CACHE_PART_HOURS = 24 };

/* Marks a cache entry used now: its access time, never its modification
 * time, which build_key hashes for the jar on an archive's class path (a
 * new mtime would name a new archive on every use). */
static void cache_touch(const char *path)
{
	struct timespec t[2] = {{.tv_nsec = UTIME_NOW}, {.tv_nsec = UTIME_OMIT}};
	(void)utimensat(AT_FDCWD, path, t, 0);
}

/* Whether name is one of cache_kinds' entries (*part = 0) or a part of
 * one (*part = 1). */
static int cache_name(const char *name, int *part)
{
	for (size_t i = 0; i < WB_ARRAY_LEN(cache_kinds); i++) {
		size_t pl = strlen(cache_kinds[i].prefix), sl = strlen(cache_kinds[i].suffix);
		if (strncmp(name, cache_kinds[i].prefix, pl) != 0)
			continue;
		const char *end = strstr(name + pl, cache_kinds[i].suffix);
		if (!end)
			continue;
		*part = end[sl] != '\0';
		return !*part || !strncmp(end + sl, ".build-", 7) ||
		       (strlen(end + sl) > 4 && !strcmp(end + strlen(end) - 4, ".tmp"));
	}
	return 0;
}

/* Removes from dir our entries unused for CACHE_UNUSED_DAYS and our
 * parts older than CACHE_PART_HOURS (see the design notes), once per
 * process and directory: a server start looks at the cache once or
 * twice, a test process starts dozens, and the ages are in days.  Errors
 * are ignored: another workbench may prune at the same time. */
static void cache_prune(const char *dir)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	static char *pruned; /* the directory this process pruned last */
	pthread_mutex_lock(&mu);
	int again = pruned && !strcmp(pruned, dir);
	if (!again) {
		free(pruned);
		pruned = wb_xstrdup(dir);
	}
	pthread_mutex_unlock(&mu);
	if (again)
		return;
	DIR *d = opendir(dir);
	if (!d)
		return;
	time_t now = time(NULL);
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		int part = 0;
		if (!cache_name(de->d_name, &part))
			continue;
		char *path = wb_xasprintf("%s/%s", dir, de->d_name);
		struct stat st;
		/* an entry's last use is its access time, a part's its writing */
		long long age = lstat(path, &st) != 0 ? -1
				: part		      ? (long long)(now - st.st_mtime)
						      : (long long)(now - st.st_atime);
		long long limit = part ? CACHE_PART_HOURS * 3600LL : CACHE_UNUSED_DAYS * 86400LL;
		if (age > limit) {
			if (S_ISDIR(st.st_mode))
				rundir_remove(path);
			else
				(void)unlink(path);
		}
		free(path);
	}
	closedir(d);
}

/* The workbench's cache directory, $XDG_CACHE_HOME/workbench, else
 * $HOME/.cache/workbench, made 0700 when missing and pruned
 * (cache_prune).  NULL when there is none and it cannot be made.  Caller
 * frees. */
static char *cache_dir(void)
{
	/* XDG: a relative $XDG_CACHE_HOME is invalid and ignored. */
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *dir = xdg && xdg[0] == '/'     ? wb_xasprintf("%s/workbench", xdg)
		    : home && home[0] == '/' ? wb_xasprintf("%s/.cache/workbench", home)
					     : NULL;
	if (dir && wb_mkdir_p(dir, 0700) != 0) {
		free(dir);
		dir = NULL;
	}
	if (dir)
		cache_prune(dir);
	return dir;
}

/* FNV-1a of java, the class path, each class path entry's size and time
 * and extra (may be NULL): what a cached file built from them depends on. */
static uint32_t build_key(const char *java, const char *cp, const char *extra)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	struct wb_buf key = {0};
	wb_buf_printf(&key, "%s|%s", java, cp);
	char *copy = wb_xstrdup(cp), *save = NULL;
	for (char *e = strtok_r(copy, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		struct stat st;
		if (stat(e, &st) == 0)
			wb_buf_printf(&key, "|%lld.%lld", (long long)st.st_size,
				      (long long)st.st_mtime);
	}
	free(copy);
	if (extra)
		wb_buf_printf(&key, "|%s", extra);
	for (size_t i = 0; i < key.len; i++)
		h = (h ^ (unsigned char)key.data[i]) * 16777619u;
	wb_buf_free(&key);
	return h;
}

/* The class-data-sharing archive of the server's classes for this java
 * and these jars (their paths, sizes and times in the name's hash, so an
 * upgrade makes a new one), in cache_dir().  NULL when there is no cache
 * directory.  Caller frees. */
static char *cds_archive(const char *java, const char *cp)
{
	char *dir = cache_dir();
	if (!dir)
		return NULL;
	char *path =
		wb_xasprintf("%s/zookeeper-cds-%08x.jsa", dir, (unsigned)build_key(java, cp, NULL));
	free(dir);
	return path;
}

/* After the JVM that was to write the archive has ended: keep puts what
 * it wrote in place (it ended normally: SIGTERM, the JVM's exit writes
 * it), else the part is removed.  Nothing when no archive was written. */
static void cds_settle_paths(char **tmp, char **fin, int keep)
{
	if (!*tmp)
		return;
	if (!keep || access(*tmp, R_OK) != 0 || rename(*tmp, *fin) != 0)
		unlink(*tmp);
	free(*tmp);
	free(*fin);
	*tmp = *fin = NULL;
}

static void cds_settle(struct zkserver *s, int keep)
{
	cds_settle_paths(&s->cds_tmp, &s->cds_final, keep);
}

/* The JVM option that uses the archive, or that writes it at exit when
 * there is none yet (*tmp and *fin set; see cds_settle).  tag tells
 * JVMs apart that may all write at once.  NULL: no archive (no cache
 * directory).  Caller frees. */
static char *cds_option_for(char **tmp, char **fin, int tag, const char *java, const char *cp)
{
	char *path = cds_archive(java, cp);
	if (!path)
		return NULL;
	if (access(path, R_OK) == 0) {
		cache_touch(path);
		char *opt = wb_xasprintf("-XX:SharedArchiveFile=%s", path);
		free(path);
		return opt;
	}
	*tmp = wb_xasprintf("%s.%d.%d.tmp", path, (int)getpid(), tag);
	*fin = path;
	return wb_xasprintf("-XX:ArchiveClassesAtExit=%s", *tmp);
}

static char *cds_option(struct zkserver *s, const char *java, const char *cp)
{
	cds_settle(s, 0);
	return cds_option_for(&s->cds_tmp, &s->cds_final, s->port, java, cp);
}

/* The JVM options every server JVM gets (java, the speed settings, the
 * class archive option cds when non-NULL) into argv; returns how many.
 * argv must have room for JVM_ARGV_MAX entries with what the caller adds. */
enum { JVM_ARGV_MAX = 40, JVM_ENV_MAX = 4 };
static size_t jvm_argv(char **argv, char *java, char *cds)
{
	static const char *const opts[] = {
		"-Xms32m",
		"-Xmx256m",
		"-XX:+UseSerialGC",
		"-XX:TieredStopAtLevel=1",
		"-XX:-UsePerfData",
		"-Xshare:auto", /* a stale or foreign archive is ignored */
		"-Djava.awt.headless=true",
		"-Djava.net.preferIPv4Stack=true",
		"-Dzookeeper.admin.enableServer=false",
		"-Dzookeeper.jmx.log4j.disable=true",
		"-Dzookeeper.preAllocSize=4096",
	};
	size_t n = 0;
	argv[n++] = java;
	for (size_t i = 0; i < WB_ARRAY_LEN(opts); i++)
		argv[n++] = (char *)opts[i];
	if (cds)
		argv[n++] = cds;
	return n;
}

/* The JVM's whole environment: PATH, HOME=home, LANG.  Freed with
 * jvm_env_free. */
static void jvm_env(char **envp, const char *home)
{
	const char *path = getenv("PATH");
	envp[0] = wb_xasprintf("PATH=%s", path && *path ? path : "/usr/bin:/bin");
	envp[1] = wb_xasprintf("HOME=%s", home);
	envp[2] = wb_xstrdup("LANG=C.UTF-8");
	envp[3] = NULL;
}

static void jvm_env_free(char **envp)
{
	for (int i = 0; envp[i]; i++)
		free(envp[i]);
}

/* Spawns the JVM.  Returns 0 or a WB_E* code with s->err set. */
static int spawn(struct zkserver *s)
{
	char *java = NULL, *cp = NULL, *why = NULL;
	int rc = find_java(&java, &why);
	if (!rc)
		rc = find_classpath(&cp, &why);
	if (rc) {
		set_err(s, "%s", why);
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
	char *cds = custom ? NULL : cds_option(s, java, cp);
	char *classpath = custom ? wb_xasprintf("%s:%s", s->dir, cp) : wb_xstrdup(cp);
	char *log4j = wb_xasprintf("-Dlog4j.configuration=file:%s/log4j.properties", s->dir);
	char *logdir = wb_xasprintf("-Dzookeeper.log.dir=%s", s->dir);
	char *cfg = wb_xasprintf("%s/zoo.cfg", s->dir);
	char *argv[JVM_ARGV_MAX];
	size_t n = jvm_argv(argv, java, cds);
	argv[n++] = log4j;
	argv[n++] = logdir;
	argv[n++] = "-cp";
	argv[n++] = classpath;
	argv[n++] = "org.apache.zookeeper.server.quorum.QuorumPeerMain";
	argv[n++] = cfg;
	argv[n] = NULL;
	char *envp[JVM_ENV_MAX];
	jvm_env(envp, s->dir);
	char *out_log = wb_xasprintf("%s/stdout.log", s->dir);
	pid_t pid = 0;
	rc = proc_spawn(s->run_dir, argv, envp, out_log, &pid);
	if (rc == WB_EUNAVAIL)
		set_err(s, "cannot run %s: not found (install default-jre-headless)", java);
	else if (rc && pid > 0)
		set_err(s, "cannot record the server pid in %s/pids", s->run_dir);
	else if (rc)
		set_err(s, "cannot start %s: %s", java, strerror(errno));
	if (pid > 0)
		s->pid = pid; /* even if recording failed: we must stop it */
	free(out_log);
	jvm_env_free(envp);
	free(cfg);
	free(logdir);
	free(log4j);
	free(classpath);
	free(cds);
	free(cp);
	free(java);
	return rc;
}

/* The last n bytes of a file, for error messages.  Caller frees. */
static char *file_tail(const char *path, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	if (wb_read_file(path, &text, &len) != 0)
		return wb_xstrdup("");
	char *tail = wb_xstrdup(len > n ? text + len - n : text);
	free(text);
	return tail;
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
		set_err(s, "the server in %s is already running (pid %d)", s->dir, (int)s->pid);
		return WB_EINVAL;
	}
	int rc = write_config(s);
	if (rc) {
		set_err(s, "cannot write zoo.cfg or log4j.properties in %s", s->dir);
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
	char *tail = file_tail(s->log_path, 600);
	if (!*tail) {
		free(tail);
		char *out = s->hosted ? wb_xasprintf("%s/zkhost/stdout.log", s->run_dir)
				      : wb_xasprintf("%s/stdout.log", s->dir);
		tail = file_tail(out, 600);
		free(out);
	}
	set_err(s, "the ZooKeeper server exited during start-up (%s %d); see %s: %s",
		WIFEXITED(status) ? "status" : "signal",
		WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), s->log_path, tail);
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
			set_err(s, "the server in %s is not running", s->dir);
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
			set_err(s,
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
		set_err(s,
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
			set_err(s,
				"ensemble member %d: a reserved port on 127.0.0.1 was taken "
				"before the server bound it; see %s",
				s->myid, s->log_path);
			return WB_EIO;
		}
		if (reserve_ports(s) != 0)
			break;
	}
	if (rc == WB_EBUSY) {
		set_err(s, "the ZooKeeper server could not bind a free port three times; see %s",
			s->log_path);
		rc = WB_EIO;
	}
	/* The taken-port hook must have taken effect, or a test of the
	 * retry would pass without exercising it. */
	const char *taken = testhook_zk_taken_port();
	if (rc == 0 && taken && *taken && s->myid == 0 && !busy) {
		set_err(s, "test hook: port %s was not in use, nothing was retried", taken);
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
	int rc = proc_stop(pid, STOP_GRACE_MS);
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

/* ---- members in one shared JVM (zkhost, zkserver.h) ---- */

struct zkhost {
	char *dir;	/* <run_dir>/zkhost: its stdout.log, other.log, ctl */
	char *ctl_path; /* the control FIFO */
	int ctl;	/* our end of it (read-write, so the JVM's open never blocks) */
	pid_t pid;	/* the JVM, 0 once ended */
	int n;		/* members */
	struct zkserver *m[ZKHOST_MAX]; /* borrowed, position k is m[k - 1] */
	char *cds_tmp, *cds_final;	/* the class archive this JVM writes at exit */
};

/* Runs java with argv to its end (javac or jar) from this thread, output
 * to log.  0 when it exited with status 0, else WB_EIO. */
static int run_tool(const char *run_dir, char *const argv[], const char *home, const char *log)
{
	char *envp[JVM_ENV_MAX];
	jvm_env(envp, home);
	pid_t pid = 0;
	int rc = proc_spawn(run_dir, argv, envp, log, &pid);
	jvm_env_free(envp);
	if (pid <= 0)
		return WB_EIO;
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return !rc && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : WB_EIO;
}

/* Whether the len bytes at p hold the string needle (memmem is a GNU
 * extension). */
static int has_bytes(const char *p, size_t len, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; k <= len && i <= len - k; i++)
		if (p[i] == needle[0] && !memcmp(p + i, needle, k))
			return 1;
	return 0;
}

/* Whether path looks like the launcher's jar: a zip file holding its
 * classes.  A torn or foreign file is rebuilt, never run. */
static int launcher_jar_ok(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	if (wb_read_file(path, &text, &len) != 0)
		return 0;
	static const char *const names[] = {"MultiPeer.class", "MultiPeer$Member.class",
					    "MultiPeer$MemberAppender.class",
					    "MultiPeer$CommitWaker.class"};
	int ok = len > 22 && !memcmp(text, "PK\003\004", 4);
	for (size_t i = 0; ok && i < WB_ARRAY_LEN(names); i++)
		ok = has_bytes(text, len, names[i]);
	free(text);
	return ok;
}

/* The launcher compiled from src into a jar in cache_dir(), named by a
 * hash of java, class path and source: built here (javac and jar from
 * the runtime's own modules) when missing or broken.  0 with *jar
 * (caller frees), or WB_EUNAVAIL with *why. */
static int launcher_jar(const char *run_dir, const char *java, const char *cp, const char *src,
			char **jar, char **why)
{
	char *text = NULL, *dir = NULL, *tmp = NULL, *log = NULL;
	size_t len = 0;
	int rc = WB_EUNAVAIL;
	*jar = NULL;
	if (wb_read_file(src, &text, &len) != 0) {
		*why = wb_xasprintf("cannot read the shared-JVM launcher %s", src);
		goto out;
	}
	dir = cache_dir();
	if (!dir) {
		*why = wb_xstrdup("no cache directory for the shared-JVM launcher "
				  "($XDG_CACHE_HOME/workbench or $HOME/.cache/workbench "
				  "cannot be made)");
		goto out;
	}
	char *path =
		wb_xasprintf("%s/multipeer-%08x.jar", dir, (unsigned)build_key(java, cp, text));
	if (launcher_jar_ok(path)) {
		cache_touch(path);
		*jar = path;
		rc = 0;
		goto out;
	}
	tmp = wb_xasprintf("%s.build-XXXXXX", path);
	if (!mkdtemp(tmp)) {
		*why = wb_xasprintf("cannot make %s: %s", tmp, strerror(errno));
		free(path);
		goto out;
	}
	log = wb_xasprintf("%s/build.log", run_dir);
	char *classes = wb_xasprintf("%s/classes", tmp), *built = wb_xasprintf("%s/l.jar", tmp);
	char *javac[] = {(char *)java,
			 "-XX:TieredStopAtLevel=1",
			 "-XX:+UseSerialGC",
			 "-m",
			 "jdk.compiler/com.sun.tools.javac.Main",
			 "-nowarn",
			 "-cp",
			 (char *)cp,
			 "-d",
			 classes,
			 (char *)src,
			 NULL};
	char *jartool[] = {(char *)java,
			   "-XX:TieredStopAtLevel=1",
			   "-XX:+UseSerialGC",
			   "-m",
			   "jdk.jartool/sun.tools.jar.Main",
			   "cf",
			   built,
			   "-C",
			   classes,
			   ".",
			   NULL};
	if (run_tool(run_dir, javac, tmp, log) == 0 && run_tool(run_dir, jartool, tmp, log) == 0 &&
	    launcher_jar_ok(built) && rename(built, path) == 0) {
		*jar = path;
		path = NULL;
		rc = 0;
	} else {
		char *tail = file_tail(log, 300);
		for (char *c = tail; *c; c++) /* one line, no terminal controls */
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = ' ';
		for (size_t k = strlen(tail); k > 0 && tail[k - 1] == ' '; k--)
			tail[k - 1] = '\0';
		*why = wb_xasprintf("the shared-JVM launcher %s could not be compiled (%s)", src,
				    *tail ? tail : "see the runtime's javac and jar modules");
		free(tail);
	}
	rundir_remove(tmp);
	free(classes);
	free(built);
	free(path);
out:
	free(log);
	free(tmp);
	free(dir);
	free(text);
	return rc;
}

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
		if (write_config(m[i]) != 0) {
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
	char *other = NULL, *out_log = NULL, *envp[JVM_ENV_MAX] = {NULL};
	int rc = find_java(&java, why);
	if (!rc)
		rc = find_classpath(&cp, why);
	if (!rc)
		rc = launcher_jar(run_dir, java, cp, src, &jar, why);
	if (!rc)
		rc = host_members(h, m, n, why);
	if (!rc)
		rc = host_files(h, run_dir, why);
	if (rc)
		goto out;
	const char *env_cp = getenv("ZOOKEEPER_CLASSPATH");
	classpath = wb_xasprintf("%s:%s", jar, cp);
	if (!(env_cp && *env_cp))
		cds = cds_option_for(&h->cds_tmp, &h->cds_final, 0, java, classpath);
	other = wb_xasprintf("%s/other.log", h->dir);
	out_log = wb_xasprintf("%s/stdout.log", h->dir);
	char *argv[JVM_ARGV_MAX + ZKHOST_MAX];
	size_t k = jvm_argv(argv, java, cds);
	argv[k++] = "-cp";
	argv[k++] = classpath;
	argv[k++] = "MultiPeer";
	argv[k++] = other;
	argv[k++] = h->ctl_path;
	for (int i = 0; i < n; i++)
		argv[k++] = m[i]->dir;
	argv[k] = NULL;
	jvm_env(envp, h->dir);
	rc = proc_spawn(run_dir, argv, envp, out_log, &h->pid);
	if (rc)
		*why = wb_xasprintf("cannot start %s for the shared JVM", java);
	for (int i = 0; i < n && h->pid > 0; i++)
		host_attach(h, m[i]);
out:
	jvm_env_free(envp);
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
	struct sockaddr_in a = loopback(port);
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
	long long deadline = mono_now_ms() + STOP_GRACE_MS;
	struct timespec step = {0, 10 * 1000 * 1000};
	while (port_open(s->port)) {
		if (mono_now_ms() >= deadline) {
			set_err(s, "member in %s did not stop within %d ms", s->dir, STOP_GRACE_MS);
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
		cds_settle_paths(&h->cds_tmp, &h->cds_final, proc_stop(h->pid, STOP_GRACE_MS) == 0);
	} else if (h->pid > 0) {
		proc_kill(h->pid);
	}
	cds_settle_paths(&h->cds_tmp, &h->cds_final, 0);
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
