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
 *
 * Containment.  The worker may run learner code (`exercise check`), in its
 * own process, so nothing it does may decide the verdict, outlive the run
 * or reach the terminal unfiltered:
 *
 *  - Channels.  The worker gets three pipes: its fd 1 and fd 2 (what the
 *    learner's code prints, and any stray output) and the report channel,
 *    a close-on-exec descriptor the report (harness/report.h) writes its
 *    lines to.  The supervisor reads all three.  Report lines are passed
 *    on; the worker's fd 1/2 are cut to OUT_LINE_MAX bytes a line and
 *    OUT_TOTAL_MAX a run (with a note), and in --json mode go to stderr
 *    prefixed "out| " / "err| ", so stdout stays pure events and no line
 *    the learner prints reads as an event, even where a reader merges the
 *    two streams (the TUI).  Everything passes through core/textsafe.
 *  - The verdict.  Before the fork the supervisor draws a random nonce
 *    (getrandom); the worker has it only in memory (never in the
 *    environment or a file).  After report_finish the worker writes one
 *    record on the report channel: "wb-verdict NONCE PID VERDICT CHECKS
 *    FAILED".  A pass needs that record, with the nonce, from the worker's
 *    own pid (a forked copy's is ignored), saying pass with every check
 *    held, and an exit status of 0.  A worker that exits without it (the
 *    learner's code called exit(0), or _exit(0) in a constructor at
 *    dlopen) fails: "the check ended before its verdict".  Printing a
 *    verdict line, on any descriptor, cannot make one.
 *  - Processes.  While a worker runs, the supervisor is a child subreaper
 *    (PR_SET_CHILD_SUBREAPER): whatever the worker's descendants orphan,
 *    setsid'd or double-forked, is re-parented to it, not to init.  When
 *    the worker has exited (still a zombie, so its pid and group id cannot
 *    be reused) its group is killed, then every recorded process
 *    (proc_kill_all), then every child of the supervisor that was not
 *    there before the run, with its group, generation by generation, until
 *    none is left: a fork without exec (a copy of the worker) dies too.
 *
 * Residual: C learner code runs in the worker's address space, so code
 * written to cheat can read the nonce and write a record of its own; the
 * design stops accidental and naive ways (exit, printing, forking), not a
 * determined forger.  A supervisor killed with SIGKILL takes the worker
 * with it (its death signal), but not the learner's setsid'd processes.
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

#include "core/textsafe.h"
#include "base/mono.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
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
	int report_fd;	   /* the report channel's write end */
	const char *nonce; /* this run's nonce (hex), in memory only */
};

/* The verdict record's first word, and the nonce's size in bytes. */
#define VERDICT_TAG "wb-verdict"
#define NONCE_BYTES 16

/* Bounds on what the worker's fd 1 and 2 show: a longer line is cut
 * (with a note), and after OUT_TOTAL_MAX bytes in a run the rest is read
 * and dropped (one note).  A report line is cut at REPORT_LINE_MAX. */
#define OUT_LINE_MAX	2000
#define OUT_TOTAL_MAX	(256 * 1024)
#define REPORT_LINE_MAX (1024 * 1024)

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

/* Ends the worker's report channel with the verdict record (see the top
 * of this file) and closes it.  Nothing to report on failure: a missing
 * record is a failure in the supervisor's eyes. */
static void send_verdict(FILE *ch, int fd, const struct worker_args *a, enum report_verdict v,
			 int checks, int failed)
{
	if (ch)
		fflush(ch);
	dprintf(fd, "%s %s %ld %d %d %d\n", VERDICT_TAG, a->nonce, (long)getpid(), (int)v, checks,
		failed);
	if (ch)
		fclose(ch);
	else
		close(fd);
}

/* The reporter's name for how a lab's run ended (lab.h keeps its own
 * enum, so the app does not see the reporter through it). */
static enum report_end end_of(enum lab_outcome how)
{
	switch (how) {
	case LAB_RAN: return REPORT_RAN;
	case LAB_CANNOT_RUN: return REPORT_CANNOT_RUN;
	case LAB_BROKE: break;
	}
	return REPORT_BROKE;
}

/* The worker: runs the job, writes its report to the report channel and
 * the verdict record after it, and exits with its verdict. */
static int worker(const struct labsuper_job *job, const struct worker_args *a)
{
	if (job->limit_worker)
		limit_worker(job->wall_limit_s);
	/* What the learner's code prints reaches the supervisor as it comes. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	FILE *ch = fdopen(a->report_fd, "w");
	struct report *r = ch ? report_new(ch, job->json) : NULL;
	if (!r) {
		send_verdict(ch, a->report_fd, a, REPORT_CANNOT, 0, 0);
		return LAB_EXIT_CANNOT;
	}
	report_set_lang(r, a->lang);
	char *events = wb_xasprintf("%s/events.jsonl", a->run_dir);
	FILE *tee = fopen(events, "w");
	free(events);
	if (tee)
		report_tee(r, tee);
	if (!job->json) {
		fprintf(ch, "%s\n", job->title);
		fflush(ch);
	}
	struct lab_ctx ctx = {
		.id = job->lab ? job->lab->id : NULL,
		.sessions = job->lab ? job->lab->sessions : 0,
		.run_dir = a->run_dir,
		.zk_connect = job->zk,
		.report = r,
		.source_dir = WB_SOURCE_DIR,
		.data_dir = a->data_dir,
	};
	enum lab_outcome how = job->body ? job->body(&ctx, job->arg) : (*job->lab->run)(&ctx);
	enum report_verdict verdict = report_finish(r, end_of(how));
	int checks = report_checks(r), failed = report_failed(r);
	if (job->history && histfile_write(job->history, report_history(r), report_history_ends(r),
					   (enum histfile_format)job->history_format) != 0)
		fprintf(stderr, "workbench: could not write the operation history\n");
	report_free(r);
	if (tee)
		fclose(tee);
	fflush(stdout);
	send_verdict(ch, a->report_fd, a, verdict, checks, failed);
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

/* The worker's three channels, as the supervisor reads them. */
enum { CH_REPORT, CH_OUT, CH_ERR, CH_N };

/* One channel: the read end and the line being read. */
struct chan {
	int fd;		    /* -1 once at EOF */
	struct wb_buf line; /* the unfinished line */
	int cut;	    /* the line passed its cap: the rest of it is dropped */
};

/* What the supervisor knows of the worker's output and verdict. */
struct sup_io {
	struct chan ch[CH_N];
	int json;
	char nonce[2 * NONCE_BYTES + 1];
	pid_t worker;
	size_t shown; /* bytes of fd 1/2 output shown so far */
	int capped;   /* OUT_TOTAL_MAX passed (noted once) */
	int have;     /* a verdict record was accepted */
	int verdict;  /* its enum report_verdict */
	int checks;   /* its counts */
	int failed;
};

/* A pipe with both ends close-on-exec.  Returns 0 or -1 (errno set). */
static int cloexec_pipe(int fds[2])
{
	if (pipe(fds) != 0)
		return -1;
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

/* A fresh nonce in hex (2 * NONCE_BYTES + 1 bytes).  Returns 0, or -1
 * when the system has no randomness to give. */
static int make_nonce(char *hex)
{
	unsigned char b[NONCE_BYTES];
	size_t got = 0;
	while (got < sizeof b) {
		ssize_t n = getrandom(b + got, sizeof b - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof b; i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	return 0;
}

/* Takes a verdict record: the first one with this run's nonce from the
 * worker's own pid counts; any other is dropped unseen. */
static void take_record(struct sup_io *io, const char *line)
{
	char nonce[2 * NONCE_BYTES + 2];
	long pid;
	int v, checks, failed, end = 0;
	if (io->have ||
	    sscanf(line, VERDICT_TAG " %33s %ld %d %d %d%n", nonce, &pid, &v, &checks, &failed,
		   &end) != 5 ||
	    line[end] != '\0' || strcmp(nonce, io->nonce) != 0 || pid != (long)io->worker ||
	    v < REPORT_PASS || v > REPORT_CANNOT || checks < 0 || failed < 0 || failed > checks)
		return;
	io->have = 1;
	io->verdict = v;
	io->checks = checks;
	io->failed = failed;
}

/* Shows one line (n bytes, may hold NULs) of the worker's fd 1 or 2,
 * sanitised and within OUT_TOTAL_MAX. */
static void show_output(struct sup_io *io, int which, const char *s, size_t n, int cut)
{
	if (io->capped)
		return;
	FILE *f = io->json || which == CH_ERR ? stderr : stdout;
	if (io->shown + n > OUT_TOTAL_MAX) {
		io->capped = 1;
		fprintf(f,
			"%sworkbench: output cut: the code under test wrote more than %d KiB; the "
			"rest is not shown\n",
			io->json ? "err| " : "", OUT_TOTAL_MAX / 1024);
		fflush(f);
		return;
	}
	io->shown += n + 1;
	char *safe = textsafe_dup(s, n);
	fprintf(f, "%s%s%s\n", io->json ? (which == CH_OUT ? "out| " : "err| ") : "", safe,
		cut ? " … (line cut)" : "");
	fflush(f);
	free(safe);
}

/* One whole line of a channel (without its LF). */
static void take_line(struct sup_io *io, int which, const char *s, size_t n, int cut)
{
	if (which != CH_REPORT) {
		show_output(io, which, s, n, cut);
		return;
	}
	if (!cut && n > sizeof VERDICT_TAG && memcmp(s, VERDICT_TAG " ", sizeof VERDICT_TAG) == 0) {
		take_record(io, s);
		return;
	}
	if (cut && io->json) {
		event_write(stdout, &(struct event_line){.kind = EVENT_ERROR,
							 .text = "a report line was too long: "
								 "dropped"});
		return;
	}
	char *safe = textsafe_dup(s, n);
	fprintf(stdout, "%s%s\n", safe, cut ? " … (line cut)" : "");
	fflush(stdout);
	free(safe);
}

/* Adds n bytes read from a channel: whole lines are taken, a line past
 * its cap is cut and the rest of it dropped up to its LF. */
static void feed(struct sup_io *io, int which, const char *buf, size_t n)
{
	struct chan *c = &io->ch[which];
	size_t max = which == CH_REPORT ? REPORT_LINE_MAX : OUT_LINE_MAX;
	while (n > 0) {
		const char *nl = memchr(buf, '\n', n);
		size_t take = nl ? (size_t)(nl - buf) : n;
		if (!c->cut) {
			size_t room = max - c->line.len;
			wb_buf_append(&c->line, buf, take < room ? take : room);
			if (take > room)
				c->cut = 1;
		}
		if (!nl)
			return;
		take_line(io, which, c->line.data ? c->line.data : "", c->line.len, c->cut);
		wb_buf_free(&c->line);
		c->cut = 0;
		buf = nl + 1;
		n -= take + 1;
	}
}

/* Reads once from a channel that poll() found ready; at EOF the last
 * unfinished line is taken and the channel closed. */
static void read_chan(struct sup_io *io, int which)
{
	struct chan *c = &io->ch[which];
	char buf[65536];
	ssize_t n = read(c->fd, buf, sizeof buf);
	if (n > 0) {
		feed(io, which, buf, (size_t)n);
		return;
	}
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (c->line.len || c->cut)
		take_line(io, which, c->line.data ? c->line.data : "", c->line.len, c->cut);
	wb_buf_free(&c->line);
	close(c->fd);
	c->fd = -1;
}

/* 0 while the worker runs; 1 once it has exited (a zombie: not reaped,
 * so its pid and group id stay its own); 2 when something else reaped it
 * (proc_kill_all: it is recorded too). */
static int worker_state(pid_t pid)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0)
		return errno == EINTR ? 0 : 2;
	return si.si_pid == pid ? 1 : 0;
}

/* A descriptor that polls readable when pid exits, or -1 (an old
 * kernel: the supervisor then looks every 50 ms). */
static int pid_fd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/* Passes the worker's output on while it runs and waits for it; on a
 * signal kills its group and every recorded process.  Once it has exited
 * its group is killed before it is reaped.  Returns the wait status
 * (SIGKILL when it was reaped elsewhere). */
static int wait_worker(pid_t pid, const char *run_dir, struct sup_io *io)
{
	int pfd = pid_fd(pid), state;
	while ((state = worker_state(pid)) == 0) {
		struct pollfd p[CH_N + 1];
		for (int c = 0; c < CH_N; c++)
			p[c] = (struct pollfd){.fd = io->ch[c].fd, .events = POLLIN};
		p[CH_N] = (struct pollfd){.fd = pfd, .events = POLLIN};
		int r = poll(p, CH_N + 1, pfd >= 0 ? -1 : 50);
		if (r < 0 && errno == EINTR) {
			if (got_signal) {
				kill(-pid, SIGKILL);
				proc_kill_all(run_dir);
			}
			continue;
		}
		for (int c = 0; c < CH_N; c++)
			if (r > 0 && p[c].fd >= 0 && p[c].revents)
				read_chan(io, c);
	}
	if (pfd >= 0)
		close(pfd);
	int status = SIGKILL;
	if (state == 1) {
		kill(-pid, SIGKILL); /* learner code's children in the worker's group */
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	return status;
}

/* The pids of this process's children (from /proc) into *out (caller
 * frees); returns how many. */
static size_t list_children(pid_t **out)
{
	*out = NULL;
	size_t n = 0;
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	pid_t self = getpid();
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		char path[64], buf[512];
		snprintf(path, sizeof path, "/proc/%ld/stat", pid);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t k = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (k <= 0)
			continue;
		buf[k] = '\0';
		char *rp = strrchr(buf, ')'), state;
		int ppid;
		if (rp && sscanf(rp + 1, " %c %d", &state, &ppid) == 2 && ppid == self) {
			*out = wb_xrealloc(*out, (n + 1) * sizeof **out);
			(*out)[n++] = (pid_t)pid;
		}
	}
	closedir(d);
	return n;
}

/* Kills and reaps every child of this process that is not in keep[0..nkeep)
 * (the children it had before the run), with its group; what they leave
 * comes to this process (a subreaper) and goes in the next round, until a
 * round finds none.  Returns how many it killed. */
static int kill_descendants(const pid_t *keep, size_t nkeep)
{
	int total = 0;
	for (int round = 0; round < 1000; round++) {
		pid_t *kids;
		size_t n = list_children(&kids);
		int killed = 0;
		for (size_t i = 0; i < n; i++) {
			int kept = 0;
			for (size_t j = 0; j < nkeep && !kept; j++)
				kept = kids[i] == keep[j];
			if (kept)
				continue;
			kill(-kids[i], SIGKILL); /* its group, when it leads one */
			kill(kids[i], SIGKILL);
			while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
				;
			killed++;
		}
		free(kids);
		total += killed;
		if (!killed)
			break;
	}
	return total;
}

/* Reads what is left in the channels once every writer is gone (at most
 * 2 s in all, should a descriptor have escaped), then closes them. */
static void drain_channels(struct sup_io *io)
{
	long long deadline = mono_now_ms() + 2000;
	for (;;) {
		struct pollfd p[CH_N];
		int open_ = 0;
		for (int c = 0; c < CH_N; c++) {
			p[c] = (struct pollfd){.fd = io->ch[c].fd, .events = POLLIN};
			open_ += io->ch[c].fd >= 0;
		}
		long long left = deadline - mono_now_ms();
		if (!open_ || left <= 0)
			break;
		int r = poll(p, CH_N, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (int c = 0; c < CH_N; c++)
			if (p[c].fd >= 0 && p[c].revents)
				read_chan(io, c);
	}
	for (int c = 0; c < CH_N; c++) {
		if (io->ch[c].fd >= 0)
			close(io->ch[c].fd);
		io->ch[c].fd = -1;
		wb_buf_free(&io->ch[c].line);
	}
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

/* Writes a failure the supervisor found (not a check) in the run's own
 * format: an error and a failed verdict event, or a FAIL line. */
static void say_failure(const struct labsuper_job *job, const char *text)
{
	if (job->json) {
		event_write(stdout, &(struct event_line){.kind = EVENT_ERROR, .text = text});
		event_write(stdout, &(struct event_line){.kind = EVENT_VERDICT});
	} else {
		printf("FAIL: %s\n", text);
	}
}

/* The run's verdict: the worker's verdict record (see the top of this
 * file) and its wait status must agree; a worker killed by a signal, or
 * one that ended without a record, is a failure, reported in the run's
 * own format. */
static int verdict_of(const struct labsuper_job *job, int status, const struct sup_io *io)
{
	if (got_signal)
		return LAB_EXIT_CANNOT; /* report_cancel says what happened */
	char text[160];
	if (timed_out) {
		snprintf(text, sizeof text,
			 "stopped after the wall limit of %u s: the code under test hangs or loops",
			 job->wall_limit_s);
		say_failure(job, text);
		return LAB_EXIT_FAIL;
	}
	if (!WIFEXITED(status)) {
		int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
		snprintf(text, sizeof text,
			 job->json ? "lab worker died of signal %d"
				   : "the lab worker died of signal %d",
			 sig);
		say_failure(job, text);
		return LAB_EXIT_FAIL;
	}
	int code = WEXITSTATUS(status);
	if (!io->have) {
		say_failure(job, "the check ended before its verdict: did the code under test call "
				 "exit() or _exit()?");
		return LAB_EXIT_FAIL;
	}
	int v = exit_code((enum report_verdict)io->verdict);
	if (code != v || (v == LAB_EXIT_PASS && (io->failed || !io->checks))) {
		snprintf(text, sizeof text,
			 "the worker exited with %d but its verdict says %d (%d checks, %d failed)",
			 code, v, io->checks, io->failed);
		say_failure(job, text);
		return LAB_EXIT_FAIL;
	}
	return v;
}

int labsuper_signals(void)
{
	return (int)signals_seen;
}

/* Writes the finished run's timeline (its events.jsonl) as SVG to
 * job->timeline_svg, a scratch file cli/lab_run.c puts in place (and
 * names) when it is complete; a failure is reported and does not change
 * the verdict (lab_run.c exits non-zero for it). */
static void write_timeline(const struct labsuper_job *job, const char *run_dir, const char *lang)
{
	char *events = wb_xasprintf("%s/events.jsonl", run_dir), err[512];
	if (timeline_svg_file(events, job->timeline_svg, job->title, lang, err, sizeof err) != 0)
		fprintf(stderr, "workbench: no timeline drawn: %s\n", err);
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

/* The run's nonce and its three channels: the read ends in io, the
 * write ends (for the worker) in w.  Returns 0, or -1 after a message. */
static int open_channels(struct sup_io *io, int w[CH_N])
{
	int c;
	if (make_nonce(io->nonce) != 0) {
		fprintf(stderr, "workbench: no random numbers for the run's nonce: %s\n",
			strerror(errno));
		return -1;
	}
	for (c = 0; c < CH_N; c++) {
		int fds[2];
		if (cloexec_pipe(fds) != 0)
			break;
		io->ch[c] = (struct chan){.fd = fds[0]};
		w[c] = fds[1];
	}
	if (c == CH_N)
		return 0;
	fprintf(stderr, "workbench: cannot make the worker's pipes: %s\n", strerror(errno));
	while (c-- > 0) {
		close(io->ch[c].fd);
		close(w[c]);
	}
	return -1;
}

/* Closes both ends of every channel of open_channels. */
static void close_channels(struct sup_io *io, int w[CH_N])
{
	for (int c = 0; c < CH_N; c++) {
		close(io->ch[c].fd);
		close(w[c]);
		io->ch[c].fd = -1;
	}
}

/* SIGINT, SIGTERM and SIGHUP go to on_signal while a run is supervised. */
static void catch_signals(void)
{
	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* The forked worker's side of start_worker: waits at the gate until the
 * supervisor has recorded it, puts its fd 1 and 2 on their channels,
 * closes the supervisor's ends, and runs the job.  Never returns. */
static _Noreturn void worker_child(struct app *app, const struct labsuper_job *job,
				   const char *run_dir, const struct sup_io *io, int w[CH_N],
				   int gate[2])
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	close(gate[1]);
	char go;
	while (read(gate[0], &go, 1) < 0 && errno == EINTR)
		;
	close(gate[0]);
	dup2(w[CH_OUT], STDOUT_FILENO);
	dup2(w[CH_ERR], STDERR_FILENO);
	for (int c = 0; c < CH_N; c++) {
		close(io->ch[c].fd);
		if (c != CH_REPORT)
			close(w[c]);
	}
	char *root = content_root(NULL);
	char *data_dir = wb_xasprintf("%s/data", root);
	free(root);
	struct worker_args a = {run_dir, app->lang, data_dir, w[CH_REPORT], io->nonce};
	_exit(worker(job, &a));
}

/* What start_worker changed in the supervisor, for end_worker. */
struct sup_run {
	pid_t *before; /* the caller's children before the run: not the run's */
	size_t nbefore;
	int was_reaper; /* the supervisor was a child subreaper already */
};

/* Opens the channels, makes the supervisor a child subreaper and forks
 * the worker (its own group, killed if the supervisor dies).  The worker
 * waits until the supervisor has recorded it, so the supervisor's entry
 * is always the first line of <run>/pids (the WORKBENCH_TEST_HOLD_AFTER
 * hook counts on that: a worker that recorded its server first made the
 * supervisor stop at the hook).  Returns the worker's pid, or -1 with
 * everything undone. */
static pid_t start_worker(struct app *app, const struct labsuper_job *job, const char *run_dir,
			  struct sup_io *io, struct sup_run *sr)
{
	int gate[2], w[CH_N];
	if (open_channels(io, w) != 0)
		return -1;
	if (pipe(gate) != 0) {
		close_channels(io, w);
		return -1;
	}
	sr->nbefore = list_children(&sr->before);
	sr->was_reaper = 0;
	prctl(PR_GET_CHILD_SUBREAPER, &sr->was_reaper, 0, 0, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	struct spawn_opts so = {.new_group = 1, .death_signal = SIGKILL, .out_fd = -1};
	pid_t pid;
	if (spawn_fork(&so, &pid) != 0) {
		close(gate[0]);
		close(gate[1]);
		close_channels(io, w);
		if (!sr->was_reaper)
			prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
		free(sr->before);
		return -1;
	}
	if (pid == 0)
		worker_child(app, job, run_dir, io, w, gate);
	for (int c = 0; c < CH_N; c++)
		close(w[c]);
	io->worker = pid;
	close(gate[0]);
	proc_record(run_dir, pid);
	close(gate[1]); /* EOF: the worker goes on */
	return pid;
}

/* Waits for the worker (under the job's wall limit), then stops whatever
 * it left behind, ends the subreaper role start_worker took and reads the
 * channels dry.  Returns the worker's wait status. */
static int end_worker(const struct labsuper_job *job, pid_t pid, const char *run_dir,
		      struct sup_io *io, struct sup_run *sr)
{
	worker_pid = pid;
	if (got_signal) /* arrived before worker_pid was set */
		kill(-pid, SIGKILL);
	if (job->wall_limit_s) {
		struct sigaction al = {0};
		al.sa_handler = on_alarm;
		sigaction(SIGALRM, &al, NULL);
		alarm(job->wall_limit_s);
	}
	int status = wait_worker(pid, run_dir, io);
	alarm(0);
	worker_pid = 0;		/* reaped: its pid may be reused */
	proc_kill_all(run_dir); /* whatever the worker left behind */
	kill_descendants(sr->before, sr->nbefore);
	if (!sr->was_reaper)
		prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
	free(sr->before);
	drain_channels(io);
	return status;
}

/* After the verdict: a cancel is reported (the folder removed); else the
 * run is recorded when the job asks, and its folder removed after a pass
 * (and after a failure unless the job keeps those) or kept for
 * inspection. */
static void close_run(struct app *app, const struct labsuper_job *job, const char *run_dir,
		      int verdict)
{
	if (got_signal) {
		report_cancel(job->what, job->id, run_dir, job->json); /* and removes the folder */
		return;
	}
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

int labsuper_run(struct app *app, const struct labsuper_job *job)
{
	char *run_dir = NULL;
	int rc;
	got_signal = 0;
	timed_out = 0;
	if ((rc = make_run_dir(&run_dir)) >= 0)
		return rc;
	catch_signals();
	struct sup_io io = {.json = job->json};
	struct sup_run sr = {0};
	pid_t pid = start_worker(app, job, run_dir, &io, &sr);
	if (pid < 0) {
		rundir_remove(run_dir);
		free(run_dir);
		return LAB_EXIT_CANNOT;
	}
	int status = end_worker(job, pid, run_dir, &io, &sr);
	int verdict = verdict_of(job, status, &io);
	if (!got_signal && job->timeline_svg)
		write_timeline(job, run_dir, app->lang);
	if (job->timing)
		read_timing(run_dir, job->timing);
	close_run(app, job, run_dir, verdict);
	free(run_dir);
	return verdict;
}
