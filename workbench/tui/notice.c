/*
 * notice.c - the "lesson is closed during a test" notice: nav.c shows it
 * in place of a lesson that the running self-test asks questions of.  The
 * learner continues the test, abandons it (A, then y: and reads the
 * lesson), or goes back.  Whether the lesson is closed is decided by nav.c, not here; this
 * screen draws and asks nav.c for the next screen.
 */
#include "tui/notice.h"
#include "app.h"
#include "core/clock.h"
#include "core/session.h"
#include "core/i18n.h"
#include "core/wrap.h"
#include "base/wb.h"
#include "tui/term.h"
#include "tui/tui.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct blocked {
	char chapter[64];      /* the lesson asked for */
	char lang[8];	       /* its language */
	size_t answered;       /* of the running test */
	size_t n;	       /* questions of the running test */
	char test_chapter[64]; /* the running test's chapter, "" for a review */
	int confirm;	       /* asking "abandon the test?" (y/n) */
};

enum { B_CONTINUE, B_ABANDON, B_BACK, B_YES, B_NO };

static const struct keybind blocked_keys[] = {
	{'c', 0, "c", B_CONTINUE, "continue the test", "继续测验"},
	{'\r', 0, "Enter", B_CONTINUE, "continue the test", "继续测验"},
	{'A', 0, "A", B_ABANDON, "abandon the test and open the lesson", "放弃测验并打开课文"},
	{'q', 0, "q", B_BACK, "back", "返回"},
	{KEY_LEFT, 1, "←", B_BACK, "back", "返回"},
	{'y', 0, "y", B_YES, "yes (after A)", "是（按 A 之后）"},
	{'n', 0, "n", B_NO, "no (after A)", "否（按 A 之后）"},
};

static void blocked_draw(struct tui *t, void *self)
{
	struct blocked *b = self;
	const char *L = t->app->lang;
	erase();
	char buf[512];
	snprintf(buf, sizeof buf, i18n(L, M_QUIZ_BLOCKED), b->answered, b->n);
	int y = 2;
	const char *parts[] = {buf, i18n(L, M_QUIZ_BLOCKED_WHY)};
	for (size_t k = 0; k < 2; k++) {
		char **lines;
		size_t n = wrap_text(parts[k], COLS - 4, &lines);
		for (size_t i = 0; i < n; i++)
			term_text(y++, 2, lines[i], COLS - 4, k == 0 ? A_BOLD : 0);
		wrap_text_free(lines, n);
		y++;
	}
	term_status(t, i18n(L, b->confirm ? M_QUIZ_BLOCKED_ABANDON_ASK : M_QUIZ_BLOCKED_KEYS), "");
}

static void blocked_key(struct tui *t, void *self, int action, wint_t ch, int is_code)
{
	(void)ch;
	(void)is_code;
	struct blocked *b = self;
	struct nav n = {.replace_top = 1};
	snprintf(n.lang, sizeof n.lang, "%s", b->lang);
	if (b->confirm) { /* "Abandon the test?": only y abandons */
		b->confirm = 0;
		if (action != B_YES)
			return;
		action = B_ABANDON;
	} else if (action == B_ABANDON) {
		b->confirm = 1;
		return;
	}
	switch (action) {
	case B_CONTINUE:
		n.kind = b->test_chapter[0] ? NAV_TEST : NAV_REVIEW;
		snprintf(n.chapter, sizeof n.chapter, "%s", b->test_chapter);
		tui_go(t, &n);
		break;
	case B_ABANDON:
		answers_abandon_running(t->store, answers_now_ms());
		tui_flash(t, "%s", i18n(b->lang, M_QUIZ_ABANDONED));
		n.kind = NAV_READER;
		snprintf(n.chapter, sizeof n.chapter, "%s", b->chapter);
		tui_go(t, &n);
		break;
	case B_BACK: tui_back(t); break;
	}
}

static void blocked_free(void *self)
{
	free(self);
}

void notice_lesson_closed(struct tui *t, const char *chapter, const char *lang,
			  const struct quiz_test *run, struct screen *out)
{
	(void)t;
	struct blocked *b = wb_xcalloc(1, sizeof *b);
	snprintf(b->chapter, sizeof b->chapter, "%s", chapter);
	snprintf(b->lang, sizeof b->lang, "%s", lang);
	b->answered = run->answered;
	b->n = run->n;
	snprintf(b->test_chapter, sizeof b->test_chapter, "%s", run->chapter ? run->chapter : "");
	*out = (struct screen){
		.name = "lesson-closed",
		.self = b,
		.draw = blocked_draw,
		.key = blocked_key,
		.free = blocked_free,
		.keys = blocked_keys,
		.nkeys = WB_ARRAY_LEN(blocked_keys),
	};
}
