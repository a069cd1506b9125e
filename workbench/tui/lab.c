/*
 * lab.c - a lab run in place: the screen starts `workbench lab run ID
 * --json` as a child in its own process group, reads its JSON lines as
 * they come and shows steps, checks (✔/✘ with expected and observed),
 * evidence and the verdict.  Once the run is over the screen ends with what
 * it proved (the lab's conclusion), the evidence below it.  Esc cancels by
 * signalling the child's group; the child's supervisor then kills every
 * process the lab started, removes the run folder and says so (a
 * "cancelled" event), and the screen shows that, with the clock stopped.
 *
 * t switches to the timeline view (tui/timelineview.c): the run's "op",
 * "mark" and "checker" event lines drawn as lanes across time; those lines
 * go to the view and are not listed among the events.
 *
 * The main loop polls the child's output (lab_poll_fd/lab_readable) and
 * ticks this screen (lab_tick: reap, cancel deadline) whichever screen is
 * on top, so a run goes on while the learner reads the recipe source.
 * States of a run, driven by keys and lab_tick, never by sleeping:
 *
 *   RUNNING    --Esc/r-->         CANCELLING  SIGTERM to the child's group,
 *                                             deadline LAB_CANCEL_GRACE_MS
 *   CANCELLING --deadline-->      CANCELLING  SIGKILL to the group
 *   RUNNING, CANCELLING --reaped--> DONE      (r: a new run starts now)
 *
 * Leaving the screen with a run still going is the one bounded wait:
 * lab_free signals the group and reaps it (at most the grace period).
 *
 * An exercise card opens the same screen in exercise mode
 * (lab_exercise_open): the learner's file is started in the workspace and
 * handed to $VISUAL/$EDITOR (vi) with curses suspended, then the child is
 * `workbench exercise check ID --json`, which writes the same events; e
 * edits again and re-checks, h shows the next hint (recorded).
 *
 * The lab never runs inside the TUI process: a crash or a hang of a lab
 * cannot take the workbench with it.  This file parses no lab logic; it
 * only reads the event stream that the CLI also prints.
 */
#define _GNU_SOURCE /* pipe2 */
#include "tui/labscreen.h"
#include "tui/pager.h"
#include "tui/timelineview.h"
#include "tui/term.h"
#include "tui/tui.h"
#include "app.h"
#include "base/mono.h"
#include "base/testhook.h"
#include "core/exercise_ws.h"
#include "core/i18n.h"
#include "core/labcat.h"
#include "core/wrap.h"
#include "core/store.h"
#include "core/utf8.h"
#include "base/spawn.h"
#include "base/wb.h"
#include "event.h"
#include "lab.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { L_CANCEL, L_BACK, L_RERUN, L_SOURCE, L_TIMELINE, L_EDIT, L_HINT };

/* The keys both screens share: the pager's (tui/pager.h; G goes to the
 * last line, where the evidence ends the run), Esc. */
#define LAB_SCROLL_KEYS                                                                            \
	PAGER_KEYS,                                                                                \
	{                                                                                          \
		27, 0, "Esc", L_CANCEL, "cancel the running lab", "取消正在运行的实验"    \
	}

static const struct keybind lab_keys[] = {
	LAB_SCROLL_KEYS,
	{'r', 0, "r", L_RERUN, "run it again", "再运行一次"},
	{'s', 0, "s", L_SOURCE, "read the recipe source it exercises", "阅读它所用的配方源码"},
	{'t', 0, "t", L_TIMELINE, "timeline of the run's operations (t again: the run)",
	 "本次运行各操作的时间线（再按 t：返回运行记录）"},
	{'q', 0, "q", L_BACK, "back to the lesson (cancels a run)", "返回课文（会取消运行）"},
	{KEY_LEFT, 1, "←", L_BACK, "back to the lesson (cancels a run)", "返回课文（会取消运行）"},
};

/* An exercise check: the same keys but s and t (the recipe's source is
 * the reference solution: that is `exercise solution`, asked and
 * recorded), and two more. */
static const struct keybind exercise_keys[] = {
	LAB_SCROLL_KEYS,
	{'r', 0, "r", L_RERUN, "check it again", "再检查一次"},
	{'q', 0, "q", L_BACK, "back to the lesson (cancels a run)", "返回课文（会取消运行）"},
	{KEY_LEFT, 1, "←", L_BACK, "back to the lesson (cancels a run)", "返回课文（会取消运行）"},
	{'e', 0, "e", L_EDIT, "edit your file again, then check it", "再编辑你的文件，然后检查"},
	{'h', 0, "h", L_HINT, "show the next hint (recorded)", "显示下一条提示（会记录）"},
};

struct event {
	char kind;	/* 's' step, 'c' check, 'e' evidence, '!' error, 'v' verdict, 'l' log,
			   'k' conclusion, 'h' a hint shown (exercise) */
	int ok;		/* checks and verdict */
	char *text;	/* step text, check name, evidence key, message */
	char *expected; /* checks */
	char *observed; /* checks; evidence value */
};

/* How long a cancelled child may take to stop before SIGKILL. */
#define LAB_CANCEL_GRACE_MS 3000

struct labscr {
	const struct lab *lab;	      /* descriptor (this build has it); an exercise's: the
					 lab whose scenario judges it */
	const struct excat_entry *ex; /* an exercise check, NULL for a lab run */
	char *ex_path;		      /* the learner's file (exercise only) */
	char *chapter;		      /* chapter the card was opened from */
	pid_t pid;		      /* running child, 0 when none */
	int fd;			      /* read end of the child's output, -1 when closed */
	struct wb_buf partial;	      /* bytes of an unfinished line */
	struct event *ev;
	size_t nev;
	int top;	    /* first display line */
	int follow;	    /* keep the end in view (when done: the conclusion) */
	int finished;	    /* verdict seen or child gone */
	int cancelled;	    /* Esc pressed: the rest of the output is dropped */
	long long kill_at;  /* cancelling: SIGKILL the group at this mono ms, 0 none */
	int rerun;	    /* start a new run once the cancelled one is reaped */
	int passed;	    /* verdict */
	long ms;	    /* verdict's elapsed time */
	long long end_ms;   /* the clock stopped (mono ms): cancel or end, 0 running */
	long long start_ms; /* start in mono ms, for the live elapsed time */
	int stopped;	    /* cancelled event: processes the supervisor stopped */
	int confirmed;	    /* the cancelled event was seen */
	int exit_code;	    /* child's exit status */
	struct tlview *tl;  /* the run's operation history (tui/timelineview.c) */
	int show_tl;	    /* t: the timeline view instead of the events */
};

static void add_event(struct labscr *l, struct event e)
{
	l->ev = wb_xrealloc(l->ev, (l->nev + 1) * sizeof *l->ev);
	l->ev[l->nev++] = e;
}

static void parse_line(struct labscr *l, const char *line)
{
	struct event_line in;
	if (!l->cancelled && tlview_feed(l->tl, line))
		return; /* an op, mark or checker event: the timeline view's */
	if (event_parse(line, &in) != 0) {
		if (*line && !l->cancelled)
			add_event(l, (struct event){'l', 0, wb_xstrdup(line), NULL, NULL});
		return;
	}
	if (l->cancelled || in.kind == EVENT_CANCELLED) {
		/* After Esc only the supervisor's word on the clean-up counts. */
		if (in.kind == EVENT_CANCELLED) {
			l->confirmed = 1;
			l->stopped = in.stopped;
		}
		event_clear(&in);
		return;
	}
	if (in.kind == EVENT_OP || in.kind == EVENT_MARK || in.kind == EVENT_CHECKER ||
	    in.kind == EVENT_TIMING) {
		/* history lines: not narration (the checker's verdict also
		 * comes as a check); the time split is for `lab run --all` */
		event_clear(&in);
		return;
	}
	struct event e = {0};
	e.text = wb_xstrdup(in.text);
	switch (in.kind) {
	case EVENT_STEP: e.kind = 's'; break;
	case EVENT_CHECK:
		e.kind = 'c';
		e.ok = in.ok;
		e.expected = wb_xstrdup(in.expected);
		e.observed = wb_xstrdup(in.observed);
		break;
	case EVENT_EVIDENCE:
		e.kind = 'e';
		e.observed = wb_xstrdup(in.observed);
		break;
	case EVENT_VERDICT:
		e.kind = 'v';
		e.ok = in.ok;
		l->passed = e.ok;
		l->ms = in.ms;
		l->finished = 1;
		l->end_ms = mono_now_ms();
		break;
	case EVENT_CONCLUSION: e.kind = 'k'; break;
	case EVENT_CANCELLED: /* handled above */
	case EVENT_OP:
	case EVENT_MARK:
	case EVENT_CHECKER:
	case EVENT_TIMING: break;
	case EVENT_ERROR:
	case EVENT_UNKNOWN: e.kind = '!'; break;
	}
	add_event(l, e);
	event_clear(&in);
}

static void free_events(struct labscr *l)
{
	for (size_t i = 0; i < l->nev; i++) {
		free(l->ev[i].text);
		free(l->ev[i].expected);
		free(l->ev[i].observed);
	}
	free(l->ev);
	l->ev = NULL;
	l->nev = 0;
}

static int start_child(struct tui *t, struct labscr *l)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		return WB_EIO;
	struct spawn_opts so = {
		.new_group = 1, .death_signal = SIGTERM, .stdin_null = 1, .out_fd = fds[1]};
	pid_t pid;
	if (spawn_fork(&so, &pid) != 0) {
		close(fds[0]);
		close(fds[1]);
		return WB_EIO;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		/* --lang: the lab narrates in the screen's language */
		char *argv[] = {
			"workbench", "--db", t->app->db_path,	 "--lang", (char *)t->app->lang,
			"lab",	     "run",  (char *)l->lab->id, "--json", NULL};
		/* an exercise: its check, with the learner's file from the workspace */
		char *exargv[] = {"workbench",
				  "--db",
				  t->app->db_path,
				  "--lang",
				  (char *)t->app->lang,
				  "--content",
				  t->app->content,
				  "exercise",
				  "check",
				  l->ex ? (char *)l->ex->id : "",
				  "--json",
				  NULL};
		execv("/proc/self/exe", l->ex ? exargv : argv);
		_exit(2);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	l->pid = pid;
	l->fd = fds[0];
	l->finished = l->cancelled = l->passed = 0;
	l->confirmed = l->stopped = 0;
	l->end_ms = 0;
	l->start_ms = mono_now_ms();
	l->follow = 1;
	l->top = 0;
	l->ms = 0;
	wb_buf_free(&l->partial);
	free_events(l);
	tlview_reset(l->tl);
	return 0;
}

static void reap(struct labscr *l, int block)
{
	if (!l->pid)
		return;
	int status;
	pid_t r = waitpid(l->pid, &status, block ? 0 : WNOHANG);
	if (r == l->pid || (r < 0 && errno == ECHILD)) {
		l->exit_code = r == l->pid && WIFEXITED(status) ? WEXITSTATUS(status) : 2;
		l->pid = 0;
		if (!l->end_ms)
			l->end_ms = mono_now_ms();
		if (!l->finished) {
			l->finished = 1;
			l->passed = 0;
		}
	}
}

/* The grace period; the test hook WORKBENCH_TEST_CANCEL_GRACE_MS sets it
 * so a test can look at the screen while a child has not stopped yet. */
static long long cancel_grace_ms(void)
{
	const char *env = testhook_cancel_grace_ms();
	long long ms = env && *env ? atoll(env) : 0;
	return ms > 0 ? ms : LAB_CANCEL_GRACE_MS;
}

static void close_output(struct labscr *l)
{
	if (l->fd >= 0) {
		close(l->fd);
		l->fd = -1;
	}
}

/* Starts cancelling: returns at once; lab_tick follows it up. */
static void cancel(struct labscr *l)
{
	if (!l->pid || l->cancelled)
		return;
	l->cancelled = 1;
	l->end_ms = mono_now_ms(); /* the clock stops at Esc */
	l->follow = 1;
	kill(-l->pid, SIGTERM);
	l->kill_at = mono_now_ms() + cancel_grace_ms();
}

/* Cancels and waits for the child: the screen is going away. */
static void cancel_and_wait(struct labscr *l)
{
	cancel(l);
	struct timespec step = {0, 20 * 1000 * 1000};
	while (l->pid && mono_now_ms() < l->kill_at) {
		reap(l, 0);
		if (l->pid)
			nanosleep(&step, NULL);
	}
	if (l->pid) {
		kill(-l->pid, SIGKILL);
		reap(l, 1);
	}
	close_output(l);
}

/* Bounds on what the screen keeps of the child's output: a line is cut at
 * LAB_LINE_MAX bytes (shown with a note, the rest of it dropped up to its
 * LF), and at most LAB_LOG_MAX plain lines (the 'l' events: output that is
 * no event) are kept, then one note; events (steps, checks, the verdict)
 * are always kept.  The CLI bounds learner output already
 * (cli/labsuper.c); these hold whatever the child writes. */
#define LAB_LINE_MAX (64 * 1024)
#define LAB_LOG_MAX  2000

/* One whole line of the child's output (NUL-terminated, cut or not): an
 * event, or a plain line while fewer than LAB_LOG_MAX are kept. */
static void take_line(struct labscr *l, char *line, int cut, size_t *nlog)
{
	if (cut) {
		/* a cut line is no event: shown as plain output with a note */
		char *shown = wb_xasprintf("%s … (line cut at %d bytes)", line, LAB_LINE_MAX);
		if (*nlog < LAB_LOG_MAX && !l->cancelled) {
			add_event(l, (struct event){'l', 0, shown, NULL, NULL});
			++*nlog;
		} else {
			free(shown);
		}
		return;
	}
	size_t before = l->nev;
	parse_line(l, line);
	if (l->nev == before + 1 && l->ev[before].kind == 'l') {
		if (*nlog < LAB_LOG_MAX) {
			++*nlog;
		} else {
			free(l->ev[before].text);
			l->nev = before;
			if (*nlog == LAB_LOG_MAX) { /* once */
				add_event(l, (struct event){'l', 0,
							    wb_xstrdup("… more output, not shown"),
							    NULL, NULL});
				++*nlog;
			}
		}
	}
}

/* Reads what the child wrote and turns whole lines into events, within
 * LAB_LINE_MAX and LAB_LOG_MAX; after a cancel the output is still read
 * (the child never blocks), but only the supervisor's "cancelled" event is
 * kept.  A line being read stays in l->partial; one that reached
 * LAB_LINE_MAX bytes is being cut (the rest of it is dropped). */
static void drain(struct labscr *l)
{
	size_t nlog = 0;
	for (size_t i = 0; i < l->nev; i++)
		nlog += l->ev[i].kind == 'l';
	char buf[4096];
	for (;;) {
		ssize_t n = read(l->fd, buf, sizeof buf);
		if (n <= 0) {
			if (n == 0 || (errno != EAGAIN && errno != EINTR))
				close_output(l);
			break;
		}
		const char *p = buf;
		size_t left = (size_t)n;
		while (left > 0) {
			const char *nl = memchr(p, '\n', left);
			size_t take = nl ? (size_t)(nl - p) : left;
			size_t room = LAB_LINE_MAX - l->partial.len;
			wb_buf_append(&l->partial, p, take < room ? take : room);
			if (!nl)
				break;
			int cut = l->partial.len >= LAB_LINE_MAX;
			char *line = wb_buf_steal(&l->partial);
			take_line(l, line, cut, &nlog);
			free(line);
			p = nl + 1;
			left -= take + 1;
		}
	}
}

static int lab_poll_fd(void *self)
{
	const struct labscr *l = self;
	return l->fd;
}

static void lab_readable(struct tui *t, void *self)
{
	(void)t;
	struct labscr *l = self;
	if (l->fd >= 0)
		drain(l);
}

static void start_run(struct tui *t, struct labscr *l)
{
	close_output(l);
	l->kill_at = 0;
	if (start_child(t, l) != 0)
		tui_flash(t, i18n(t->app->lang, M_LAB_CANNOT_START), strerror(errno));
}

/* Reaps the child, escalates a cancel past its deadline, and starts the
 * run asked for with r once the cancelled one is gone. */
static int lab_tick(struct tui *t, void *self)
{
	struct labscr *l = self;
	reap(l, 0);
	if (l->pid && l->kill_at && mono_now_ms() >= l->kill_at) {
		kill(-l->pid, SIGKILL);
		l->kill_at = 0;
	}
	if (!l->pid && l->cancelled) {
		close_output(l);
		if (l->rerun) {
			l->rerun = 0;
			start_run(t, l);
		}
	}
	return l->pid ? 50 : 0;
}

/* Appends text wrapped to width - indent, each line prefixed by indent
 * spaces, to the growing array *out of *n lines. */
static void add_wrapped(const char *text, int indent, int width, char ***out, size_t *n)
{
	char **lines;
	size_t k = wrap_text(text, width - indent, &lines);
	*out = wb_xrealloc(*out, (*n + k + 1) * sizeof **out);
	for (size_t i = 0; i < k; i++) {
		(*out)[(*n)++] = wb_xasprintf("%*s%s", indent, "", lines[i]);
	}
	wrap_text_free(lines, k);
}

/* A control check ("control-..."): the naive variant the lab shows
 * failing, so its ✔ means the failure was seen. */
static int is_control(const struct event *e)
{
	return e->kind == 'c' && e->ok && !strncmp(e->text, "control-", 8);
}

/* One event as display lines (wrapped to width); returns lines added. */
static size_t event_lines(const struct event *e, int width, const char *lang, char ***out)
{
	size_t n = 0;
	*out = NULL;
	char *a = NULL, *b = NULL, *c = NULL;
	switch (e->kind) {
	case 's':
		a = wb_xasprintf("• %s", e->text);
		add_wrapped(a, 0, width, out, &n);
		break;
	case 'c':
		a = wb_xasprintf("%s %s%s", e->ok ? "✔" : "✘", e->text,
				 is_control(e) ? i18n(lang, M_LAB_CONTROL_OK) : "");
		b = wb_xasprintf("%s%s", i18n(lang, M_LAB_EXPECTED), e->expected);
		c = wb_xasprintf("%s%s", i18n(lang, M_LAB_OBSERVED), e->observed);
		add_wrapped(a, 0, width, out, &n);
		add_wrapped(b, 4, width, out, &n);
		add_wrapped(c, 4, width, out, &n);
		break;
	case 'e':
		a = wb_xasprintf("· %s = %s", e->text, e->observed);
		add_wrapped(a, 2, width, out, &n);
		break;
	case 'k':
		a = wb_xasprintf("⇒ %s %s", i18n(lang, M_LAB_CONCLUSION), e->text);
		add_wrapped(a, 0, width, out, &n);
		break;
	case 'v': break;
	case 'l': add_wrapped(e->text, 2, width, out, &n); break;
	case 'h': add_wrapped(e->text, 0, width, out, &n); break;
	default:
		a = wb_xasprintf("! %s", e->text);
		add_wrapped(a, 0, width, out, &n);
		break;
	}
	free(a);
	free(b);
	free(c);
	return n;
}

static int event_attr(const struct event *e)
{
	switch (e->kind) {
	case 'c': return e->ok ? A_NORMAL : A_BOLD;
	case 'e': return A_DIM;
	case '!': return A_BOLD;
	case 'l': return A_DIM;
	case 'k': return A_BOLD;
	case 'h': return A_BOLD;
	default: return 0;
	}
}

/* The screen's lines, built each frame (a run is small). */
struct lines {
	char **text;
	int *attr;
	size_t n;
	size_t anchor; /* when done: the line after the conclusion block */
};

static void add_lines(struct lines *out, const struct event *e, int width, const char *lang)
{
	char **k;
	size_t n = event_lines(e, width, lang, &k);
	out->text = wb_xrealloc(out->text, (out->n + n + 1) * sizeof *out->text);
	out->attr = wb_xrealloc(out->attr, (out->n + n + 1) * sizeof *out->attr);
	for (size_t j = 0; j < n; j++) {
		out->text[out->n + j] = k[j];
		out->attr[out->n + j] = event_attr(e);
	}
	free(k);
	out->n += n;
}

/* A line of the screen's own (a heading, a note; "" for a blank line). */
static void add_text(struct lines *out, const char *text, int attr, int width)
{
	char **k = NULL;
	size_t n = 0;
	if (*text) {
		add_wrapped(text, 0, width, &k, &n);
	} else {
		k = wb_xmalloc(sizeof *k);
		k[n++] = wb_xstrdup("");
	}
	out->text = wb_xrealloc(out->text, (out->n + n + 1) * sizeof *out->text);
	out->attr = wb_xrealloc(out->attr, (out->n + n + 1) * sizeof *out->attr);
	for (size_t j = 0; j < n; j++) {
		out->text[out->n + j] = k[j];
		out->attr[out->n + j] = attr;
	}
	free(k);
	out->n += n;
}

/* What the cancel stopped and removed, once the child is gone. */
static void add_cancel_note(struct lines *out, const struct labscr *l, int width, const char *lang)
{
	char *s;
	if (l->confirmed)
		s = wb_xasprintf(i18n(lang, M_LAB_CANCEL_DONE), l->stopped);
	else
		s = wb_xstrdup(i18n(lang, M_LAB_CANCEL_FORCED));
	add_text(out, "", 0, width);
	add_text(out, s, A_BOLD, width);
	free(s);
}

/* While running: the events as they came.  When done: steps and checks,
 * then the conclusion (or what a cancel stopped), then the evidence under
 * its own heading. */
static struct lines lay_out(const struct labscr *l, int width, const char *lang)
{
	struct lines out = {0};
	int done = !l->pid && (l->finished || l->cancelled);
	size_t nevidence = 0;
	for (size_t i = 0; i < l->nev; i++) {
		if (done && (l->ev[i].kind == 'e' || l->ev[i].kind == 'k')) {
			nevidence += l->ev[i].kind == 'e';
			continue;
		}
		add_lines(&out, &l->ev[i], width, lang);
	}
	if (!done)
		return out;
	for (size_t i = 0; i < l->nev; i++)
		if (l->ev[i].kind == 'k') {
			add_text(&out, "", 0, width);
			add_lines(&out, &l->ev[i], width, lang);
		}
	if (l->cancelled)
		add_cancel_note(&out, l, width, lang);
	out.anchor = out.n;
	if (nevidence) {
		char *h = wb_xasprintf(i18n(lang, M_LAB_EVIDENCE), nevidence);
		add_text(&out, "", 0, width);
		add_text(&out, h, A_BOLD, width);
		free(h);
		for (size_t i = 0; i < l->nev; i++)
			if (l->ev[i].kind == 'e')
				add_lines(&out, &l->ev[i], width, lang);
	}
	return out;
}

static void lines_free(struct lines *x)
{
	wrap_text_free(x->text, x->n);
	free(x->attr);
}

/* The status line: state, checks held, and the clock (stopped once the
 * run is over or cancelled). */
static void lab_status(struct tui *t, const struct labscr *l)
{
	const char *lang = t->app->lang;
	char left[256], right[64];
	long long ms = l->finished && l->ms && !l->cancelled ? l->ms
		       : l->end_ms			     ? l->end_ms - l->start_ms
							     : mono_now_ms() - l->start_ms;
	int checks = 0, failed = 0;
	for (size_t i = 0; i < l->nev; i++)
		if (l->ev[i].kind == 'c') {
			checks++;
			failed += !l->ev[i].ok;
		}
	enum msg state;
	if (l->pid && l->cancelled)
		state = M_LAB_CANCELLING;
	else if (l->pid && !l->finished)
		state = M_LAB_RUNNING;
	else if (l->cancelled)
		state = M_LAB_CANCELLED;
	else if (l->passed)
		state = M_LAB_PASS;
	else if (l->exit_code == LAB_EXIT_CANNOT)
		state = M_LAB_CANNOT;
	else
		state = M_LAB_FAIL;
	snprintf(left, sizeof left, "%s  %d/%d %s", i18n(lang, state), checks - failed, checks,
		 i18n(lang, M_LAB_CHECKS_HELD));
	snprintf(right, sizeof right, "%.1f s  ? %s", ms / 1000.0, i18n(lang, M_HELP_WORD));
	term_status(t, left, right);
}

static int lab_rows(void)
{
	return LINES - 3;
}

static void lab_draw(struct tui *t, void *self)
{
	struct labscr *l = self;
	const char *lang = t->app->lang;
	erase();
	char *title = l->ex ? wb_xasprintf("%s %s — %s", i18n(lang, M_EX_CARD), l->ex->id,
					   excat_title(l->ex, lang))
			    : wb_xasprintf("%s %s — %s", i18n(lang, M_LAB_TITLE), l->lab->id,
					   lab_title(l->lab, lang));
	term_text(0, 1, title, COLS - 2, term_attr_heading(t));
	free(title);

	int width = COLS - 2;
	if (l->show_tl) {
		tlview_draw(l->tl, 2, 1, lab_rows(), width, lang);
		lab_status(t, l);
		return;
	}
	struct lines x = lay_out(l, width, lang);
	int rows = lab_rows();
	int maxtop = (int)x.n > rows ? (int)x.n - rows : 0;
	if (l->follow) {
		/* Done: the view ends with the conclusion, the evidence below. */
		int end = x.anchor ? (int)x.anchor : (int)x.n;
		l->top = end > rows ? end - rows : 0;
	}
	if (l->top > maxtop)
		l->top = maxtop;
	for (int i = 0; i < rows && l->top + i < (int)x.n; i++)
		term_text(2 + i, 1, x.text[l->top + i], width, x.attr[l->top + i]);
	lines_free(&x);
	lab_status(t, l);
}

/* Asks nav.c for the recipe source the lab exercises; the run goes on.
 * The path is relative to the source tree: the source view shows it so. */
static void open_source(struct tui *t, const struct labscr *l)
{
	if (!l->lab->recipe_file) {
		tui_flash(t, "%s", i18n(t->app->lang, M_LAB_NO_RECIPE));
		return;
	}
	struct nav n = {.kind = NAV_SOURCE};
	snprintf(n.arg, sizeof n.arg, "%s", l->lab->recipe_file);
	snprintf(n.func, sizeof n.func, "%s", l->lab->recipe_func ? l->lab->recipe_func : "");
	tui_go(t, &n);
}

/* Suspends curses, runs $VISUAL/$EDITOR (else vi) on the learner's file
 * and takes the terminal back.  Returns 0, or -1 when there is no editor
 * (a notice with the path) or it failed (said on the status line). */
static int edit_file(struct tui *t, struct labscr *l)
{
	const char *lang = t->app->lang;
	const char *ed = exws_editor(1);
	if (!ed) {
		tui_flash(t, i18n(lang, M_EX_NO_EDITOR), l->ex_path);
		return -1;
	}
	term_suspend(t);
	int st = exws_run_editor(ed, l->ex_path);
	term_resume(t);
	if (st != 0) {
		tui_flash(t, i18n(lang, M_EX_EDITOR_FAILED), ed, st);
		return -1;
	}
	return 0;
}

/* The next of the exercise's hints, recorded and added to the screen;
 * once all are shown, the last again. */
static void show_hint(struct tui *t, struct labscr *l)
{
	const char *lang = t->app->lang;
	char *hint[EXWS_HINTS], err[512];
	struct store_ex_state x;
	if (exws_hints_load(t->app->content, l->ex->id, lang, hint, err, sizeof err) != 0) {
		tui_flash(t, "%s", err);
		return;
	}
	if (store_ex_get(t->store, l->ex->id, &x) != 0) {
		tui_flash(t, "%s", store_errmsg(t->store));
		exws_hints_free(hint);
		return;
	}
	int k = x.hints < EXWS_HINTS ? x.hints : EXWS_HINTS - 1;
	if (x.hints < EXWS_HINTS && store_ex_add(t->store, l->ex->id, STORE_EX_HINT, k + 1, 0) != 0)
		tui_flash(t, "%s", store_errmsg(t->store));
	char *head = wb_xasprintf(i18n(lang, M_EX_HINT_N), k + 1, EXWS_HINTS);
	add_event(l, (struct event){'h', 0, wb_xasprintf("%s: %s", head, hint[k]), NULL, NULL});
	free(head);
	l->follow = 1;
	exws_hints_free(hint);
}

static void scroll_by(struct labscr *l, int delta)
{
	l->top += delta;
	if (l->top < 0)
		l->top = 0;
	l->follow = 0;
}

/* The pager's keys and t while the timeline view is shown; returns 1
 * when the key was the view's.  rows: the page the pager moves by, plus
 * one (pager.h keeps a line of context). */
static int timeline_key(struct labscr *l, int action, long rows)
{
	long delta;
	if (action == PAGER_TOP)
		tlview_jump(l->tl, 1);
	else if (action == PAGER_BOTTOM)
		tlview_jump(l->tl, 0);
	else if (pager_target(action, 0, rows, 0, &delta))
		tlview_scroll(l->tl, (int)delta);
	else if (action == L_TIMELINE)
		l->show_tl = 0;
	else
		return 0;
	return 1;
}

static void lab_key(struct tui *t, void *self, int action, wint_t ch, int is_code)
{
	(void)ch;
	(void)is_code;
	struct labscr *l = self;
	long rows = (lab_rows() > 2 ? lab_rows() - 1 : 1) + 1, to;
	if (l->show_tl && timeline_key(l, action, rows))
		return;
	if (action == PAGER_BOTTOM) {
		l->follow = l->pid && !l->finished; /* live: keep following */
		l->top = 1 << 30;		    /* clipped to the last page */
		return;
	}
	if (pager_target(action, l->top, rows, 1 << 30, &to)) {
		scroll_by(l, (int)(to - l->top));
		return;
	}
	switch (action) {
	case L_CANCEL: cancel(l); break;
	case L_RERUN:
		if (l->pid) {
			cancel(l); /* lab_tick starts the new run once this one is gone */
			l->rerun = 1;
		} else {
			start_run(t, l);
		}
		break;
	case L_SOURCE:
		if (!l->ex)
			open_source(t, l);
		break;
	case L_TIMELINE: l->show_tl = 1; break;
	case L_EDIT:
		if (l->ex) {
			if (l->pid)
				cancel_and_wait(l);
			if (edit_file(t, l) == 0)
				start_run(t, l);
		}
		break;
	case L_HINT:
		if (l->ex)
			show_hint(t, l);
		break;
	case L_BACK: tui_back(t); break; /* lab_leave stops a run */
	}
}

static void lab_leave(struct tui *t, void *self)
{
	(void)t;
	cancel_and_wait(self);
}

static void lab_free(void *self)
{
	struct labscr *l = self;
	cancel_and_wait(l);
	free_events(l);
	wb_buf_free(&l->partial);
	tlview_free(l->tl);
	free(l->chapter);
	free(l->ex_path);
	free(l);
}

/* The screen object around l (a started run). */
static struct screen lab_screen(struct labscr *l)
{
	return (struct screen){
		.name = "lab",
		.self = l,
		.draw = lab_draw,
		.key = lab_key,
		.tick = lab_tick,
		.poll_fd = lab_poll_fd,
		.on_readable = lab_readable,
		.leave = lab_leave,
		.free = lab_free,
		.keys = l->ex ? exercise_keys : lab_keys,
		.nkeys = l->ex ? WB_ARRAY_LEN(exercise_keys) : WB_ARRAY_LEN(lab_keys),
	};
}

int lab_exercise_open(struct tui *t, const char *ex_id, const char *chapter, struct screen *out)
{
	const struct excat_entry *e = excat_find(ex_id);
	const struct lab *lab = e ? lab_find(e->lab) : NULL;
	if (!lab)
		return WB_ENOENT;
	char err[512], *path;
	int created;
	if (exws_start(t->app->content, e, &path, &created, err, sizeof err) != 0) {
		tui_flash(t, "%s", err);
		return WB_EIO;
	}
	if (store_ex_add(t->store, e->id, STORE_EX_START, 0, 0) != 0)
		tui_flash(t, "%s", store_errmsg(t->store));
	struct labscr *l = wb_xcalloc(1, sizeof *l);
	l->lab = lab;
	l->ex = e;
	l->ex_path = path;
	l->fd = -1;
	l->tl = tlview_new();
	l->chapter = wb_xstrdup(chapter ? chapter : "");
	edit_file(t, l); /* no editor: the notice says where the file is; it is checked as is */
	if (start_child(t, l) != 0) {
		lab_free(l);
		return WB_EIO;
	}
	*out = lab_screen(l);
	return 0;
}

int lab_screen_open(struct tui *t, const char *lab_id, const char *chapter, struct screen *out)
{
	const struct lab *lab = lab_find(lab_id);
	if (!lab)
		return WB_ENOENT;
	struct labscr *l = wb_xcalloc(1, sizeof *l);
	l->lab = lab;
	l->fd = -1;
	l->tl = tlview_new();
	l->chapter = wb_xstrdup(chapter ? chapter : "");
	if (start_child(t, l) != 0) {
		lab_free(l);
		return WB_EIO;
	}
	*out = lab_screen(l);
	return 0;
}
