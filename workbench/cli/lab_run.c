/*
 * cli/lab_run.c - `workbench lab run ID [--json] [--zk HOST:PORT,...]`.
 *
 * `lab run` is a small supervisor: it reaps leftovers of earlier runs,
 * makes a fresh run directory, and runs the lab in a forked worker (its
 * own process group, killed if the supervisor dies).  On SIGINT/SIGTERM or
 * a crash of the worker, the supervisor kills every recorded process.  The
 * run directory is removed after a pass and after a cancel (which says how
 * many processes it stopped) and kept (path printed) otherwise, so server
 * logs stay available as evidence.  Titles come from the lab
 * catalogue in the UI language.
 *
 * No lab logic here, and no event format: labs/event.h reads and writes
 * the JSON lines; the events are only stored with the run (record_run).
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/labcmd.h"
#include "core/content.h"
#include "core/store.h"
#include "base/spawn.h"
#include "base/wb.h"
#include "event.h"
#include "harness/proc.h"
#include "harness/report.h"
#include "lab.h"

#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef WB_SOURCE_DIR
#define WB_SOURCE_DIR NULL
#endif

static volatile sig_atomic_t got_signal;
static volatile sig_atomic_t worker_pid; /* the running worker, 0 if none */

/* Kills the worker's group from the handler itself (kill is
 * async-signal-safe): a signal that lands just before waitpid() is
 * entered would otherwise leave waitpid blocked until the worker ends on
 * its own. */
static void on_signal(int sig)
{
	got_signal = sig;
	if (worker_pid > 0)
		kill(-(pid_t)worker_pid, SIGKILL);
}

/* What `workbench lab run` exits with for a verdict. */
static int exit_code(enum report_verdict v)
{
	switch (v) {
	case REPORT_PASS: return LAB_EXIT_PASS;
	case REPORT_FAIL: return LAB_EXIT_FAIL;
	case REPORT_CANNOT: break;
	}
	return LAB_EXIT_CANNOT;
}

/* What the worker needs besides the lab: where, against what, how. */
struct worker_args {
	const char *run_dir;
	const char *zk;
	const char *lang;
	const char *data_dir;
	int json;
};

/* The worker: runs the lab and exits with its verdict. */
static int worker(const struct lab *lab, const struct worker_args *a)
{
	struct report *r = report_new(stdout, a->json);
	if (!r)
		return LAB_EXIT_CANNOT;
	report_set_lang(r, a->lang);
	char *events = wb_xasprintf("%s/events.jsonl", a->run_dir);
	FILE *tee = fopen(events, "w");
	free(events);
	if (tee)
		report_tee(r, tee);
	if (!a->json)
		printf("%s: %s\n", lab->id, lab_title(lab, a->lang));
	struct lab_ctx ctx = {
		.lab = lab,
		.run_dir = a->run_dir,
		.zk_connect = a->zk,
		.report = r,
		.source_dir = WB_SOURCE_DIR,
		.data_dir = a->data_dir,
	};
	enum lab_outcome how = (*lab->run)(&ctx);
	enum report_verdict verdict = report_finish(r, (enum report_end)how);
	report_free(r);
	if (tee)
		fclose(tee);
	fflush(stdout);
	return exit_code(verdict);
}

/* Stores the run (verdict, time, every event as evidence) in the
 * progress database.  A database that cannot be opened is reported and
 * does not change the lab's exit code. */
static void record_run(struct app *app, const char *id, const char *run_dir, int verdict)
{
	char *path = wb_xasprintf("%s/events.jsonl", run_dir);
	char *text = NULL;
	size_t len = 0;
	json_t *all = json_array();
	long ms = 0;
	if (wb_read_file(path, &text, &len) == 0) {
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
			struct event_line e;
			if (event_parse(line, &e) != 0)
				continue;
			if (e.kind == EVENT_VERDICT)
				ms = e.ms;
			event_clear(&e);
			json_t *o = json_loads(line, 0, NULL);
			if (o)
				json_array_append_new(all, o);
		}
	}
	free(text);
	free(path);
	char *evidence = json_dumps(all, JSON_COMPACT);
	json_decref(all);
	char err[STORE_ERRLEN];
	struct store *s;
	if (store_open(app->db_path, &s, err, sizeof err) == 0) {
		if (store_add_lab_run(s, id, verdict, ms, evidence) != 0)
			fprintf(stderr, "workbench: could not record the run: %s\n",
				store_errmsg(s));
		store_close(s);
	} else {
		fprintf(stderr, "workbench: run not recorded: %s\n", err);
	}
	free(evidence);
}

/* Finds the lab and checks --zk against it.  Returns -1 to go on, or the
 * exit code. */
static int find_lab(const char *id, const char *zk, const struct lab **out)
{
	const struct lab *lab = lab_find(id);
	if (!lab) {
		const char *near = labcmd_suggest(id);
		fprintf(stderr,
			"workbench: no lab '%s' in this build%s%s%s; see `workbench lab list`\n",
			id, near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
		return EXIT_USAGE;
	}
	char msg[512];
	if (zk && lab_check_zk(zk, msg, sizeof msg) != 0) {
		fprintf(stderr, "workbench: %s\n", msg);
		return EXIT_USAGE;
	}
	if (zk && (lab->needs & (LAB_NEEDS_PROCCTL | LAB_NEEDS_ENSEMBLE))) {
		fprintf(stderr,
			"workbench: lab %s starts, cuts or proxies its own servers; it cannot run "
			"against --zk %s\n",
			id, zk);
		return LAB_EXIT_CANNOT;
	}
	if (zk && !labcmd_takes_zk(lab)) {
		fprintf(stderr,
			"workbench: lab %s does not use ZooKeeper, so --zk %s has nothing to do; "
			"the labs marked --zk in `workbench lab list` take it\n",
			id, zk);
		return EXIT_USAGE;
	}
	*out = lab;
	return -1;
}

/* Stops what earlier runs left and makes a fresh run directory.  Returns
 * -1 to go on (*run_dir set, caller frees), or the exit code. */
static int make_run_dir(char **run_dir)
{
	int reaped = rundir_reap_leftovers();
	if (reaped > 0)
		fprintf(stderr, "workbench: stopped %d process%s left by an earlier run\n", reaped,
			reaped == 1 ? "" : "es");
	if (rundir_create(run_dir) != 0) {
		char *base = rundir_base(), why[512];
		if (rundir_base_check(base, why, sizeof why) == 0)
			snprintf(why, sizeof why, "%s", strerror(errno));
		fprintf(stderr, "workbench: cannot create a run directory under %s: %s\n", base,
			why);
		free(base);
		return LAB_EXIT_CANNOT;
	}
	return -1;
}

/* Waits for the worker; on a signal kills its group and every recorded
 * process.  Returns the wait status (SIGKILL when it was reaped
 * elsewhere). */
static int wait_worker(pid_t pid, const char *run_dir)
{
	int status = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, 0);
		if (w == pid)
			break;
		if (w < 0 && errno == EINTR) {
			if (got_signal) {
				kill(-pid, SIGKILL);
				proc_kill_all(run_dir);
			}
			continue;
		}
		/* ECHILD: proc_kill_all reaped the worker (it is recorded
		 * too).  Anything else: nothing left to wait for. */
		status = SIGKILL;
		break;
	}
	return status;
}

/* How many processes the run started (the lines of <run_dir>/pids). */
static int started_processes(const char *run_dir)
{
	char *path = wb_xasprintf("%s/pids", run_dir);
	FILE *f = fopen(path, "r");
	free(path);
	int n = 0, c;
	while (f && (c = getc(f)) != EOF)
		n += c == '\n';
	if (f)
		fclose(f);
	return n;
}

/* After a cancel, every recorded process is stopped: says how many, and
 * removes the run folder (nothing in it is evidence of a finished run). */
static void report_cancel(const char *id, const char *run_dir, int json)
{
	int n = started_processes(run_dir);
	rundir_remove(run_dir);
	if (json)
		event_write(stdout, &(struct event_line){.kind = EVENT_CANCELLED, .stopped = n});
	fprintf(stderr,
		"workbench: lab %s cancelled: its %d process%s stopped, run folder removed\n", id,
		n, n == 1 ? "" : "es");
}

/* The run's verdict from the worker's wait status; a worker killed by a
 * signal is a failure, reported in the run's own format. */
static int verdict_of(int status, int json)
{
	if (got_signal)
		return LAB_EXIT_CANNOT; /* report_cancel says what happened */
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	if (json) {
		char text[64];
		snprintf(text, sizeof text, "lab worker died of signal %d", sig);
		event_write(stdout, &(struct event_line){.kind = EVENT_ERROR, .text = text});
		event_write(stdout, &(struct event_line){.kind = EVENT_VERDICT});
	} else {
		printf("FAIL: the lab worker died of signal %d\n", sig);
	}
	return LAB_EXIT_FAIL;
}

static int lab_run(struct app *app, const struct args *args)
{
	const char *id = args->argv[0], *zk = args_value(args, "--zk");
	int json = args_has(args, "--json");
	const struct lab *lab = NULL;
	char *run_dir = NULL;
	int rc = find_lab(id, zk, &lab);
	if (rc >= 0)
		return rc;
	if ((rc = make_run_dir(&run_dir)) >= 0)
		return rc;

	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* The worker waits until the supervisor has recorded it, so the
	 * supervisor's entry is always the first line of <run>/pids (the
	 * WORKBENCH_TEST_HOLD_AFTER hook counts on that: a worker that
	 * recorded its server first made the supervisor stop at the hook). */
	int gate[2];
	if (pipe(gate) != 0) {
		rundir_remove(run_dir);
		free(run_dir);
		return LAB_EXIT_CANNOT;
	}
	struct spawn_opts so = {.new_group = 1, .death_signal = SIGKILL, .out_fd = -1};
	pid_t pid;
	if (spawn_fork(&so, &pid) != 0) {
		close(gate[0]);
		close(gate[1]);
		rundir_remove(run_dir);
		free(run_dir);
		return LAB_EXIT_CANNOT;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		close(gate[1]);
		char go;
		while (read(gate[0], &go, 1) < 0 && errno == EINTR)
			;
		close(gate[0]);
		char *root = content_root(NULL);
		char *data_dir = wb_xasprintf("%s/data", root);
		free(root);
		struct worker_args a = {run_dir, zk, app->lang, data_dir, json};
		_exit(worker(lab, &a));
	}
	close(gate[0]);
	proc_record(run_dir, pid);
	close(gate[1]); /* EOF: the worker goes on */
	worker_pid = pid;
	if (got_signal) /* arrived before worker_pid was set */
		kill(-pid, SIGKILL);

	int status = wait_worker(pid, run_dir);
	worker_pid = 0;		/* reaped: its pid may be reused */
	proc_kill_all(run_dir); /* whatever the worker left behind */
	int verdict = verdict_of(status, json);
	if (got_signal)
		report_cancel(id, run_dir, json); /* and removes the folder */
	else
		record_run(app, id, run_dir, verdict);
	if (got_signal)
		;
	else if (verdict == LAB_EXIT_PASS)
		rundir_remove(run_dir);
	else
		fprintf(stderr, "workbench: run directory kept for inspection: %s\n", run_dir);
	free(run_dir);
	return verdict;
}

const struct command cmd_lab_run = {
	.name = "lab",
	.sub = "run",
	.args = {.opts = "--json --zk=", .lower = 1, .upper = 1},
	.usage = "ID [--json] [--zk HOST:PORT,...]",
	.help = "run a lab (exit 0 pass, 1 fail, 2 could not run)",
	.run = lab_run,
};
