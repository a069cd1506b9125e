/*
 * test_zkensemble.c - the ensemble launcher against real ZooKeeper servers:
 * three members start at once and elect exactly one leader; a write on one
 * member is read on every other after sync; stopping the leader elects
 * another one, a restarted member rejoins as a follower, and one member
 * alone does not serve.  With relayed quorum links, a follower's link to
 * the leader runs through its relay: held, the follower's zxid stays
 * behind the leader's; released, it catches up; cut, the follower connects
 * again and serves.  With relayed election links, every election
 * connection a member accepted comes from a relay (none bypasses them), and
 * holding the link between the two followers keeps them from electing a
 * successor to a stopped leader until it is released.  After free no JVM
 * of the run is left.  With shared_jvm every member runs in one JVM:
 * the same election, relayed quorum links and member stop/start, kill
 * refused; a rejected config ends it with a clear error and no orphan, and
 * a launcher that does not compile falls back to one JVM per member.
 * Also bad options and a missing java.
 */
#include "base/wb.h"
#include "harness/tcphold.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zkensemble.h"
#include "harness/zk/zkserver.h"
#include "testlib.h"
#include "testlib_zk.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WAIT_MS 60000 /* generous: three JVMs on a busy two-core machine */

static char *run_dir;

static int setup(void **state)
{
	(void)state;
	return testlib_rundir_new(&run_dir);
}

static int teardown(void **state)
{
	(void)state;
	testlib_rundir_free(run_dir);
	run_dir = NULL;
	return 0;
}

/* Live java processes whose command line mentions needle. */
static int java_processes_with(const char *needle)
{
	return testlib_processes_with("java", needle);
}

/* What a poll of the members looks for: a leader other than not_this
 * (found: its myid), or member myid at a zxid >= want. */
struct ens_wait {
	struct zkensemble *e;
	int not_this, found;
	int myid;
	int64_t want;
};

static int new_leader_found(void *arg)
{
	struct ens_wait *w = arg;
	for (int id = 1; id <= zkensemble_size(w->e); id++)
		if (id != w->not_this && zkensemble_mode(w->e, id, NULL) == ZKENS_LEADER) {
			w->found = id;
			return 1;
		}
	return 0;
}

static int zxid_reached(void *arg)
{
	struct ens_wait *w = arg;
	int64_t z = -1;
	zkensemble_mode(w->e, w->myid, &z);
	return z >= w->want;
}

/* Polls until some member other than not_this leads; returns its myid or
 * 0 after the deadline. */
static int wait_new_leader(struct zkensemble *e, int not_this, int timeout_ms)
{
	struct ens_wait w = {.e = e, .not_this = not_this};
	return testlib_wait_until(new_leader_found, &w, timeout_ms) == 0 ? w.found : 0;
}

/* Polls until member myid reports a zxid >= want; returns 0 or -1. */
static int wait_zxid(struct zkensemble *e, int myid, int64_t want, int timeout_ms)
{
	struct ens_wait w = {.e = e, .myid = myid, .want = want};
	return testlib_wait_until(zxid_reached, &w, timeout_ms) == 0 ? 0 : -1;
}

/* The leader stops (a second stop: not running), the two others elect
 * one of them, and the old leader comes back as a follower (a second
 * start: already running).  Returns the new leader. */
static int stop_leader_and_rejoin(struct zkensemble *e, int leader)
{
	assert_int_equal(zkensemble_stop_member(e, leader), 0);
	assert_int_equal(zkensemble_stop_member(e, leader), WB_ENOENT);
	assert_int_equal(zkensemble_mode(e, leader, NULL), ZKENS_DOWN);
	int second = wait_new_leader(e, leader, WAIT_MS);
	assert_true(second != 0 && second != leader);
	assert_int_equal(zkensemble_start_member(e, leader), 0);
	assert_int_equal(zkensemble_start_member(e, leader), WB_EINVAL);
	assert_int_equal(zkensemble_mode(e, leader, NULL), ZKENS_FOLLOWER);
	return second;
}

static struct zkensemble *start_ensemble(const struct zkensemble_opts *opts)
{
	struct zkensemble *e = NULL;
	char *why = NULL;
	int rc = zkensemble_new(run_dir, opts, &e, &why);
	if (rc)
		fprintf(stderr, "zkensemble_new: %s\n", why);
	free(why);
	assert_int_equal(rc, 0);
	rc = zkensemble_start(e);
	if (rc)
		fprintf(stderr, "zkensemble_start: %s\n", zkensemble_error(e));
	assert_int_equal(rc, 0);
	return e;
}

static void starts_elects_and_reelects(void **state)
{
	(void)state;
	struct zkensemble_opts opts = {.n = 3, .start_timeout_ms = WAIT_MS};
	struct zkensemble *e = start_ensemble(&opts);
	assert_int_equal(zkensemble_size(e), 3);
	int leaders = 0, followers = 0;
	for (int id = 1; id <= 3; id++) {
		enum zkensemble_mode md = zkensemble_mode(e, id, NULL);
		leaders += md == ZKENS_LEADER;
		followers += md == ZKENS_FOLLOWER;
		assert_true(zkensemble_quorum_port(e, id) > 0);
		assert_true(zkensemble_election_port(e, id) > 0);
		assert_null(zkensemble_quorum_relay(e, id, id % 3 + 1));
		assert_non_null(strstr(zkensemble_connect_all(e), zkensemble_connect(e, id)));
	}
	assert_int_equal(leaders, 1);
	assert_int_equal(followers, 2);
	int leader = zkensemble_leader(e);
	assert_true(leader >= 1 && leader <= 3);
	assert_string_equal(zkensemble_mode_name(ZKENS_NOT_SERVING), "not serving");

	/* A write through one member is seen on every member after sync. */
	struct zkc *w = NULL;
	assert_int_equal(zkc_connect(zkensemble_connect(e, leader), 10000, WAIT_MS, run_dir, &w),
			 0);
	assert_int_equal(zoo_create(zkc_handle(w), "/t", "v", 1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0),
			 ZOK);
	for (int id = 1; id <= 3; id++) {
		struct zkc *c = NULL;
		assert_int_equal(
			zkc_connect(zkensemble_connect(e, id), 10000, WAIT_MS, run_dir, &c), 0);
		char buf[8];
		int len = sizeof buf;
		struct Stat st;
		/* A plain read may be stale on a follower; the one-member
		 * client sees the write once it is its own server's. */
		int64_t z = -1;
		zkensemble_mode(e, leader, &z);
		assert_int_equal(wait_zxid(e, id, z, WAIT_MS), 0);
		assert_int_equal(zoo_get(zkc_handle(c), "/t", 0, buf, &len, &st), ZOK);
		assert_int_equal(len, 1);
		zkc_close(c);
	}
	zkc_close(w);

	/* The leader goes, the two others elect one of them, and it comes
	 * back as a follower. */
	int second = stop_leader_and_rejoin(e, leader);

	/* One member alone is no quorum: it stops serving. */
	int third = 6 - leader - second;
	assert_int_equal(zkensemble_kill_member(e, second), 0);
	assert_int_equal(zkensemble_kill_member(e, third), 0);
	enum zkensemble_mode md;
	assert_int_equal(zkensemble_wait_mode(e, leader, 1u << ZKENS_NOT_SERVING, WAIT_MS, &md), 0);
	assert_int_equal(md, ZKENS_NOT_SERVING);

	zkensemble_free(e);
	assert_int_equal(java_processes_with(run_dir), 0);
	zkensemble_free(NULL);
}

static void relayed_follower_link(void **state)
{
	(void)state;
	struct zkensemble_opts opts = {
		.n = 3, .sync_limit = 50, .relay_quorum = 1, .start_timeout_ms = WAIT_MS};
	struct zkensemble *e = start_ensemble(&opts);
	int leader = zkensemble_leader(e);
	int f = leader == 1 ? 2 : 1;
	struct tcphold *link = zkensemble_quorum_relay(e, f, leader);
	assert_non_null(link);
	assert_null(zkensemble_election_relay(e, f, leader));
	assert_int_equal(tcphold_upstream_port(link), zkensemble_quorum_port(e, leader));
	struct tcphold_stats st;
	tcphold_stats(link, &st);
	assert_int_equal(st.open, 1); /* the follower's only link to its leader */
	tcphold_stats(zkensemble_quorum_relay(e, leader, f), &st);
	assert_int_equal(st.open, 0); /* nobody follows a follower */

	/* Held: the follower's zxid stays behind the leader's writes. */
	struct zkc *w = NULL;
	assert_int_equal(zkc_connect(zkensemble_connect(e, leader), 10000, WAIT_MS, run_dir, &w),
			 0);
	assert_int_equal(tcphold_hold(link, TCPHOLD_DOWN), 0);
	struct Stat wst;
	char path[32];
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "/held%d", i);
		assert_int_equal(
			zoo_create(zkc_handle(w), path, "", 0, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0),
			ZOK);
	}
	assert_int_equal(zoo_exists(zkc_handle(w), path, 0, &wst), ZOK);
	int64_t fz = -1;
	assert_int_equal(zkensemble_mode(e, f, &fz), ZKENS_FOLLOWER);
	assert_true(fz < wst.czxid);
	tcphold_stats(link, &st);
	assert_true(st.held[1] > 0);

	/* Released: it catches up. */
	assert_true(tcphold_release(link) > 0);
	assert_int_equal(wait_zxid(e, f, wst.czxid, WAIT_MS), 0);

	/* Cut: the follower connects again through the relay and serves. */
	tcphold_stats(link, &st);
	int before = st.accepted;
	assert_int_equal(tcphold_cut(link), 1);
	assert_int_equal(tcphold_wait(link, tcphold_pred_accepted_over, &before, WAIT_MS, NULL), 0);
	enum zkensemble_mode md;
	assert_int_equal(zkensemble_wait_mode(e, f, 1u << ZKENS_FOLLOWER, WAIT_MS, &md), 0);
	zkc_close(w);
	zkensemble_free(e);
	assert_int_equal(java_processes_with(run_dir), 0);
}

/* Established TCP connections whose local port is port (accepted by the
 * listener on it), from /proc/net/tcp. */
static int established_on(int port)
{
	char *text = NULL;
	size_t len = 0;
	if (wb_read_file("/proc/net/tcp", &text, &len) != 0)
		return -1;
	int n = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned lport = 0, st = 0;
		char rem[64];
		if (sscanf(line, " %*d: %*8[0-9A-Fa-f]:%x %63s %x", &lport, rem, &st) == 3 &&
		    (int)lport == port && st == 1)
			n++;
	}
	free(text);
	return n;
}

static int held_total_over(const struct tcphold_stats *st, void *arg)
{
	return st->held_total[0] + st->held_total[1] > *(const uint64_t *)arg;
}

static void relayed_election_links(void **state)
{
	(void)state;
	struct zkensemble_opts opts = {.n = 3, .relay_election = 1, .start_timeout_ms = WAIT_MS};
	struct zkensemble *e = start_ensemble(&opts);
	/* Each pair talks over the higher member's relay only. */
	for (int i = 1; i <= 3; i++) {
		int via_relays = 0;
		for (int j = 1; j <= 3; j++) {
			if (i == j)
				continue;
			struct tcphold_stats st;
			tcphold_stats(zkensemble_election_relay(e, j, i), &st);
			if (j < i)
				assert_int_equal(st.open, 0); /* lower -> higher refuses */
			else
				via_relays += st.open;
		}
		assert_int_equal(via_relays, 3 - i);
		assert_int_equal(established_on(zkensemble_election_port(e, i)), via_relays);
	}
	assert_int_equal(zkensemble_block_election(e, 1, 1, 1), WB_EINVAL);
	assert_int_equal(zkensemble_block_election(e, 1, 4, 1), WB_EINVAL);

	/* Hold the followers' link, stop the leader: their votes pile up in
	 * the relay and neither can lead; release: they elect one. */
	int leader = zkensemble_leader(e);
	int f1 = leader == 1 ? 2 : 1, f2 = 6 - leader - f1;
	struct tcphold *carrier =
		zkensemble_election_relay(e, f1 > f2 ? f1 : f2, f1 > f2 ? f2 : f1);
	struct tcphold_stats before;
	tcphold_stats(carrier, &before);
	uint64_t seen = before.held_total[0] + before.held_total[1];
	assert_int_equal(zkensemble_block_election(e, f1, f2, 1), 0);
	assert_int_equal(zkensemble_stop_member(e, leader), 0);
	assert_int_equal(tcphold_wait(carrier, held_total_over, &seen, WAIT_MS, NULL), 0);
	assert_true(zkensemble_mode(e, f1, NULL) != ZKENS_LEADER);
	assert_true(zkensemble_mode(e, f2, NULL) != ZKENS_LEADER);
	assert_int_equal(zkensemble_block_election(e, f1, f2, 0), 0);
	int second = wait_new_leader(e, leader, WAIT_MS);
	assert_true(second == f1 || second == f2);
	struct tcphold_stats after;
	tcphold_stats(carrier, &after);
	assert_true(after.released[0] + after.released[1] > 0);
	zkensemble_free(e);
	assert_int_equal(java_processes_with(run_dir), 0);
}

/* A log file and a line to find in it, for log_has. */
struct log_want {
	const char *path, *text;
};

static int log_has(void *arg)
{
	const struct log_want *w = arg;
	char *text = NULL;
	size_t len = 0;
	int found = wb_read_file(w->path, &text, &len) == 0 && strstr(text, w->text) != NULL;
	free(text);
	return found;
}

/* Whether member id's log says that the commit-processor waker
 * (data/zk/MultiPeer.java, ZOOKEEPER-4537) found its server in role (a
 * ZooKeeperServer class name).  The waker looks every 10 ms, so the line
 * can come just after the member serves: waited for, up to WAIT_MS. */
static int waker_found(struct zkensemble *e, int id, const char *role)
{
	char *want = wb_xasprintf("commit processor of %s woken every", role);
	struct log_want w = {zkserver_log_path(zkensemble_server(e, id)), want};
	int found = testlib_wait_until(log_has, &w, WAIT_MS) == 0;
	free(want);
	return found;
}

/* Shared JVM: the three members run in one java process, elect one
 * leader, replicate through the quorum relays, stop and start a member
 * inside the JVM; kill is refused; free leaves no JVM.  Every member's
 * commit processor is woken by the launcher's waker, in each role it
 * takes (the restarted old leader as a follower too). */
static void shared_jvm(void **state)
{
	(void)state;
	struct zkensemble_opts opts = {
		.n = 3, .relay_quorum = 1, .shared_jvm = 1, .start_timeout_ms = WAIT_MS};
	struct zkensemble *e = start_ensemble(&opts);
	assert_int_equal(zkensemble_shared(e), 1);
	assert_string_equal(zkensemble_note(e), "");
	int leaders = 0, followers = 0;
	pid_t pid = zkserver_pid(zkensemble_server(e, 1));
	assert_true(pid > 0);
	for (int id = 1; id <= 3; id++) {
		enum zkensemble_mode md = zkensemble_mode(e, id, NULL);
		leaders += md == ZKENS_LEADER;
		followers += md == ZKENS_FOLLOWER;
		assert_int_equal(zkserver_pid(zkensemble_server(e, id)), pid);
	}
	assert_int_equal(leaders, 1);
	assert_int_equal(followers, 2);
	assert_int_equal(java_processes_with(run_dir), 1);
	for (int id = 1; id <= 3; id++) {
		int lead = zkensemble_mode(e, id, NULL) == ZKENS_LEADER;
		assert_true(waker_found(
			e, id, lead ? "LeaderZooKeeperServer" : "FollowerZooKeeperServer"));
	}

	/* The followers' quorum links run through their relays, and a
	 * write reaches them that way. */
	int leader = zkensemble_leader(e);
	int f = leader == 1 ? 2 : 1;
	struct tcphold_stats st;
	tcphold_stats(zkensemble_quorum_relay(e, f, leader), &st);
	assert_int_equal(st.open, 1);
	uint64_t down = st.forwarded[1];
	struct zkc *w = NULL;
	assert_int_equal(zkc_connect(zkensemble_connect(e, leader), 10000, WAIT_MS, run_dir, &w),
			 0);
	struct Stat wst;
	assert_int_equal(zoo_create(zkc_handle(w), "/s", "v", 1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0),
			 ZOK);
	assert_int_equal(zoo_exists(zkc_handle(w), "/s", 0, &wst), ZOK);
	zkc_close(w);
	assert_int_equal(wait_zxid(e, f, wst.czxid, WAIT_MS), 0);
	tcphold_stats(zkensemble_quorum_relay(e, f, leader), &st);
	assert_true(st.forwarded[1] > down);

	/* A crash of one member needs its own process. */
	assert_int_equal(zkensemble_kill_member(e, f), WB_EINVAL);
	assert_non_null(strstr(zkensemble_error(e), "shared JVM"));

	/* The same inside the JVM; the JVM stays the same. */
	(void)stop_leader_and_rejoin(e, leader);
	assert_int_equal(zkserver_pid(zkensemble_server(e, leader)), pid);
	assert_true(waker_found(e, leader, "LeaderZooKeeperServer"));
	assert_true(waker_found(e, leader, "FollowerZooKeeperServer"));
	assert_int_equal(java_processes_with(run_dir), 1);

	zkensemble_free(e);
	assert_int_equal(java_processes_with(run_dir), 0);
}

/* The names in dir, sorted, one a line (caller frees). */
static char *dir_names(const char *dir)
{
	struct dirent **list = NULL;
	int n = scandir(dir, &list, NULL, alphasort);
	assert_true(n >= 0);
	struct wb_buf b = {0};
	for (int i = 0; i < n; i++) {
		if (list[i]->d_name[0] != '.')
			wb_buf_printf(&b, "%s\n", list[i]->d_name);
		free(list[i]);
	}
	free(list);
	return wb_buf_steal(&b);
}

/* A second shared ensemble reuses what the first left in the cache: the
 * launcher's jar and its JVM's class archive, no new file (a new archive
 * name on each run means its hash saw something that changes by use). */
static void shared_jvm_reuses_its_cache(void **state)
{
	(void)state;
	char *xdg = wb_xasprintf("%s/xdg", run_dir), *dir = wb_xasprintf("%s/workbench", xdg);
	assert_int_equal(setenv("XDG_CACHE_HOME", xdg, 1), 0);
	struct zkensemble_opts opts = {.n = 3, .shared_jvm = 1, .start_timeout_ms = WAIT_MS};
	char *after[2] = {NULL, NULL};
	for (int round = 0; round < 2; round++) {
		char *rd = wb_xasprintf("%s/round-%d", run_dir, round + 1), *why = NULL;
		assert_int_equal(mkdir(rd, 0700), 0);
		struct zkensemble *e = NULL;
		int rc = zkensemble_new(rd, &opts, &e, &why);
		if (rc)
			fprintf(stderr, "zkensemble_new: %s\n", why);
		assert_int_equal(rc, 0);
		rc = zkensemble_start(e);
		if (rc)
			fprintf(stderr, "zkensemble_start: %s\n", zkensemble_error(e));
		assert_int_equal(rc, 0);
		assert_int_equal(zkensemble_shared(e), 1);
		zkensemble_free(e);
		assert_int_equal(java_processes_with(rd), 0);
		after[round] = dir_names(dir);
		free(rd);
	}
	unsetenv("XDG_CACHE_HOME");
	fprintf(stderr, "# cache after the first run:\n%s", after[0]);
	assert_non_null(strstr(after[0], "multipeer-"));
	assert_non_null(strstr(after[0], "zookeeper-cds-"));
	assert_string_equal(after[0], after[1]);
	free(after[0]);
	free(after[1]);
	free(dir);
	free(xdg);
}

/* Shared JVM failures: a member whose config the server rejects ends the
 * JVM with the reason in that member's log (a clear error, no orphan);
 * a launcher that does not compile gives one JVM per member and a note. */
static void shared_jvm_bad_config(void **state)
{
	(void)state;
	struct zkensemble *e = NULL;
	char *why = NULL;
	struct zkensemble_opts bad = {.n = 3,
				      .shared_jvm = 1,
				      .start_timeout_ms = WAIT_MS,
				      .extra_cfg = "initLimit=not-a-number\n"};
	assert_int_equal(zkensemble_new(run_dir, &bad, &e, &why), 0);
	assert_int_equal(zkensemble_start(e), WB_EIO);
	fprintf(stderr, "expected error: %.200s\n", zkensemble_error(e));
	assert_non_null(strstr(zkensemble_error(e), "exited during start-up"));
	assert_non_null(strstr(zkensemble_error(e), "not-a-number"));
	zkensemble_free(e);
	assert_int_equal(java_processes_with(run_dir), 0);
}

static void shared_jvm_no_launcher(void **state)
{
	(void)state;
	struct zkensemble *e = NULL;
	char *src = wb_xasprintf("%s/MultiPeer.java", run_dir);
	FILE *f = fopen(src, "w");
	assert_non_null(f);
	fputs("public final class MultiPeer { this is not Java }\n", f);
	fclose(f);
	struct zkensemble_opts broken = {
		.n = 3, .shared_jvm = 1, .launcher = src, .start_timeout_ms = WAIT_MS};
	e = start_ensemble(&broken);
	assert_int_equal(zkensemble_shared(e), 0);
	assert_non_null(strstr(zkensemble_note(e), "one JVM per member"));
	assert_non_null(strstr(zkensemble_note(e), "could not be compiled"));
	assert_true(zkensemble_leader(e) != 0);
	assert_int_equal(java_processes_with(run_dir), 3);
	zkensemble_free(e);
	assert_int_equal(java_processes_with(run_dir), 0);
	free(src);
}

static void bad_options_and_no_java(void **state)
{
	(void)state;
	struct zkensemble *e = NULL;
	char *why = NULL;
	struct zkensemble_opts bad = {.n = ZKENSEMBLE_MAX + 1};
	assert_int_equal(zkensemble_new(run_dir, &bad, &e, &why), WB_EINVAL);
	assert_null(e);
	assert_non_null(why);
	free(why);
	why = NULL;
	struct zkensemble_opts neg = {.tick_ms = -1};
	assert_int_equal(zkensemble_new(run_dir, &neg, &e, &why), WB_EINVAL);
	free(why);
	why = NULL;

	struct testlib_env *env = testlib_env_new();
	testlib_env_set(env, "JAVA", "/nonexistent/java");
	assert_int_equal(zkensemble_new(run_dir, NULL, &e, &why), 0);
	assert_int_equal(zkensemble_start(e), WB_EUNAVAIL);
	assert_non_null(strstr(zkensemble_error(e), "JAVA"));
	assert_int_equal(zkensemble_leader(e), 0);
	assert_int_equal(zkensemble_mode(e, 1, NULL), ZKENS_DOWN);
	assert_int_equal(zkensemble_mode(e, 7, NULL), ZKENS_DOWN);
	assert_int_equal(zkensemble_stop_member(e, 7), WB_EINVAL);
	zkensemble_free(e);
	testlib_env_free(env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(bad_options_and_no_java, setup, teardown),
		cmocka_unit_test_setup_teardown(starts_elects_and_reelects, setup, teardown),
		cmocka_unit_test_setup_teardown(relayed_follower_link, setup, teardown),
		cmocka_unit_test_setup_teardown(relayed_election_links, setup, teardown),
		cmocka_unit_test_setup_teardown(shared_jvm, setup, teardown),
		cmocka_unit_test_setup_teardown(shared_jvm_reuses_its_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(shared_jvm_bad_config, setup, teardown),
		cmocka_unit_test_setup_teardown(shared_jvm_no_launcher, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
