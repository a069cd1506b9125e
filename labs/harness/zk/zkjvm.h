/*
 * zkjvm.h - the JVM under every ZooKeeper server of the harness: finding
 * java and the server's class path, the command line and environment each
 * server JVM gets, the class-data-sharing cache, and the shared-JVM
 * launcher's jar (built into the same cache).  Used by zkserver.c (one
 * JVM per server) and zkhost.c (one JVM for several members); nothing
 * here knows a server's config, ports or readiness.
 *
 * The cache is $XDG_CACHE_HOME/workbench, else $HOME/.cache/workbench.
 * Its contract (see zkjvm.c for the design):
 *  - a JVM is given a path in it only after the folder passed
 *    private_dir_check and the file private_open (harness/proc.h); a
 *    refused folder or file is reported with what to do (WB_EINVAL and
 *    *why), never repaired or used;
 *  - a file there is named by a hash of what it was built from, and is
 *    put in place by rename only once complete and 0600, so a reader sees
 *    a whole file or none;
 *  - our entries unused for 30 days and our parts older than a day are
 *    removed on a process's first look; other files there are left alone.
 */
#ifndef WB_ZKJVM_H
#define WB_ZKJVM_H

#include <stddef.h>

/* Room a caller gives zkjvm_argv (with what it adds after it) and
 * zkjvm_env. */
#define ZKJVM_ARGV_MAX 40
#define ZKJVM_ENV_MAX  4

/* The java binary to run: $JAVA, else `java` in PATH.  Returns 0 with
 * *out (caller frees) or WB_EUNAVAIL with *why (caller frees) naming the
 * Debian package to install. */
int zkjvm_find_java(char **out, char **why);

/* The server's class path: $ZOOKEEPER_CLASSPATH (at least one entry must
 * be readable), else the Debian jars (zookeeper, plus the slf4j-log4j12
 * binding and log4j 1.2 when installed).  Returns 0 with *out (caller
 * frees) or WB_EUNAVAIL with *why (caller frees). */
int zkjvm_find_classpath(char **out, char **why);

/* The class-data-sharing option for a JVM of java running class path cp,
 * into *opt (caller frees): -XX:SharedArchiveFile=<archive> when the
 * cache holds a usable archive for them; else -XX:ArchiveClassesAtExit
 * with *tmp (the part this JVM writes at its exit; tag, e.g. the port,
 * tells apart JVMs that may all write at once) and *fin (where
 * zkjvm_cds_settle puts it), both caller-owned.  *opt NULL: no cache
 * folder, no archive.  Returns 0, or WB_EINVAL with *why (caller frees)
 * when the cache folder or the archive in it is refused: no JVM may map
 * it. */
int zkjvm_cds_option(char **opt, char **tmp, char **fin, int tag, const char *java, const char *cp,
		     char **why);

/* After the JVM given *tmp by zkjvm_cds_option has ended: keep (it ended
 * normally, so it wrote the archive) puts the part in place as *fin
 * (0600), else the part is removed.  Frees both and sets them NULL.
 * Nothing when *tmp is NULL.  Cannot fail: an archive that cannot be put
 * in place is removed. */
void zkjvm_cds_settle(char **tmp, char **fin, int keep);

/* The options every server JVM gets (java, the lab speed settings, the
 * class archive option cds when non-NULL) into argv, borrowed; returns
 * how many.  argv must have room for ZKJVM_ARGV_MAX entries with what the
 * caller adds; the caller adds the class path, main class, arguments and
 * the closing NULL. */
size_t zkjvm_argv(char **argv, char *java, char *cds);

/* A JVM's whole environment into envp[ZKJVM_ENV_MAX]: PATH, HOME=home,
 * LANG, NULL-terminated.  Freed with zkjvm_env_free (also on a
 * zero-filled envp). */
void zkjvm_env(char **envp, const char *home);
void zkjvm_env_free(char **envp);

/* The last n bytes of the file at path, for error messages; "" when it
 * cannot be read.  Caller frees. */
char *zkjvm_file_tail(const char *path, size_t n);

/* The shared-JVM launcher compiled from src into a jar in the cache,
 * named by a hash of java, cp and the source: built (javac and jar from
 * the runtime's own modules, output in <run_dir>/build.log) when missing
 * or broken, reused otherwise.  Returns 0 with *jar (caller frees);
 * WB_EUNAVAIL with *why when the source cannot be read, there is no
 * cache folder or the build fails (a caller may run one JVM per member
 * instead); WB_EINVAL with *why when the cache folder or the jar in it is
 * refused (no JVM at all). */
int zkjvm_launcher_jar(const char *run_dir, const char *java, const char *cp, const char *src,
		       char **jar, char **why);

#endif
