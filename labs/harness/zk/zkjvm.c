/*
 * zkjvm.c - the JVM under the harness's ZooKeeper servers (see zkjvm.h):
 * java and class path discovery, each JVM's command line and
 * environment, the class-data-sharing cache, and the shared-JVM
 * launcher's jar.
 *
 * Design notes:
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
 *    are left alone.  The JVMs run and map what is in the cache, so it is
 *    trusted only as the run base is (harness/proc.h): the folder must
 *    pass private_dir_check, and each file is opened with O_NOFOLLOW and
 *    checked on its descriptor (private_open) before a JVM is given its
 *    path; anything else is refused with what to do, never repaired.
 *  - Invariants: a cache entry is complete when it has its final name
 *    (parts are written under a temporary name, then made 0600 and
 *    renamed); an entry's access time is its last use, its modification
 *    time part of what names the archives built on it (cache_touch never
 *    sets it).
 *
 * Not here: a server's config, ports, readiness and lifecycle
 * (zkserver.c), the shared JVM's members (zkhost.c).
 */
#include "harness/zk/zkjvm.h"
#include "base/wb.h"
#include "harness/proc.h"
#include "harness/zk/zkserver.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ZK_JAR		"/usr/share/java/zookeeper.jar"
#define SLF4J_LOG4J_JAR "/usr/share/java/slf4j-log4j12.jar"
#define LOG4J_JAR	"/usr/share/java/log4j-1.2.jar"

/* The java binary to run: $JAVA, else `java` in PATH.  Returns 0 with *out
 * (caller frees) or WB_EUNAVAIL with *why. */
int zkjvm_find_java(char **out, char **why)
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
int zkjvm_find_classpath(char **out, char **why)
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
	int rc = zkjvm_find_java(&java, why);
	if (!rc)
		rc = zkjvm_find_classpath(&cp, why);
	free(java);
	free(cp);
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
	(void)utimensat(AT_FDCWD, path, t, AT_SYMLINK_NOFOLLOW);
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

/* What a refused cache folder or file is told to do (private_dir_check,
 * private_open). */
#define CACHE_DIR_REMEDY  "remove it or set XDG_CACHE_HOME to a folder of yours"
#define CACHE_FILE_REMEDY "remove it (the workbench makes it again)"

/* The workbench's cache directory, $XDG_CACHE_HOME/workbench, else
 * $HOME/.cache/workbench, made 0700 when missing and pruned (cache_prune),
 * into *out (caller frees).  The JVMs run and map what is in it, so it
 * must pass private_dir_check, as the run base does (review r3 N2: a
 * folder another user made, or can write, would run their code as us).
 * Returns 0; WB_ENOENT when there is none and it cannot be made (*out
 * NULL); WB_EINVAL when it exists but is not private, with the reason and
 * what to do in *why (caller frees). */
static int cache_dir(char **out, char **why)
{
	/* XDG: a relative $XDG_CACHE_HOME is invalid and ignored. */
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *dir = xdg && xdg[0] == '/'     ? wb_xasprintf("%s/workbench", xdg)
		    : home && home[0] == '/' ? wb_xasprintf("%s/.cache/workbench", home)
					     : NULL;
	*out = NULL;
	*why = NULL;
	if (!dir)
		return WB_ENOENT;
	(void)wb_mkdir_p(dir, 0700); /* an existing one is checked, never changed */
	char msg[1024];
	int rc = private_dir_check(dir, CACHE_DIR_REMEDY, msg, sizeof msg);
	if (rc == WB_EIO) {
		free(dir);
		return WB_ENOENT;
	}
	if (rc) {
		*why = wb_xasprintf("the cache folder: %s", msg);
		free(dir);
		return WB_EINVAL;
	}
	cache_prune(dir);
	*out = dir;
	return 0;
}

/* Whether the cache file path may be used: 0 when it is a private
 * regular file of ours (private_open), WB_ENOENT when there is none, else
 * WB_EINVAL with *why (caller frees): it is never used then. */
static int cache_file_ok(const char *path, char **why)
{
	char msg[1024];
	int fd = private_open(path, CACHE_FILE_REMEDY, msg, sizeof msg);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (fd == WB_ENOENT)
		return WB_ENOENT;
	*why = wb_xasprintf("the cache file: %s", msg);
	return WB_EINVAL;
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
 * upgrade makes a new one), in cache_dir(), into *path (NULL when there
 * is no cache directory; caller frees).  0, or WB_EINVAL with *why (the
 * cache folder is refused). */
static int cds_archive(const char *java, const char *cp, char **path, char **why)
{
	char *dir = NULL;
	*path = NULL;
	int rc = cache_dir(&dir, why);
	if (rc == WB_ENOENT)
		return 0;
	if (rc)
		return rc;
	*path = wb_xasprintf("%s/zookeeper-cds-%08x.jsa", dir, (unsigned)build_key(java, cp, NULL));
	free(dir);
	return 0;
}

/* After the JVM that was to write the archive has ended: keep puts what
 * it wrote in place (it ended normally: SIGTERM, the JVM's exit writes
 * it), else the part is removed.  Nothing when no archive was written. */
void zkjvm_cds_settle(char **tmp, char **fin, int keep)
{
	if (!*tmp)
		return;
	/* Ours, in our private cache folder: 0600 whatever the umask, so the
	 * next use accepts it (cache_file_ok). */
	if (!keep || chmod(*tmp, 0600) != 0 || rename(*tmp, *fin) != 0)
		unlink(*tmp);
	free(*tmp);
	free(*fin);
	*tmp = *fin = NULL;
}

/* The JVM option that uses the archive, or that writes it at exit when
 * there is none yet (*tmp and *fin set; see cds_settle), into *opt
 * (caller frees; NULL: no archive, there is no cache directory).  tag
 * tells JVMs apart that may all write at once.  0, or WB_EINVAL with *why
 * (caller frees) when the cache folder or the archive in it is refused
 * (cache_dir, cache_file_ok): no JVM may map it. */
int zkjvm_cds_option(char **opt, char **tmp, char **fin, int tag, const char *java, const char *cp,
		     char **why)
{
	char *path = NULL;
	*opt = NULL;
	int rc = cds_archive(java, cp, &path, why);
	if (rc || !path)
		return rc;
	rc = cache_file_ok(path, why);
	if (rc == 0) {
		cache_touch(path);
		*opt = wb_xasprintf("-XX:SharedArchiveFile=%s", path);
		free(path);
		return 0;
	}
	if (rc != WB_ENOENT) {
		free(path);
		return rc;
	}
	*tmp = wb_xasprintf("%s.%d.%d.tmp", path, (int)getpid(), tag);
	*fin = path;
	*opt = wb_xasprintf("-XX:ArchiveClassesAtExit=%s", *tmp);
	return 0;
}

/* The JVM options every server JVM gets (java, the speed settings, the
 * class archive option cds when non-NULL) into argv; returns how many.
 * argv must have room for ZKJVM_ARGV_MAX entries with what the caller adds. */
size_t zkjvm_argv(char **argv, char *java, char *cds)
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
 * zkjvm_env_free. */
void zkjvm_env(char **envp, const char *home)
{
	const char *path = getenv("PATH");
	envp[0] = wb_xasprintf("PATH=%s", path && *path ? path : "/usr/bin:/bin");
	envp[1] = wb_xasprintf("HOME=%s", home);
	envp[2] = wb_xstrdup("LANG=C.UTF-8");
	envp[3] = NULL;
}

void zkjvm_env_free(char **envp)
{
	for (int i = 0; envp[i]; i++)
		free(envp[i]);
}

/* The last n bytes of a file, for error messages.  Caller frees. */
char *zkjvm_file_tail(const char *path, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	if (wb_read_file(path, &text, &len) != 0)
		return wb_xstrdup("");
	char *tail = wb_xstrdup(len > n ? text + len - n : text);
	free(text);
	return tail;
}

/* Runs java with argv to its end (javac or jar) from this thread, output
 * to log.  0 when it exited with status 0, else WB_EIO. */
static int run_tool(const char *run_dir, char *const argv[], const char *home, const char *log)
{
	char *envp[ZKJVM_ENV_MAX];
	zkjvm_env(envp, home);
	pid_t pid = 0;
	int rc = proc_spawn(run_dir, argv, envp, log, &pid);
	zkjvm_env_free(envp);
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

/* Whether path is the launcher's jar: a private regular file of ours
 * (private_open: opened without following a symlink, checked on the
 * opened descriptor) that is a zip file holding its classes.  1 when it
 * is; 0 when it is missing, torn or foreign in content (rebuilt, never
 * run); -1 when it is there but refused (not ours, writable by others, a
 * symlink, not a regular file), with *why (caller frees): never run. */
static int launcher_jar_ok(const char *path, char **why)
{
	char msg[1024];
	int fd = private_open(path, CACHE_FILE_REMEDY, msg, sizeof msg);
	if (fd == WB_ENOENT)
		return 0;
	if (fd < 0) {
		*why = wb_xasprintf("the shared-JVM launcher: %s", msg);
		return -1;
	}
	struct wb_buf b = {0};
	char chunk[65536];
	ssize_t n;
	while (b.len < ((size_t)64 << 20) && (n = read(fd, chunk, sizeof chunk)) > 0)
		wb_buf_append(&b, chunk, (size_t)n);
	close(fd);
	static const char *const names[] = {"MultiPeer.class", "MultiPeer$Member.class",
					    "MultiPeer$MemberAppender.class",
					    "MultiPeer$CommitWaker.class"};
	int ok = b.len > 22 && !memcmp(b.data, "PK\003\004", 4);
	for (size_t i = 0; ok && i < WB_ARRAY_LEN(names); i++)
		ok = has_bytes(b.data, b.len, names[i]);
	wb_buf_free(&b);
	return ok;
}

/* The launcher compiled from src into a jar in cache_dir(), named by a
 * hash of java, class path and source: built here (javac and jar from
 * the runtime's own modules) when missing or broken.  0 with *jar
 * (caller frees), or WB_EUNAVAIL with *why. */
int zkjvm_launcher_jar(const char *run_dir, const char *java, const char *cp, const char *src,
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
	int crc = cache_dir(&dir, why);
	if (crc == WB_EINVAL) {
		rc = WB_EINVAL; /* refused: no JVM at all, not one per member */
		goto out;
	}
	if (!dir) {
		*why = wb_xstrdup("no cache directory for the shared-JVM launcher "
				  "($XDG_CACHE_HOME/workbench or $HOME/.cache/workbench "
				  "cannot be made)");
		goto out;
	}
	char *path =
		wb_xasprintf("%s/multipeer-%08x.jar", dir, (unsigned)build_key(java, cp, text));
	int have = launcher_jar_ok(path, why);
	if (have != 0) {
		if (have > 0)
			cache_touch(path);
		*jar = have > 0 ? path : NULL;
		if (have < 0)
			free(path);
		rc = have > 0 ? 0 : WB_EINVAL;
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
	char *ignored = NULL;
	if (run_tool(run_dir, javac, tmp, log) == 0 && run_tool(run_dir, jartool, tmp, log) == 0 &&
	    chmod(built, 0600) == 0 && launcher_jar_ok(built, &ignored) > 0 &&
	    rename(built, path) == 0) {
		*jar = path;
		path = NULL;
		rc = 0;
	} else {
		char *tail = zkjvm_file_tail(log, 300);
		for (char *c = tail; *c; c++) /* one line, no terminal controls */
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = ' ';
		for (size_t k = strlen(tail); k > 0 && tail[k - 1] == ' '; k--)
			tail[k - 1] = '\0';
		*why = wb_xasprintf("the shared-JVM launcher %s could not be compiled (%s)", src,
				    *tail ? tail : "see the runtime's javac and jar modules");
		free(tail);
	}
	free(ignored);
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
