/*
 * cli/labsuper.c - the supervisor of a lab run or an exercise check
 * (cli/labsuper.h).
 *
 * It reaps leftovers of earlier runs, makes a fresh run directory, and
 * runs the work in a forked worker (its own process group, killed if the
 * supervisor dies).  On SIGINT/SIGTERM or a crash of the worker, the
 * supervisor kills every recorded process; a job with a wall limit has its
 * worker's group killed when the limit passes (an exercise's learner code
 * that hangs).  The run directory is removed after a pass and after a
 * cancel (which says how many processes it stopped) and kept (path
 * printed) otherwise, so server logs stay available as evidence.
 *
 * No lab logic here, and no event format: labs/event.h reads and writes
 * the JSON lines; the events are only stored with the run (record_run).
 */
#include "cli/labsuper.h"
#include "core/content.h"
#include "core/store.h"
#include "core/timeline_svg.h"
#include "base/spawn.h"
#include "base/wb.h"
#include "event.h"
#include "harness/proc.h"
#include "harness/report.h"
#include "histfile.h"

#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef WB_SOURCE_DIR
#define WB_SOURCE_DIR NULL
#endif

/* Built with AddressSanitizer (gcc says so with a macro, clang with
 * __has_feature): its shadow memory needs far more address space than
 * the worker's limit allows. */
#if defined(__SANITIZE_ADDRESS__)
#define WB_ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WB_ASAN_BUILD 1
#endif
#endif

static volatile sig_atomic_t got_signal;
static volatile sig_atomic_t worker_pid;   /* the running worker, 0 if none */
static volatile sig_atomic_t timed_out;	   /* the wall limit passed */
static volatile sig_atomic_t signals_seen; /* never reset (labsuper_signals) */

/* Kills the worker's group from the handler itself (kill is
 * async-signal-safe): a signal that lands just before waitpid() is
 * entered would otherwise leave waitpid blocked until the worker ends on
 * its own. */
static void on_signal(int sig)
{
	got_signal = sig;
	signals_seen++;
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

/* The wall limit passed: the worker's group goes, and the run fails. */
static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
	if (worker_pid > 0)
		kill(-(pid_t)worker_pid, SIGKILL);
}

/* What the worker needs besides the job: where, in what language. */
struct worker_args {
	const char *run_dir;
	const char *lang;
	const char *data_dir;
};

/* Limits for a worker that runs learner code: CPU seconds, address space
 * (not under the sanitizers, whose shadow memory needs far more), no core
 * files.  Failures to set a limit are ignored: the wall limit stays. */
static void limit_worker(unsigned wall_s)
{
	struct rlimit core = {0, 0};
	setrlimit(RLIMIT_CORE, &core);
	rlim_t cpu = wall_s ? wall_s : 120;
	struct rlimit c = {cpu, cpu + 5};
	setrlimit(RLIMIT_CPU, &c);
#ifndef WB_ASAN_BUILD
	struct rlimit as = {(rlim_t)4 << 30, (rlim_t)4 << 30};
	setrlimit(RLIMIT_AS, &as);
#endif
}

/* The worker: runs the job and exits with its verdict. */
static int worker(const struct labsuper_job *job, const struct worker_args *a)
{
	if (job->limit_worker)
		limit_worker(job->wall_limit_s);
	struct report *r = report_new(stdout, job->json);
	if (!r)
		return LAB_EXIT_CANNOT;
	report_set_lang(r, a->lang);
	char *events = wb_xasprintf("%s/events.jsonl", a->run_dir);
	FILE *tee = fopen(events, "w");
	free(events);
	if (tee)
		report_tee(r, tee);
	if (!job->json)
		printf("%s\n", job->title);
	struct lab_ctx ctx = {
		.lab = job->lab,
		.run_dir = a->run_dir,
		.zk_connect = job->zk,
		.report = r,
		.source_dir = WB_SOURCE_DIR,
		.data_dir = a->data_dir,
	};
	enum lab_outcome how = job->body ? job->body(&ctx, job->arg) : (*job->lab->run)(&ctx);
	enum report_verdict verdict = report_finish(r, (enum report_end)how);
	if (job->history && histfile_write(job->history, report_history(r), report_history_ends(r),
					   (enum histfile_format)job->history_format) != 0)
		fprintf(stderr, "workbench: could not write the operation history\n");
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
static void report_cancel(const char *what, const char *id, const char *run_dir, int json)
{
	int n = started_processes(run_dir);
	rundir_remove(run_dir);
	if (json)
		event_write(stdout, &(struct event_line){.kind = EVENT_CANCELLED, .stopped = n});
	fprintf(stderr,
		"workbench: %s %s cancelled: its %d process%s stopped, run folder removed\n", what,
		id, n, n == 1 ? "" : "es");
}

/* The run's verdict from the worker's wait status; a worker killed by a
 * signal is a failure, reported in the run's own format. */
static int verdict_of(const struct labsuper_job *job, int status)
{
	if (got_signal)
		return LAB_EXIT_CANNOT; /* report_cancel says what happened */
	if (timed_out) {
		char text[160];
		snprintf(text, sizeof text,
			 "stopped after the wall limit of %u s: the code under test hangs or loops",
			 job->wall_limit_s);
		if (job->json) {
			event_write(stdout,
				    &(struct event_line){.kind = EVENT_ERROR, .text = text});
			event_write(stdout, &(struct event_line){.kind = EVENT_VERDICT});
		} else {
			printf("FAIL: %s\n", text);
		}
		return LAB_EXIT_FAIL;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	int json = job->json;
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

int labsuper_signals(void)
{
	return (int)signals_seen;
}

/* Writes the finished run's timeline (its events.jsonl) as SVG to
 * job->timeline_svg; a failure is reported and does not change the
 * verdict. */
static void write_timeline(const struct labsuper_job *job, const char *run_dir, const char *lang)
{
	char *events = wb_xasprintf("%s/events.jsonl", run_dir), err[512];
	if (timeline_svg_file(events, job->timeline_svg, job->title, lang, err, sizeof err) != 0)
		fprintf(stderr, "workbench: no timeline written to %s: %s\n", job->timeline_svg,
			err);
	else if (!job->json)
		printf("timeline: %s\n", job->timeline_svg);
	free(events);
}

/* Fills *t from the run's timing event. */
static void read_timing(const char *run_dir, struct labsuper_timing *t)
{
	char *path = wb_xasprintf("%s/events.jsonl", run_dir);
	char *text = NULL;
	size_t len = 0;
	memset(t, 0, sizeof *t);
	if (wb_read_file(path, &text, &len) == 0) {
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
			struct event_line e;
			if (event_parse(line, &e) != 0)
				continue;
			if (e.kind == EVENT_TIMING)
				*t = (struct labsuper_timing){1, e.story_ms, e.server_ms,
							      e.other_ms};
			event_clear(&e);
		}
	}
	free(text);
	free(path);
}

int labsuper_run(struct app *app, const struct labsuper_job *job)
{
	char *run_dir = NULL;
	int rc;
	got_signal = 0;
	timed_out = 0;
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
		struct worker_args a = {run_dir, app->lang, data_dir};
		_exit(worker(job, &a));
	}
	close(gate[0]);
	proc_record(run_dir, pid);
	close(gate[1]); /* EOF: the worker goes on */
	worker_pid = pid;
	if (got_signal) /* arrived before worker_pid was set */
		kill(-pid, SIGKILL);

	if (job->wall_limit_s) {
		struct sigaction al = {0};
		al.sa_handler = on_alarm;
		sigaction(SIGALRM, &al, NULL);
		alarm(job->wall_limit_s);
	}
	int status = wait_worker(pid, run_dir);
	alarm(0);
	worker_pid = 0;		/* reaped: its pid may be reused */
	proc_kill_all(run_dir); /* whatever the worker left behind */
	int verdict = verdict_of(job, status);
	if (!got_signal && job->timeline_svg)
		write_timeline(job, run_dir, app->lang);
	if (job->timing)
		read_timing(run_dir, job->timing);
	if (got_signal) {
		report_cancel(job->what, job->id, run_dir, job->json); /* and removes the folder */
	} else {
		if (job->record)
			record_run(app, job->id, run_dir, verdict);
		if (verdict == LAB_EXIT_PASS || (verdict == LAB_EXIT_FAIL && !job->keep_failed))
			rundir_remove(run_dir);
		else if (rundir_keep(run_dir) == 0)
			fprintf(stderr,
				"workbench: run directory kept for inspection: %s (the %d newest "
				"kept runs stay)\n",
				run_dir, RUNDIR_KEEP_MAX);
		else
			fprintf(stderr,
				"workbench: run directory left for inspection until the next run: "
				"%s (it could not be marked kept)\n",
				run_dir);
	}
	free(run_dir);
	return verdict;
}
