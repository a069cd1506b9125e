/*
 * nav.c - the router: the one file that knows every screen.  Screens ask
 * for a change with tui_go(t, &(struct nav){...}); the main loop hands the
 * request here after the key handler returned, and this file builds the
 * new screen and pushes it (or pops the top one).
 *
 * So the include graph of tui/ is a star: this file includes every screen
 * header, no screen includes another's, and a screen never changes the
 * stack under its own feet.  It also applies the one rule that decides
 * between screens: a lesson stays closed while a running self-test asks
 * questions of its chapter (lesson_closed_by_test, which asks core's
 * quiz_session_blocks_lesson).  It draws nothing.
 */
#include "tui/nav.h"
#include "app.h"
#include "core/session.h"
#include "core/store.h"
#include "core/i18n.h"
#include "base/wb.h"
#include "tui/glossary.h"
#include "tui/home.h"
#include "tui/labscreen.h"
#include "tui/notice.h"
#include "tui/quiz.h"
#include "tui/reader.h"
#include "tui/source.h"
#include "tui/stats.h"
#include "tui/tui.h"

#include <string.h>

/* The closed-book rule is core's (quiz_session_blocks_lesson): returns 1
 * and the running test in *run (the caller frees it) when that test
 * closes the lesson of chapter; 0 otherwise, also when the database
 * cannot be read (the lesson then opens). */
static int lesson_closed_by_test(struct tui *t, const char *chapter, struct quiz_test **run)
{
	if (quiz_session_blocks_lesson(t->store, chapter, run) != 0)
		return 0;
	return *run != NULL;
}

/* The lesson, or the "lesson is closed" notice in its place. */
static int open_lesson(struct tui *t, const struct nav *n, struct screen *out)
{
	struct quiz_test *run;
	if (lesson_closed_by_test(t, n->chapter, &run)) {
		notice_lesson_closed(t, n->chapter, n->lang, run, out);
		quiz_test_free(run);
		return 0;
	}
	int rc = reader_open(t, n->chapter, n->lang, n->arg, out);
	if (rc)
		tui_flash(t, i18n(t->app->lang, M_LOAD_FAILED), n->chapter,
			  rc == WB_ERANGE ? "> 4 MiB" : wb_strerror(rc));
	return rc;
}

static int open_source(struct tui *t, const struct nav *n, struct screen *out)
{
	int rc = source_open(t, n->arg, n->func, out);
	if (rc)
		tui_flash(t, i18n(t->app->lang, M_SOURCE_NOT_FOUND), n->arg, wb_strerror(rc));
	return rc;
}

static int open_glossary(struct tui *t, const struct nav *n, struct screen *out)
{
	int rc = glossary_open(t, n->lang, n->arg, out);
	if (rc)
		tui_flash(t, "%s", i18n(n->lang[0] ? n->lang : t->app->lang, M_GLOSSARY_MISSING));
	return rc;
}

static int open_lab(struct tui *t, const struct nav *n, struct screen *out)
{
	int rc = lab_screen_open(t, n->arg, n->chapter, out);
	if (rc)
		tui_flash(t, i18n(t->app->lang, M_LAB_NOT_BUILT), n->arg);
	return rc;
}

static int open_exercise(struct tui *t, const struct nav *n, struct screen *out)
{
	int rc = lab_exercise_open(t, n->arg, n->chapter, out);
	if (rc == WB_ENOENT)
		tui_flash(t, i18n(t->app->lang, M_EX_NOT_BUILT), n->arg);
	return rc;
}

/* A test that replaces a reader reopens it when the learner backs out of
 * the "another test is running" question. */
static int open_test(struct tui *t, const struct nav *n, struct screen *out)
{
	int over_reader =
		n->replace_top && t->depth > 0 && !strcmp(t->stack[t->depth - 1].name, "reader");
	int rc = quiz_open(t, n->kind == NAV_TEST ? n->chapter : NULL, n->lang, over_reader, out);
	/* `s` always answers: a test that could not start says why, even
	 * when the screen that would have shown it is gone (a full disk). */
	const char *L = t->app->lang;
	if (rc == WB_ENOSPC)
		tui_flash(t, "%s", i18n(L, M_TEST_FULL));
	else if (rc && !t->message[0])
		tui_flash(t, i18n(L, M_TEST_NOT_STARTED), store_errmsg(t->store));
	return rc;
}

int nav_apply(struct tui *t, const struct nav *n)
{
	struct screen s;
	int rc = 0;
	switch (n->kind) {
	case NAV_NONE: return 0;
	case NAV_BACK: tui_pop(t); return 0;
	case NAV_HOME: s = home_screen(t); break;
	case NAV_READER: rc = open_lesson(t, n, &s); break;
	case NAV_SOURCE: rc = open_source(t, n, &s); break;
	case NAV_LAB: rc = open_lab(t, n, &s); break;
	case NAV_TEST:
	case NAV_REVIEW: rc = open_test(t, n, &s); break;
	case NAV_STATS: s = stats_screen(t); break;
	case NAV_GLOSSARY: rc = open_glossary(t, n, &s); break;
	case NAV_EXERCISE: rc = open_exercise(t, n, &s); break;
	default: return WB_EINVAL;
	}
	if (rc)
		return rc;
	if (n->replace_top) {
		int quit = t->quit; /* an empty stack for a moment is no reason to quit */
		tui_pop(t);
		t->quit = quit;
	}
	tui_push(t, s);
	return 0;
}
