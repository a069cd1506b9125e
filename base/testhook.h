/*
 * testhook.h - every test seam of the workbench in one place: the
 * WORKBENCH_TEST_* environment variables a test sets so that a process
 * stops, dies or reports at a known point, instead of the test sleeping
 * and hoping.  Product code calls one of these functions at the point the
 * seam names; with the variable unset each is a getenv and nothing else.
 *
 * Every seam is off unless WORKBENCH_TEST=1 is set as well (reliability
 * review r3, N17): a stray WORKBENCH_TEST_HOLD_AFTER in a learner's shell
 * would otherwise stop every lab for good.  Each test that uses a seam
 * sets both variables.
 *
 * The seams (variable, who reads it, what it does):
 *
 *   WORKBENCH_TEST_KILL_IN_SAVE=N     core/answers.c, testhook_kill_in_save
 *       the process kills itself with SIGKILL inside the transaction of
 *       its N-th graded answer, after the INSERT and before COMMIT
 *       (tests/integration/crash_1000.sh, quiz_crash.sh).
 *   WORKBENCH_TEST_HOLD=WHAT:N,       core/answers.c, session.c,
 *   WORKBENCH_TEST_HOLD_FIFO=P        exchange.c: testhook_hold
 *       holds the N-th WHAT of the process: writes "WHAT N" to the fifo
 *       P.held, then waits for a line on the fifo P.go.  WHAT is save,
 *       undo, import or start (inside the transaction, after its writes,
 *       before COMMIT: the database stays locked meanwhile) or
 *       start-begin (after the caller looked for a running test, before
 *       the transaction) (tests/integration/quiz_two.sh,
 *       tests/unit/test_session.c); or lab-step, a named moment in the
 *       middle of a lab (labs/zk/zk-fencing.c: A's traffic is held and B
 *       waits), so a test can kill a server there
 *       (tests/integration/zk_server_death.sh).
 *   WORKBENCH_TEST_DB_SPARE_PAGES=N   workbench/core/store.c
 *       once opened, the progress database may grow by N pages on each connection
 *       (PRAGMA max_page_count); the next write then fails with
 *       SQLITE_FULL, as on a full disk (tests/cli/db_faults.sh,
 *       tests/tui/db_faults.sh, tests/unit/test_store.c).
 *   WORKBENCH_TEST_HOLD_AFTER=N       labs/harness/proc.c
 *       the process that records the N-th process of a lab run stops
 *       there for good (tests/integration/orphans.sh, security.sh).
 *   WORKBENCH_TEST_ZK_READY_DIR=D     labs/harness/zk/zkserver.c
 *       once a ZooKeeper server answers, writes "<pid>\n" to the fifo
 *       D/ready and blocks until D/go is opened and closed
 *       (tests/integration/lab_kill.sh, bad_env.sh, zk_lock_cli.sh,
 *       zk_lock_curator.sh).
 *   WORKBENCH_TEST_ZK_TAKEN_PORT=P    labs/harness/zk/zkserver.c
 *       a standalone server's first port reservation is P (a port the
 *       test holds), so the "taken between probe and bind" retry runs
 *       (tests/integration/bad_env.sh).
 *   WORKBENCH_TEST_CRASH=HOW          workbench/tui/tui.c, testhook_crash
 *       the TUI crashes when F12 is pressed: HOW is segv (raise SIGSEGV),
 *       overflow (recurse until the stack overflows: a real SIGSEGV on
 *       the guard page, where only a handler on its own stack can run),
 *       abort, fpe, ill or bus (raise that signal), so a test can check
 *       that the terminal is restored whatever kills the TUI (#20 F2;
 *       tests/tui/crash.sh).
 *   WORKBENCH_TEST_ZK_LOCK_WAITING=F  workbench/cli/zklock.c
 *       the first time `zk lock` watches a predecessor it writes
 *       "waiting <node>" to F (tests/integration/zk_lock_cli.sh,
 *       zk_lock_curator.sh).
 *   WORKBENCH_TEST_CANCEL_GRACE_MS=N  workbench/tui/lab.c
 *       the lab screen's cancel waits N ms before SIGKILL
 *       (tests/tui/lab_cancel.sh).
 *   WORKBENCH_TEST_TIMELINE_EVENTS=F  workbench/tui/timelineview.c
 *       a new timeline view starts with the events of F
 *       (tests/tui/timeline.sh).
 *
 * This file deliberately knows nothing of the modules that call it: the
 * points are named by strings, and what a seam means at its point is
 * documented here and at the call.  It is not a configuration mechanism:
 * nothing here may change what a process does when the variables are
 * unset.
 */
#ifndef WB_TESTHOOK_H
#define WB_TESTHOOK_H

/* Whether the seams are on: WORKBENCH_TEST is "1".  Every function
 * below answers NULL or does nothing when they are off.  Cannot fail. */
int testhook_enabled(void);

/* The value of WORKBENCH_TEST_HOLD_AFTER, or NULL when unset or empty.
 * Cannot fail. */
const char *testhook_hold_after(void);

/* The value of WORKBENCH_TEST_DB_SPARE_PAGES, or NULL when unset or
 * empty.  Cannot fail. */
const char *testhook_db_spare_pages(void);

/* The value of WORKBENCH_TEST_ZK_READY_DIR, or NULL when unset or
 * empty.  Cannot fail. */
const char *testhook_zk_ready_dir(void);

/* The value of WORKBENCH_TEST_ZK_TAKEN_PORT, or NULL when unset or
 * empty.  Cannot fail. */
const char *testhook_zk_taken_port(void);

/* The value of WORKBENCH_TEST_ZK_LOCK_WAITING, or NULL when unset or
 * empty.  Cannot fail. */
const char *testhook_zk_lock_waiting(void);

/* The value of WORKBENCH_TEST_CANCEL_GRACE_MS, or NULL when unset or
 * empty.  Cannot fail. */
const char *testhook_cancel_grace_ms(void);

/* The value of WORKBENCH_TEST_TIMELINE_EVENTS, or NULL when unset or
 * empty.  Cannot fail. */
const char *testhook_timeline_events(void);

/* Counts the graded answers of this process; raises SIGKILL at the N-th
 * when WORKBENCH_TEST_KILL_IN_SAVE=N.  Returns (when it returns)
 * nothing; cannot fail. */
void testhook_kill_in_save(void);

/* Counts the passes of this process through the point `what` (one of
 * "save", "start", "start-begin", "undo", "import", "lab-step"; other names are
 * ignored) and, on the pass WORKBENCH_TEST_HOLD names, holds on the
 * fifos as described above.  Cannot fail: a fifo that cannot be opened
 * skips the hold. */
void testhook_hold(const char *what);

/* Crashes the process as WORKBENCH_TEST_CRASH says (see above); returns
 * at once when it is unset or names nothing known.  Cannot fail. */
void testhook_crash(void);

/* Forgets the passes counted so far by testhook_kill_in_save and
 * testhook_hold, so a unit test that forks can name "the first start" of
 * the child whatever its parent did before.  For tests only.  Cannot
 * fail. */
void testhook_reset(void);

#endif
