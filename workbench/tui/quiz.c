/*
 * tui/quiz.c - the closed-book self-test screen: chapter tests and the
 * review of due questions.
 *
 * Flow per question: recall -> write in a text box (or not) -> Tab
 * reveals the reference answer and rubric beside the learner's text ->
 * tick the points covered -> grade Again / Partly / Got it (the ticks
 * suggest one).  Choice and numeric questions are graded on submit and
 * then show the reference answer.  Every grade is saved at once by
 * core/answers.c; `u` undoes the last one.
 *
 * Text entry is a state of this screen (QS_EDIT) with its own key table
 * that takes text: the main loop hands it '?', 'q' and every printable
 * key instead of opening help (F1 does).  Each state has one key handler;
 * the transitions, and the function that makes each:
 *
 *   state     key                      handler       next state
 *   LENGTH    j k 1-3                  length_key    LENGTH (12, 24 or all questions)
 *             Enter                    length_key    EDIT/ANSWER (the test starts)
 *             q Esc                    length_key    back (nothing started)
 *   CONFLICT  c                        conflict_key  EDIT/ANSWER (resumed), or back
 *             A, then y                conflict_key  LENGTH (for the new test), or back
 *             q n                      conflict_key  back (the reader again, if replaced)
 *   EDIT      Tab, Enter on a number   edit_done     REVEAL (recall), RESULT (graded),
 *                                                    EDIT (not a number, not saved)
 *             Esc                      edit_key      EDIT, the command keys shown/hidden
 *             ^P                       leave_paused  back (paused, the text kept as a draft)
 *             ^R                       undo          the undone question's state
 *             ^X                       edit_key      ABANDON
 *             ^L                       switch_lang   EDIT, in the other language
 *             text, editing keys       edit_key      EDIT
 *   ANSWER    j k Space x 1-9          mark_key      ANSWER (choice questions only)
 *             Enter                    submit_choice RESULT
 *             q ^P                     leave_paused  back (test paused)
 *   REVEAL    j k Space x 1-9          mark_key      REVEAL
 *             a p g Enter              grade_recall  next question (EDIT/ANSWER) or SUMMARY
 *             g with no point ticked   reveal_key    REVEAL asking y/n (y grades Got it)
 *             q ^P                     leave_paused  back (test paused)
 *   RESULT    Enter Space j            result_key    next question or SUMMARY
 *             q ^P                     leave_paused  back (test paused)
 *   ANSWER REVEAL RESULT
 *             A ^X                     question_key  ABANDON
 *             u ^R                     undo          the undone question's state (a
 *                                                    number: EDIT, typing works again)
 *             PgUp PgDn                question_key  same
 *             L ^L                     switch_lang   same, in the other language
 *   ABANDON   y                        abandon_key   back (test abandoned)
 *             n Esc q                  abandon_key   the state before
 *   SUMMARY   j k                      summary_key   SUMMARY
 *             Enter r                  summary_key   the weakest question's lesson
 *             q                        summary_key   back
 *
 * Letters typed into an answer never become commands: written questions
 * stay in EDIT until they are done, Esc there only shows the command keys
 * (control keys) on the status line, and every abandon asks y/n first.
 *
 * "back" and "the lesson" are requests to nav.c (tui_go); they happen
 * after the handler returns.  Whether to resume, start, or ask about
 * another running test is core's policy (quiz_session_open); this file
 * only words its outcome (open_session).
 *
 * This file draws and turns keys into model calls; it does not touch SQL
 * or parse bank files itself.
 */
#include "tui/quiz.h"
#include "app.h"
#include "core/answers.h"
#include "core/clock.h"
#include "core/progress.h"
#include "core/session.h"
#include "core/content.h"
#include "core/i18n.h"
#include "core/wrap.h"
#include "core/lesson.h"
#include "core/quizbank.h"
#include "core/store.h"
#include "core/utf8.h"
#include "base/wb.h"
#include "tui/page.h"
#include "tui/term.h"
#include "tui/textbox.h"
#include "tui/tui.h"

#include <curses.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the screen ---- */

enum qstate {
	QS_CONFLICT, /* another test runs: continue it or abandon it */
	QS_ANSWER,   /* the question, keys are commands */
	QS_EDIT,     /* recall/numeric: the text box takes the keys */
	QS_REVEAL,   /* recall: own text beside the reference and rubric */
	QS_RESULT,   /* choice/numeric: graded, reference shown */
	QS_ABANDON,  /* confirm abandoning */
	QS_SUMMARY,  /* the end */
	QS_LENGTH,   /* before a new test: how long, and Enter to start */
};

enum {
	A_ENTER,
	A_REVEAL,
	A_TOGGLE,
	A_UP,
	A_DOWN,
	A_PGUP,
	A_PGDN,
	A_DIGIT,
	A_AGAIN,
	A_PARTLY,
	A_GOT,
	A_UNDO,
	A_QUIT,
	A_ABANDON,
	A_CONTINUE,
	A_REREAD,
	A_YES,
	A_NO,
	A_MOUSE,
	A_LANG,
};

static const struct keybind quiz_keys[] = {
	{'\r', 0, "Enter", A_ENTER, "write / submit / accept the suggested grade / next",
	 "作答 / 提交 / 采用建议评分 / 下一题"},
	{'\n', 0, "Enter", A_ENTER, "write / submit / accept the suggested grade / next",
	 "作答 / 提交 / 采用建议评分 / 下一题"},
	{KEY_ENTER, 1, "Enter", A_ENTER, "write / submit / accept the suggested grade / next",
	 "作答 / 提交 / 采用建议评分 / 下一题"},
	{'\t', 0, "Tab", A_REVEAL, "reveal the reference answer (recall)",
	 "查看参考答案（回忆题）"},
	{' ', 0, "Space", A_TOGGLE, "tick a rubric point / choose an option",
	 "勾选评分要点 / 选择选项"},
	{'x', 0, "x", A_TOGGLE, "tick a rubric point / choose an option",
	 "勾选评分要点 / 选择选项"},
	{'k', 0, "k", A_UP, "previous option or rubric point", "上一个选项或要点"},
	{KEY_UP, 1, "↑", A_UP, "previous option or rubric point", "上一个选项或要点"},
	{'j', 0, "j", A_DOWN, "next option or rubric point", "下一个选项或要点"},
	{KEY_DOWN, 1, "↓", A_DOWN, "next option or rubric point", "下一个选项或要点"},
	{KEY_PPAGE, 1, "PgUp", A_PGUP, "scroll up", "向上滚动"},
	{KEY_NPAGE, 1, "PgDn", A_PGDN, "scroll down", "向下滚动"},
	{KEY_MOUSE, 1, "wheel", A_MOUSE, "scroll", "滚动"},
	{'1', 0, "1-9", A_DIGIT, "tick point N / choose option N", "勾选第 N 个要点 / 选择第 N 项"},
	{'2', 0, "", A_DIGIT, "tick point N / choose option N", "勾选第 N 个要点 / 选择第 N 项"},
	{'3', 0, "", A_DIGIT, "tick point N / choose option N", "勾选第 N 个要点 / 选择第 N 项"},
	{'4', 0, "", A_DIGIT, "tick point N / choose option N", "勾选第 N 个要点 / 选择第 N 项"},
	{'5', 0, "", A_DIGIT, "tick point N / choose option N", "勾选第 N 个要点 / 选择第 N 项"},
	{'6', 0, "", A_DIGIT, "tick point N / choose option N", "勾选第 N 个要点 / 选择第 N 项"},
	{'7', 0, "", A_DIGIT, "tick point N / choose option N", "勾选第 N 个要点 / 选择第 N 项"},
	{'8', 0, "", A_DIGIT, "tick point N / choose option N", "勾选第 N 个要点 / 选择第 N 项"},
	{'9', 0, "", A_DIGIT, "tick point N / choose option N", "勾选第 N 个要点 / 选择第 N 项"},
	{'a', 0, "a", A_AGAIN, "grade: Again", "评分：没掌握"},
	{'p', 0, "p", A_PARTLY, "grade: Partly", "评分：部分掌握"},
	{'g', 0, "g", A_GOT, "grade: Got it", "评分：已掌握"},
	{'u', 0, "u", A_UNDO, "undo the last grade", "撤销上一次评分"},
	{'c', 0, "c", A_CONTINUE, "continue the test in progress", "继续进行中的测验"},
	{'y', 0, "y", A_YES, "yes", "是"},
	{'n', 0, "n", A_NO, "no", "否"},
	{'q', 0, "q", A_QUIT, "pause the test (s resumes it) / back",
	 "暂停测验（按 s 继续）/ 返回"},
	{16, 0, "^P", A_QUIT, "pause the test (s resumes it) / back",
	 "暂停测验（按 s 继续）/ 返回"},
	{18, 0, "^R", A_UNDO, "undo the last grade", "撤销上一次评分"},
	{'A', 0, "A", A_ABANDON, "abandon the test (asks first; graded answers are kept)",
	 "放弃测验（先确认；已评分的回答保留）"},
	{24, 0, "^X", A_ABANDON, "abandon the test (asks first; graded answers are kept)",
	 "放弃测验（先确认；已评分的回答保留）"},
	{'L', 0, "L", A_LANG, "switch language (English/中文): the test goes on where it is",
	 "切换语言（English/中文）：测验在原处继续"},
	{12, 0, "^L", A_LANG, "switch language (English/中文): the test goes on where it is",
	 "切换语言（English/中文）：测验在原处继续"},
};

/* The summary: the weakest questions, and the lesson to reread. */
static const struct keybind summary_keys[] = {
	{'k', 0, "k", A_UP, "previous weak question", "上一道薄弱题"},
	{KEY_UP, 1, "↑", A_UP, "previous weak question", "上一道薄弱题"},
	{'j', 0, "j", A_DOWN, "next weak question", "下一道薄弱题"},
	{KEY_DOWN, 1, "↓", A_DOWN, "next weak question", "下一道薄弱题"},
	{'\r', 0, "Enter", A_REREAD, "reread the lesson of the selected question",
	 "重读所选题目的课文"},
	{'\n', 0, "Enter", A_REREAD, "reread the lesson of the selected question",
	 "重读所选题目的课文"},
	{KEY_ENTER, 1, "Enter", A_REREAD, "reread the lesson of the selected question",
	 "重读所选题目的课文"},
	{'r', 0, "r", A_REREAD, "reread the lesson of the selected question", "重读所选题目的课文"},
	{'q', 0, "q", A_QUIT, "back", "返回"},
};

/* The length question (QS_LENGTH): pick a size, Enter starts. */
static const struct keybind length_keys[] = {
	{'k', 0, "k", A_UP, "previous length", "上一个长度"},
	{KEY_UP, 1, "↑", A_UP, "previous length", "上一个长度"},
	{'j', 0, "j", A_DOWN, "next length", "下一个长度"},
	{KEY_DOWN, 1, "↓", A_DOWN, "next length", "下一个长度"},
	{'1', 0, "1-3", A_DIGIT, "choose length N", "选择第 N 个长度"},
	{'2', 0, "", A_DIGIT, "choose length N", "选择第 N 个长度"},
	{'3', 0, "", A_DIGIT, "choose length N", "选择第 N 个长度"},
	{'\r', 0, "Enter", A_ENTER, "start the test", "开始测验"},
	{'\n', 0, "Enter", A_ENTER, "start the test", "开始测验"},
	{KEY_ENTER, 1, "Enter", A_ENTER, "start the test", "开始测验"},
	{'q', 0, "q", A_QUIT, "back: no test is started", "返回：不开始测验"},
	{27, 0, "Esc", A_QUIT, "back: no test is started", "返回：不开始测验"},
};

/* Text entry (QS_EDIT): every key the table does not bind is text, '?'
 * and 'q' included; F1 opens help.  No key turns later typing into
 * commands: the commands are control keys, and Esc only shows them (the
 * box keeps taking letters). */
enum {
	E_DONE,
	E_PAUSE,
	E_UNDO,
	E_ABANDON,
	E_PGUP,
	E_PGDN,
	E_ENTER,
	E_ESC,
	E_LEFT,
	E_RIGHT,
	E_UP,
	E_DOWN,
	E_HOME,
	E_END,
	E_BACKSPACE,
	E_DELETE,
	E_KILL_END,
	E_KILL_START,
	E_KILL_WORD,
	E_LANG,
};

static const struct keybind edit_keys[] = {
	{'\t', 0, "Tab", E_DONE, "done: reveal the reference / submit the number",
	 "写完：查看参考答案 / 提交数字"},
	{'\r', 0, "Enter", E_ENTER, "new line (a number: submit)", "换行（数字题：提交）"},
	{'\n', 0, "Enter", E_ENTER, "new line (a number: submit)", "换行（数字题：提交）"},
	{KEY_ENTER, 1, "Enter", E_ENTER, "new line (a number: submit)", "换行（数字题：提交）"},
	{27, 0, "Esc", E_ESC, "show or hide the command keys (letters still type)",
	 "显示或隐藏命令键（字母照常输入）"},
	{KEY_LEFT, 1, "←", E_LEFT, "cursor left", "光标左移"},
	{2, 0, "^B", E_LEFT, "cursor left", "光标左移"},
	{KEY_RIGHT, 1, "→", E_RIGHT, "cursor right", "光标右移"},
	{6, 0, "^F", E_RIGHT, "cursor right", "光标右移"},
	{KEY_UP, 1, "↑", E_UP, "cursor up a row", "光标上移一行"},
	{KEY_DOWN, 1, "↓", E_DOWN, "cursor down a row", "光标下移一行"},
	{KEY_HOME, 1, "Home", E_HOME, "start of the line", "行首"},
	{1, 0, "^A", E_HOME, "start of the line", "行首"},
	{KEY_END, 1, "End", E_END, "end of the line", "行尾"},
	{5, 0, "^E", E_END, "end of the line", "行尾"},
	{KEY_BACKSPACE, 1, "Backspace", E_BACKSPACE, "erase before the cursor", "删除光标前的字"},
	{127, 0, "", E_BACKSPACE, "erase before the cursor", "删除光标前的字"},
	{8, 0, "^H", E_BACKSPACE, "erase before the cursor", "删除光标前的字"},
	{KEY_DC, 1, "Del", E_DELETE, "erase under the cursor", "删除光标处的字"},
	{4, 0, "^D", E_DELETE, "erase under the cursor", "删除光标处的字"},
	{11, 0, "^K", E_KILL_END, "erase to the end of the line", "删除到行尾"},
	{21, 0, "^U", E_KILL_START, "erase to the start of the line", "删除到行首"},
	{23, 0, "^W", E_KILL_WORD, "erase the word before the cursor", "删除光标前的词"},
	{16, 0, "^P", E_PAUSE, "pause the test; the answer is kept as a draft",
	 "暂停测验；回答作为草稿保留"},
	{18, 0, "^R", E_UNDO, "undo the last grade", "撤销上一次评分"},
	{24, 0, "^X", E_ABANDON, "abandon the test (asks first)", "放弃测验（先确认）"},
	{12, 0, "^L", E_LANG, "switch language (English/中文); the answer stays in the box",
	 "切换语言（English/中文）；回答留在文本框里"},
	{KEY_PPAGE, 1, "PgUp", E_PGUP, "scroll the question up", "向上滚动题目"},
	{KEY_NPAGE, 1, "PgDn", E_PGDN, "scroll the question down", "向下滚动题目"},
};

struct quizscr {
	char lang[8];		       /* the test's language */
	struct quiz_bank *bank;	       /* questions of that language, owned */
	struct quiz_session *ss;       /* the test, owned; NULL while in conflict */
	char *title;		       /* chapter title for the header; NULL for review */
	enum qstate st;		       /* what the screen shows */
	enum qstate before_abandon;    /* state to return to when not abandoning */
	const struct quiz_question *q; /* the question shown */
	int64_t shown_at;	       /* when it was first shown (ms) */
	int64_t revealed_at;	       /* when the answer was revealed (ms), 0 not yet */
	struct textbox box;	       /* recall answer or numeric input */
	unsigned char *marks;	       /* choice picks or rubric ticks */
	size_t nmarks;		       /* options or rubric items */
	int sel;		       /* selected option / rubric item */
	int scroll;		       /* first content line shown */
	int correct;		       /* QS_RESULT: the auto-graded outcome */
	int show_cmds;		       /* QS_EDIT: the status line shows the command keys */
	size_t len_opts[3];	       /* QS_LENGTH: test sizes on offer, the last is all */
	size_t nlen;		       /* sizes on offer */
	int len_sel;		       /* the size selected */
	int follow;		       /* the selection moved: bring it into view once */
	int confirm;		       /* QS_CONFLICT: asking before abandoning the other */
	int confirm_got;	       /* QS_REVEAL: asking before Got it with no point ticked */
	size_t pos;		       /* position of q in the test */
	unsigned shown;		       /* questions begun so far: tells a new one */
	char note[256];		       /* status message until the next key */
	/* conflict */
	struct quiz_test *other; /* the running test we are not */
	char *want_chapter;	 /* what the learner asked for; NULL = review */
	char want_lang[8];	 /* the language asked for */
	int reopen_reader;	 /* the reader was replaced: reopen it on q */
	/* summary */
	struct answers_summary sum;
	size_t nweak; /* weak items listed */
	int weak_sel;
};

static const char *grade_name(const char *lang, int g)
{
	return i18n(lang, g == GRADE_GOT      ? M_GRADE_GOT
			  : g == GRADE_PARTLY ? M_GRADE_PARTLY
					      : M_GRADE_AGAIN);
}

static const char *kind_name(const char *lang, enum quiz_kind k)
{
	return i18n(lang, k == QK_RECALL   ? M_KIND_RECALL
			  : k == QK_CHOICE ? M_KIND_CHOICE
					   : M_KIND_NUMERIC);
}

/* A status message that stays until the next key (tui_flash lasts one
 * frame, and the main loop redraws several times a second). */
static void note(struct quizscr *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct quizscr *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->note, sizeof s->note, fmt, ap);
	va_end(ap);
}

/* The status line: the note if there is one, else the hint. */
static void status(struct tui *t, struct quizscr *s, const char *hint)
{
	term_status(t, s->note[0] ? s->note : hint, "");
}

/* ---- the model side of the screen ---- */

static char *lesson_title(struct tui *t, const char *lang, const char *chapter)
{
	struct chapter_list l;
	char *title = NULL;
	if (content_list_chapters(t->app->content, lang, &l) == 0) {
		for (size_t i = 0; i < l.n && !title; i++)
			if (!strcmp(l.items[i].id, chapter))
				title = wb_xstrdup(l.items[i].title);
		chapter_list_free(&l);
	}
	return title ? title : wb_xstrdup(chapter);
}

static void set_marks(struct quizscr *s, size_t n)
{
	free(s->marks);
	s->nmarks = n;
	s->marks = wb_xcalloc(n + 1, 1);
}

/* Marks from "1,3" (1-based). */
static void marks_from(struct quizscr *s, const char *list)
{
	for (const char *p = list; p && *p;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p) {
			p++;
			continue;
		}
		if (v >= 1 && (size_t)v <= s->nmarks)
			s->marks[v - 1] = 1;
		p = end;
	}
}

static char *marks_text(const struct quizscr *s)
{
	struct wb_buf b = {0};
	for (size_t i = 0; i < s->nmarks; i++)
		if (s->marks[i])
			wb_buf_printf(&b, "%s%zu", b.len ? "," : "", i + 1);
	return wb_buf_steal(&b);
}

static void finish(struct tui *t, struct quizscr *s);

/* Shows the current question (or the summary when none is left). */
static void begin_question(struct tui *t, struct quizscr *s)
{
	s->q = quiz_session_current(s->ss);
	if (!s->q) {
		finish(t, s);
		return;
	}
	s->st = QS_ANSWER;
	s->pos = s->ss->cur;
	s->shown++;
	s->shown_at = answers_now_ms();
	s->revealed_at = 0;
	textbox_clear(&s->box);
	set_marks(s, s->q->kind == QK_CHOICE ? s->q->noptions : s->q->nrubric);
	s->sel = 0;
	s->scroll = 0;
	if (s->q->kind == QK_CHOICE)
		return;
	s->st = QS_EDIT;
	/* The answer this question had when the test was paused. */
	char *draft = NULL;
	if (quiz_session_draft(s->ss, &draft) == 0 && draft) {
		textbox_set(&s->box, draft);
		size_t len = strlen(s->note);
		snprintf(s->note + len, sizeof s->note - len, "%s%s", len ? " · " : "",
			 i18n(s->lang, M_QUIZ_DRAFT_RESTORED));
	}
	free(draft);
}

static void reveal(struct quizscr *s)
{
	s->st = QS_REVEAL;
	s->confirm_got = 0;
	s->revealed_at = answers_now_ms();
	s->sel = 0;
	s->scroll = 0;
	s->follow = 0; /* the reveal opens at the top: the reference answer first */
}

static int save(struct tui *t, struct quizscr *s, struct answer *a)
{
	a->shown_at = s->shown_at;
	a->revealed_at = s->revealed_at;
	a->graded_at = answers_now_ms();
	int err = quiz_session_grade(s->ss, a);
	if (err == WB_EBUSY) {
		/* Another workbench holds the database: the screen stays as it
		 * is, so the same key tries again. */
		note(s, "%s %s", i18n(s->lang, M_QUIZ_BUSY), i18n(s->lang, M_QUIZ_BUSY_NOTHING));
		return err;
	}
	if (err == WB_ENOSPC) {
		/* A full disk: nothing was written; as for busy, the same key
		 * tries again once there is room. */
		note(s, "%s %s", i18n(s->lang, M_QUIZ_FULL), i18n(s->lang, M_QUIZ_FULL_RETRY));
		return err;
	}
	if (err == WB_ECONFLICT) {
		/* Another window graded this question or ended the test; the
		 * session has caught up, the screen follows it. */
		if (strcmp(s->ss->test->state, "running") != 0) {
			note(s, "%s", i18n(s->lang, M_QUIZ_ENDED_ELSEWHERE));
			finish(t, s);
		} else {
			note(s, i18n(s->lang, M_QUIZ_GRADED_ELSEWHERE), s->q->id,
			     grade_name(s->lang, quiz_session_grade_of(s->ss, s->q->id)));
			begin_question(t, s);
		}
		return err;
	}
	if (err) {
		note(s, i18n(s->lang, M_QUIZ_SAVE_FAILED), store_errmsg(t->store));
		return err;
	}
	note(s, i18n(s->lang, M_QUIZ_SAVED), grade_name(s->lang, a->grade), a->points,
	     a->max_points);
	return 0;
}

/* Recall: saves the chosen grade and moves on. */
static void grade_recall(struct tui *t, struct quizscr *s, int grade)
{
	struct answer a = {0};
	a.text = textbox_blank(&s->box) ? NULL : textbox_text(&s->box);
	a.ticked = marks_text(s);
	quiz_suggest_grade(s->q, s->marks, &a.points);
	a.grade = grade;
	int err = save(t, s, &a);
	answer_clear(&a);
	if (!err)
		begin_question(t, s);
}

static void submit_choice(struct tui *t, struct quizscr *s)
{
	int any = 0;
	for (size_t i = 0; i < s->nmarks; i++)
		any |= s->marks[i];
	if (!any)
		return;
	s->revealed_at = answers_now_ms();
	s->correct = quiz_grade_choice(s->q, s->marks);
	struct answer a = {0};
	a.text = marks_text(s);
	a.points = s->correct;
	a.grade = s->correct ? GRADE_GOT : GRADE_AGAIN;
	if (save(t, s, &a) == 0) {
		s->st = QS_RESULT;
		s->scroll = 0;
	}
	answer_clear(&a);
}

/* Returns 0 when graded, WB_EINVAL when the input is not a number. */
static int submit_numeric(struct tui *t, struct quizscr *s)
{
	char *in = textbox_text(&s->box);
	int r = quiz_grade_numeric(s->q, in, NULL);
	if (r < 0) {
		note(s, i18n(s->lang, M_QUIZ_NOT_NUMBER), in);
		free(in);
		return WB_EINVAL;
	}
	s->revealed_at = answers_now_ms();
	s->correct = r;
	struct answer a = {0};
	a.text = in;
	a.points = r;
	a.grade = r ? GRADE_GOT : GRADE_AGAIN;
	if (save(t, s, &a) == 0) {
		s->st = QS_RESULT;
		s->scroll = 0;
	}
	answer_clear(&a);
	return 0;
}

static void undo(struct tui *t, struct quizscr *s)
{
	struct answer a;
	int err = quiz_session_undo(s->ss, &a);
	if (err == WB_ECONFLICT) {
		note(s, "%s", i18n(s->lang, M_QUIZ_UNDO_ELSEWHERE));
		begin_question(t, s);
		return;
	}
	if (err == WB_EBUSY) {
		note(s, "%s %s", i18n(s->lang, M_QUIZ_BUSY), i18n(s->lang, M_QUIZ_BUSY_NOTHING));
		return;
	}
	if (err) {
		note(s, "%s", i18n(s->lang, M_QUIZ_NOTHING_TO_UNDO));
		return;
	}
	s->q = quiz_session_current(s->ss);
	if (!s->q || strcmp(s->q->id, a.question) != 0) {
		answer_clear(&a);
		begin_question(t, s);
		return;
	}
	/* Back to that question as it was graded. */
	s->pos = s->ss->cur;
	s->shown_at = a.shown_at;
	s->revealed_at = a.revealed_at;
	s->sel = 0;
	s->scroll = 0;
	set_marks(s, s->q->kind == QK_CHOICE ? s->q->noptions : s->q->nrubric);
	textbox_set(&s->box, s->q->kind == QK_CHOICE ? NULL : a.text);
	if (s->q->kind == QK_RECALL) {
		marks_from(s, a.ticked);
		s->st = QS_REVEAL;
	} else {
		if (s->q->kind == QK_CHOICE)
			marks_from(s, a.text);
		/* A number goes back into its box: typing works again. */
		s->st = s->q->kind == QK_CHOICE ? QS_ANSWER : QS_EDIT;
	}
	answer_clear(&a);
	note(s, "%s", i18n(s->lang, M_QUIZ_UNDONE));
}

static void finish(struct tui *t, struct quizscr *s)
{
	quiz_session_finish(s->ss, answers_now_ms());
	answers_summary_free(&s->sum);
	answers_test_summary(t->store, s->ss->test->uid, &s->sum);
	s->nweak = 0;
	for (size_t i = 0; i < s->sum.n && s->nweak < 5; i++) {
		const struct answers_item *it = &s->sum.items[i];
		if (it->points >= it->max_points && it->grade == GRADE_GOT)
			break;
		s->nweak++;
	}
	s->weak_sel = 0;
	s->st = QS_SUMMARY;
	s->q = NULL;
}

/* ---- drawing ---- */

/* Box geometry shared by drawing and editing. */
static int box_width(void)
{
	return COLS - 4 > 10 ? COLS - 4 : 10;
}

static void draw_header(struct tui *t, struct quizscr *s)
{
	char left[512], right[256];
	if (s->title)
		snprintf(left, sizeof left, i18n(s->lang, M_QUIZ_TITLE), s->title);
	else
		snprintf(left, sizeof left, "%s", i18n(s->lang, M_QUIZ_REVIEW_TITLE));
	right[0] = '\0';
	int rw = 0;
	if (s->q) {
		/* "Question N of M" always shows; the kind and the id give way
		 * first, then the title is cut with an ellipsis. */
		char prog[64];
		snprintf(prog, sizeof prog, i18n(s->lang, M_QUIZ_PROGRESS), s->pos + 1,
			 s->ss->test->n);
		const char *kind = kind_name(s->lang, s->q->kind);
		for (int form = 0; form < 3; form++) {
			if (form == 0)
				snprintf(right, sizeof right, "%s · %s · [%s]", prog, kind,
					 s->q->id);
			else if (form == 1)
				snprintf(right, sizeof right, "%s · %s", prog, kind);
			else
				snprintf(right, sizeof right, "%s", prog);
			rw = utf8_width(right, strlen(right));
			if (rw <= COLS - 14)
				break;
		}
		if (rw > COLS - 2)
			rw = COLS - 2;
	}
	term_text_cut(0, 1, left, COLS - 2 - (rw ? rw + 2 : 0), term_attr_heading(t));
	if (rw)
		term_text_cut(0, COLS - rw - 1, right, rw, A_DIM);
}

/* The question: its heading text (bold) and body. */
static void page_question(struct page *p, struct quizscr *s, int width)
{
	page_text(p, s->q->text, width, A_BOLD, 0, 0);
	if (*s->q->body) {
		page_blank(p);
		page_md(p, s->q->body, width, s->lang, 0);
	}
}

static void clamp_scroll(struct quizscr *s, int total, int rows)
{
	if (s->scroll > total - rows)
		s->scroll = total - rows;
	if (s->scroll < 0)
		s->scroll = 0;
}

/* Keeps lines [first, last] visible. */
static void scroll_to(struct quizscr *s, int first, int last, int rows)
{
	if (first < 0)
		return;
	if (last - first + 1 > rows)
		last = first + rows - 1;
	if (first < s->scroll)
		s->scroll = first;
	if (last >= s->scroll + rows)
		s->scroll = last - rows + 1;
}

/* A horizontal rule with a title, in UTF-8 box characters (ACS lines do
 * not survive every terminal multiplexer). */
static void rule(int y, const char *title)
{
	struct wb_buf b = {0};
	for (int i = 0; i < COLS; i++)
		wb_buf_puts(&b, "─");
	term_text(y, 0, b.data, COLS, A_DIM);
	wb_buf_free(&b);
	if (title && *title) {
		int w = utf8_width(title, strlen(title));
		mvaddstr(y, 2, " ");
		term_text_cut(y, 3, title, COLS - 6, A_BOLD);
		if (3 + w < COLS)
			mvaddstr(y, 3 + w, " ");
	}
}

static void draw_answer(struct tui *t, struct quizscr *s)
{
	const char *L = s->lang;
	int w = COLS - 2;
	struct page p = {0};
	page_question(&p, s, w);
	int top = 2, bottom = LINES - 2; /* content rows [top, bottom] */
	const char *hint = "";
	if (s->q->kind == QK_CHOICE) {
		page_blank(&p);
		page_text(&p, i18n(L, M_QUIZ_CHOICE_MULTI), w, A_DIM, 0, 0);
		for (size_t i = 0; i < s->q->noptions; i++) {
			char *line = wb_xasprintf("[%s] %zu. %s", s->marks[i] ? "x" : " ", i + 1,
						  s->q->options[i].text);
			page_hang(&p, line, w - 4, 0, 2, 7, (int)i + 1);
			free(line);
		}
		int rows = bottom - top + 1;
		int f, l;
		page_tag_span(&p, s->sel + 1, &f, &l);
		if (s->follow)
			scroll_to(s, f, l, rows);
		s->follow = 0;
		clamp_scroll(s, (int)p.n, rows);
		page_draw(t, &p, top, 1, rows, w, s->scroll, s->sel + 1);
		hint = i18n(L, M_QUIZ_CHOICE_HINT);
	} else {
		/* The text box takes the lower part of the screen. */
		int single = s->q->kind == QK_NUMERIC;
		int box_rows = single ? 1 : (LINES - 4) / 2;
		if (box_rows < 1)
			box_rows = 1;
		int box_top = LINES - 1 - box_rows;
		int rows = box_top - 1 - top;
		clamp_scroll(s, (int)p.n, rows);
		page_draw(t, &p, top, 1, rows, w, s->scroll, 0);
		rule(box_top - 1,
		     single ? i18n(L, M_QUIZ_NUMERIC_PROMPT) : i18n(L, M_QUIZ_YOUR_ANSWER));
		struct textbox_rows r;
		textbox_wrap(&s->box, box_width(), &r);
		size_t first = r.cur_row >= (size_t)box_rows ? r.cur_row - box_rows + 1 : 0;
		for (int i = 0; i < box_rows && first + i < r.n; i++) {
			size_t a = r.start[first + i], b = r.end[first + i];
			char *text = textbox_slice(&s->box, a, b);
			term_text_cut(box_top + i, 2, text, box_width(), 0);
			free(text);
		}
		if (s->st == QS_EDIT) {
			move(box_top + (int)(r.cur_row - first), 2 + r.cur_col);
			curs_set(1);
		}
		textbox_rows_free(&r);
		hint = s->show_cmds ? i18n(L, M_QUIZ_CMD_HINT)
				    : i18n(L, single ? M_QUIZ_NUMERIC_HINT : M_QUIZ_EDIT_HINT);
	}
	page_free(&p);
	/* The status line must not move the cursor away from the box. */
	int cy, cx;
	getyx(stdscr, cy, cx);
	status(t, s, hint);
	if (s->st == QS_EDIT)
		move(cy, cx);
}

/* Right pane of the reveal: reference answer, then the rubric with ticks. */
static void page_reference(struct page *p, struct quizscr *s, int w)
{
	const char *L = s->lang;
	page_text(p, i18n(L, M_QUIZ_REFERENCE), w, A_BOLD | A_UNDERLINE, 0, 0);
	page_md(p, s->q->answer, w, L, 0);
	if (s->q->kind != QK_RECALL)
		return;
	page_blank(p);
	page_text(p, i18n(L, M_QUIZ_RUBRIC), w, A_BOLD | A_UNDERLINE, 0, 0);
	for (size_t i = 0; i < s->q->nrubric; i++) {
		char *line = wb_xasprintf("[%s] %zu. (%d) %s", s->marks[i] ? "x" : " ", i + 1,
					  s->q->rubric[i].points, s->q->rubric[i].text);
		page_hang(p, line, w - 1, s->marks[i] ? A_BOLD : 0, 0, 7, (int)i + 1);
		free(line);
	}
}

static void draw_reveal(struct tui *t, struct quizscr *s)
{
	const char *L = s->lang;
	int suggested_pts;
	int suggested = quiz_suggest_grade(s->q, s->marks, &suggested_pts);
	/* Question text: at most three lines at the top (one on a short
	 * screen, where the grade meanings also give way to the answer). */
	int small = LINES < 20;
	struct page qp = {0};
	page_text(&qp, s->q->text, COLS - 2, A_BOLD, 0, 0);
	int qmax = small ? 1 : 3;
	int qrows = (int)qp.n > qmax ? qmax : (int)qp.n;
	page_draw(t, &qp, 1, 1, qrows, COLS - 2, 0, 0);
	page_free(&qp);

	int grade_rows = small ? 1 : 4;
	int top = 1 + qrows + 1, bottom = LINES - 2 - grade_rows;
	int rows = bottom - top + 1;
	int side = COLS >= 72;
	int lw = side ? (COLS - 3) / 2 : COLS - 2;
	int rw = side ? COLS - 3 - lw : COLS - 2;
	struct page left = {0}, right = {0};
	page_text(&left, i18n(L, M_QUIZ_YOUR_ANSWER), lw, A_BOLD | A_UNDERLINE, 0, 0);
	if (textbox_blank(&s->box)) {
		page_text(&left, i18n(L, M_QUIZ_NOT_WRITTEN), lw, A_DIM, 0, 0);
	} else {
		char *text = textbox_text(&s->box);
		page_text(&left, text, lw, 0, 0, 0);
		free(text);
	}
	if (!side)
		page_blank(&left);
	/* The question's body (the one-line text is at the top) comes
	 * before the reference answer it asks about. */
	if (*s->q->body) {
		page_md(side ? &right : &left, s->q->body, rw, L, 0);
		page_blank(side ? &right : &left);
	}
	page_reference(side ? &right : &left, s, rw);
	struct page *main = side ? &right : &left;
	int f, l;
	page_tag_span(main, s->sel + 1, &f, &l);
	if (s->follow) /* only when the selection moved: PgUp, k, the wheel stay */
		scroll_to(s, f, l, rows);
	s->follow = 0;
	int total = (int)(side && left.n > right.n ? left.n : main->n);
	clamp_scroll(s, total, rows);
	if (rows > 0) {
		page_draw(t, &left, top, 1, rows, lw, s->scroll, side ? 0 : s->sel + 1);
		if (side) {
			for (int r = 0; r < rows; r++)
				term_text(top + r, 1 + lw, "│", 1, A_DIM);
			page_draw(t, &right, top, 2 + lw, rows, rw, s->scroll, s->sel + 1);
		}
		/* The selected point scrolled out of view stays visible, pinned
		 * to the edge it left by. */
		if (f >= 0 && rows > 1 && (l < s->scroll || f >= s->scroll + rows))
			page_draw(t, main, f < s->scroll ? top : top + rows - 1, side ? 2 + lw : 1,
				  1, side ? rw : lw, f, s->sel + 1);
	}
	page_free(&left);
	page_free(&right);

	/* What each grade means; the suggested one stands out. */
	char buf[512];
	snprintf(buf, sizeof buf, i18n(L, M_QUIZ_SUGGESTED), grade_name(L, suggested),
		 suggested_pts, s->q->max_points);
	term_text_cut(LINES - 1 - grade_rows, 1, buf, COLS - 2, A_BOLD);
	static const int means[] = {M_GRADE_AGAIN_MEANS, M_GRADE_PARTLY_MEANS, M_GRADE_GOT_MEANS};
	static const char keys[] = {'a', 'p', 'g'};
	int days[4]; /* the next interval each grade gives, before its meaning */
	answers_next_intervals(t->store, s->q->id, answers_now_ms() / 1000, days);
	for (int g = 0; g < 3 && !small; g++) {
		char ivl[32];
		answers_interval_text(L, days[g + 1], ivl, sizeof ivl);
		snprintf(buf, sizeof buf, "%c  %s · %s", keys[g], ivl, i18n(L, (enum msg)means[g]));
		term_text_cut(LINES - grade_rows + g, 3, buf, COLS - 4,
			      g + 1 == suggested ? term_attr_select() : (int)A_DIM);
	}
	if (s->confirm_got)
		snprintf(buf, sizeof buf, i18n(L, M_QUIZ_GOT_NONE_ASK), s->q->max_points);
	else
		snprintf(buf, sizeof buf, i18n(L, M_QUIZ_REVEAL_HINT), grade_name(L, suggested));
	status(t, s, buf);
}

static void draw_result(struct tui *t, struct quizscr *s)
{
	const char *L = s->lang;
	int w = COLS - 2;
	struct page p = {0};
	page_question(&p, s, w);
	page_blank(&p);
	if (s->q->kind == QK_CHOICE) {
		for (size_t i = 0; i < s->q->noptions; i++) {
			int right = s->q->options[i].correct;
			const char *mark = right ? "✓" : (s->marks[i] ? "✗" : "·");
			char *line = wb_xasprintf("%s [%s] %zu. %s", mark, s->marks[i] ? "x" : " ",
						  i + 1, s->q->options[i].text);
			page_hang(&p, line, w - 2, right ? A_BOLD : A_DIM, 0, 9, 0);
			free(line);
		}
	} else {
		char *in = textbox_text(&s->box), expect[64], *line;
		if (s->q->tolerance > 0)
			snprintf(expect, sizeof expect, "%.15g ± %.15g", s->q->number,
				 s->q->tolerance);
		else
			snprintf(expect, sizeof expect, "%.15g", s->q->number);
		char ex[128];
		snprintf(ex, sizeof ex, i18n(L, M_QUIZ_EXPECTED), expect);
		line = wb_xasprintf("%s%s  ·  %s", i18n(L, M_QUIZ_NUMERIC_PROMPT), in, ex);
		page_text(&p, line, w, 0, 0, 0);
		free(line);
		free(in);
	}
	page_blank(&p);
	page_text(&p, i18n(L, s->correct ? M_QUIZ_CORRECT : M_QUIZ_WRONG), w,
		  A_BOLD | (s->correct ? 0 : A_UNDERLINE), 0, 0);
	page_blank(&p);
	page_reference(&p, s, w);
	int rows = LINES - 3;
	clamp_scroll(s, (int)p.n, rows);
	page_draw(t, &p, 2, 1, rows, w, s->scroll, 0);
	page_free(&p);
	status(t, s, i18n(L, M_QUIZ_NEXT_HINT));
}

static void draw_summary(struct tui *t, struct quizscr *s)
{
	const char *L = s->lang;
	char buf[512];
	int y = 2;
	term_text_cut(y++, 2, i18n(L, M_QUIZ_SUMMARY), COLS - 4, A_BOLD);
	y++;
	snprintf(buf, sizeof buf, i18n(L, M_QUIZ_POINTS), s->sum.points, s->sum.max_points,
		 s->sum.max_points ? s->sum.points * 100 / s->sum.max_points : 0);
	term_text_cut(y++, 2, buf, COLS - 4, 0);
	snprintf(buf, sizeof buf, "%s %d · %s %d · %s %d", i18n(L, M_GRADE_AGAIN),
		 s->sum.grades[GRADE_AGAIN], i18n(L, M_GRADE_PARTLY), s->sum.grades[GRADE_PARTLY],
		 i18n(L, M_GRADE_GOT), s->sum.grades[GRADE_GOT]);
	term_text_cut(y++, 2, buf, COLS - 4, 0);
	int secs = (int)(s->sum.time_ms / 1000);
	snprintf(buf, sizeof buf, i18n(L, M_QUIZ_TIME), secs / 60, secs % 60);
	term_text_cut(y++, 2, buf, COLS - 4, 0);
	y++;
	if (!s->nweak) {
		term_text_cut(y++, 2, i18n(L, M_QUIZ_ALL_GOT), COLS - 4, 0);
	} else {
		term_text_cut(y++, 2, i18n(L, M_QUIZ_WEAKEST), COLS - 4, A_BOLD);
		for (size_t i = 0; i < s->nweak && y < LINES - 1; i++, y++) {
			const struct answers_item *it = &s->sum.items[i];
			const struct quiz_question *q = quiz_bank_find(s->bank, it->question);
			snprintf(buf, sizeof buf, "%d/%d  %s  [%s] %s", it->points, it->max_points,
				 grade_name(L, it->grade), it->question, q ? q->text : "");
			int attr = (int)i == s->weak_sel ? term_attr_select() : 0;
			if (attr) {
				attron(attr);
				mvhline(y, 2, ' ', COLS - 4);
				attroff(attr);
			}
			term_text_cut(y, 3, buf, COLS - 6, attr);
		}
	}
	status(t, s, i18n(L, M_QUIZ_SUMMARY_HINT));
}

static void draw_conflict(struct tui *t, struct quizscr *s)
{
	const char *L = t->app->lang;
	char buf[512];
	const char *what = s->other->chapter ? s->other->chapter : i18n(L, M_QUIZ_REVIEW_TITLE);
	snprintf(buf, sizeof buf, i18n(L, M_QUIZ_OTHER_RUNNING), what, s->other->answered,
		 s->other->n);
	char **lines;
	size_t n = wrap_text(buf, COLS - 4, &lines);
	for (size_t i = 0; i < n; i++)
		term_text_cut(3 + (int)i, 2, lines[i], COLS - 4, A_BOLD);
	wrap_text_free(lines, n);
	term_status(t, i18n(L, s->confirm ? M_QUIZ_ABANDON_OTHER_ASK : M_QUIZ_OTHER_KEYS), "");
}

/* The length question: the sizes on offer, what starting means. */
static void draw_length(struct tui *t, struct quizscr *s)
{
	const char *L = s->lang;
	char buf[512];
	snprintf(buf, sizeof buf, i18n(L, M_QUIZ_LENGTH_TITLE),
		 s->title ? s->title : i18n(L, M_QUIZ_REVIEW_TITLE));
	term_text_cut(1, 2, buf, COLS - 4, term_attr_heading(t) | A_BOLD);
	int y = 3;
	for (size_t i = 0; i < s->nlen && y < LINES - 2; i++, y++) {
		enum msg m = i + 1 == s->nlen ? M_QUIZ_LENGTH_ALL
			     : i == 0	      ? M_QUIZ_LENGTH_SHORT
					      : M_QUIZ_LENGTH_MEDIUM;
		char opt[256];
		snprintf(opt, sizeof opt, i18n(L, m), s->len_opts[i]);
		snprintf(buf, sizeof buf, "%zu. %s", i + 1, opt);
		int attr = (int)i == s->len_sel ? term_attr_select() : 0;
		if (attr) {
			attron(attr);
			mvhline(y, 2, ' ', COLS - 4);
			attroff(attr);
		}
		term_text_cut(y, 3, buf, COLS - 6, attr);
	}
	y++;
	char **lines;
	size_t n = wrap_text(i18n(L, M_QUIZ_LENGTH_WHY), COLS - 4, &lines);
	for (size_t i = 0; i < n && y < LINES - 1; i++)
		term_text_cut(y++, 2, lines[i], COLS - 4, A_DIM);
	wrap_text_free(lines, n);
	term_status(t, i18n(L, M_QUIZ_LENGTH_KEYS), "");
}

static void quiz_draw(struct tui *t, void *self)
{
	struct quizscr *s = self;
	erase();
	if (s->st == QS_CONFLICT) {
		draw_conflict(t, s);
		return;
	}
	if (s->st == QS_LENGTH) {
		draw_length(t, s);
		return;
	}
	draw_header(t, s);
	enum qstate st = s->st == QS_ABANDON ? s->before_abandon : s->st;
	switch (st) {
	case QS_ANSWER:
	case QS_EDIT: draw_answer(t, s); break;
	case QS_REVEAL: draw_reveal(t, s); break;
	case QS_RESULT: draw_result(t, s); break;
	case QS_SUMMARY: draw_summary(t, s); break;
	default: break;
	}
	if (s->st == QS_ABANDON)
		term_status(t, i18n(s->lang, M_QUIZ_ABANDON_ASK), "");
}

/* ---- keys: one handler per state (the table in the file comment) ---- */

/* Leaves the screen with the test paused (s resumes it); the answer
 * being written is kept as the question's draft (quiz_session_save_draft;
 * a blank box removes an old one).  When the draft cannot be written the
 * screen stays, so nothing typed is lost. */
static void leave_paused(struct tui *t, struct quizscr *s)
{
	int written = s->q && s->q->kind != QK_CHOICE &&
		      (s->st == QS_EDIT || s->st == QS_REVEAL || s->st == QS_ABANDON);
	if (written) {
		char *text = textbox_text(&s->box);
		int err = quiz_session_save_draft(s->ss, text, answers_now_ms());
		free(text);
		if (err) {
			note(s, "%s %s", i18n(s->lang, M_QUIZ_BUSY),
			     i18n(s->lang, M_QUIZ_BUSY_NOTHING));
			return;
		}
		written = !textbox_blank(&s->box);
	}
	tui_flash(t, "%s", i18n(s->lang, written ? M_QUIZ_DRAFT_KEPT : M_QUIZ_PAUSED));
	tui_back(t);
}

/* Asks for the lesson of chapter in place of this screen; with question
 * not NULL, its contents open asking for that question's section. */
static void go_reader(struct tui *t, const char *chapter, const char *lang, const char *question)
{
	struct nav n = {.kind = NAV_READER, .replace_top = 1};
	snprintf(n.chapter, sizeof n.chapter, "%s", chapter);
	snprintf(n.arg, sizeof n.arg, "%s", question ? question : "");
	snprintf(n.lang, sizeof n.lang, "%s", lang);
	tui_go(t, &n);
}

static int open_session(struct tui *t, struct quizscr *s, const char *chapter, size_t limit,
			int no_start);
static void set_title(struct tui *t, struct quizscr *s);

/* L (^L in the text box): the UI language (t->app->lang) flips, and the
 * running test is reopened through quiz_session_open (resume, no start)
 * in that language, so its bank is the other one when it has every
 * question of the test (else the test keeps its language and a note says
 * so).  The screen stays where it is: the same position and state, the
 * text in the box, the ticks and picks; nothing is written (nothing
 * graded changes, the draft stays in the box).  When the reopen fails or
 * the test moved on elsewhere, the note says so: a failure keeps the old
 * session, a test that moved shows its current question. */
static void switch_lang(struct tui *t, struct quizscr *s)
{
	const char *to = strcmp(s->lang, "zh") ? "zh" : "en";
	struct quiz_session_req req = {
		.chapter = s->ss->test->chapter,
		.lang = to,
		.closed_book = 1,
		.resume = 1,
		.no_start = 1,
		.content_root = t->app->content,
		.instructor_dir = t->app->quizzes,
	};
	struct quiz_session_opened o = {0};
	int err = quiz_session_open(t->store, &req, &o);
	if (err) {
		note(s, i18n(s->lang, M_QUIZ_LANG_FAILED),
		     err == WB_EBUSY ? i18n(s->lang, M_QUIZ_BUSY) : wb_strerror(err));
		quiz_session_opened_clear(&o);
		return;
	}
	enum quiz_kind kind = s->q->kind; /* s->q goes with the old bank */
	t->app->lang = to;
	snprintf(s->want_lang, sizeof s->want_lang, "%s", to);
	quiz_session_free(s->ss);
	quiz_bank_free(s->bank);
	s->ss = o.ss;
	s->bank = o.bank;
	o.ss = NULL;
	o.bank = NULL;
	quiz_session_opened_clear(&o);
	snprintf(s->lang, sizeof s->lang, "%s", s->bank->lang);
	set_title(t, s);
	note(s, "%s", i18n(to, strcmp(s->lang, to) ? M_QUIZ_LANG_KEPT : M_QUIZ_LANG_SWITCHED));
	/* The same question, now from the new bank: still open (or, on
	 * the result, graded) unless another window moved the test on. */
	struct quiz_session *ss = s->ss;
	const struct quiz_question *q = s->pos < ss->test->n ? ss->q[s->pos] : NULL;
	int same = q && q->kind == kind &&
		   (s->st == QS_RESULT ? ss->grade[s->pos] != 0 : ss->cur == s->pos);
	if (!same) {
		begin_question(t, s);
		return;
	}
	size_t n = q->kind == QK_CHOICE ? q->noptions : q->nrubric;
	if (n != s->nmarks)
		set_marks(s, n);
	s->q = q;
}

static void conflict_key(struct tui *t, struct quizscr *s, int action, wint_t ch)
{
	if (s->confirm) { /* "Abandon that test?": only y goes on */
		s->confirm = 0;
		if (action != A_YES)
			return;
		action = A_ABANDON;
		ch = 0;
	} else if (action == A_ABANDON) {
		s->confirm = 1;
		return;
	}
	(void)ch;
	switch (action) {
	case A_CONTINUE: {
		/* The other test, resumed (or, ended meanwhile, what comes). */
		char *chapter = s->other->chapter ? wb_xstrdup(s->other->chapter) : NULL;
		int review = !strcmp(s->other->kind, "review");
		quiz_test_free(s->other);
		s->other = NULL;
		s->st = QS_ANSWER;
		if (open_session(t, s, review ? NULL : chapter, 0, 1) != 0)
			tui_back(t);
		else if (s->st != QS_CONFLICT && s->st != QS_LENGTH)
			begin_question(t, s);
		free(chapter);
		break;
	}
	case A_ABANDON:
		answers_abandon_running(t->store, answers_now_ms());
		quiz_test_free(s->other);
		s->other = NULL;
		s->st = QS_ANSWER;
		if (open_session(t, s, s->want_chapter, 0, 1) != 0)
			tui_back(t); /* nothing to ask: open_session said why */
		else if (s->st != QS_CONFLICT && s->st != QS_LENGTH)
			begin_question(t, s);
		break;
	case A_QUIT:
	case A_NO:
		if (s->reopen_reader && s->want_chapter)
			go_reader(t, s->want_chapter, s->want_lang, NULL);
		else
			tui_back(t);
		break;
	}
}

/* Tab (or Enter on a number): recall reveals; a number is graded, or the
 * box keeps the keys when it is not a number. */
static void edit_done(struct tui *t, struct quizscr *s)
{
	if (s->q->kind == QK_RECALL) {
		curs_set(0);
		reveal(s);
		return;
	}
	/* Not a number, or not saved (busy, failed: the note says why): the
	 * box keeps the keys, so Enter tries again. */
	if (submit_numeric(t, s) == 0 && s->st != QS_EDIT)
		curs_set(0);
}

/* Scrolls the content half a screen down (down 1) or up. */
static void scroll_page(struct quizscr *s, int down)
{
	int step = (LINES - 6) / 2 > 1 ? (LINES - 6) / 2 : 1;
	s->scroll += down ? step : -step;
	if (s->scroll < 0)
		s->scroll = 0;
	s->follow = 0;
}

static void edit_key(struct tui *t, struct quizscr *s, int action, wint_t ch)
{
	struct textbox *b = &s->box;
	int single = s->q->kind == QK_NUMERIC;
	switch (action) {
	case E_DONE: edit_done(t, s); break;
	case E_ENTER:
		if (single)
			edit_done(t, s);
		else
			textbox_insert(b, '\n');
		break;
	case E_ESC: s->show_cmds = !s->show_cmds; break;
	case E_PAUSE: leave_paused(t, s); break;
	case E_UNDO: undo(t, s); break;
	case E_ABANDON:
		curs_set(0);
		s->before_abandon = QS_EDIT;
		s->st = QS_ABANDON;
		break;
	case E_PGUP:
	case E_PGDN: scroll_page(s, action == E_PGDN); break;
	case E_LEFT: b->cur -= b->cur > 0; break;
	case E_RIGHT: b->cur += b->cur < b->len; break;
	case E_UP: textbox_vertical(b, box_width(), -1); break;
	case E_DOWN: textbox_vertical(b, box_width(), 1); break;
	case E_HOME: b->cur = textbox_line_start(b, b->cur); break;
	case E_END: b->cur = textbox_line_end(b, b->cur); break;
	case E_BACKSPACE: textbox_backspace(b); break;
	case E_DELETE: textbox_erase(b, b->cur, b->cur + 1); break;
	case E_KILL_END: textbox_erase(b, b->cur, textbox_line_end(b, b->cur)); break;
	case E_KILL_START: textbox_erase(b, textbox_line_start(b, b->cur), b->cur); break;
	case E_KILL_WORD: textbox_kill_word(b); break;
	case E_LANG: switch_lang(t, s); break;
	default:
		if (ch >= 0x20 && ch != 0x7f)
			textbox_insert(b, (uint32_t)ch);
	}
}

/* Option or rubric selection shared by the question and the reveal:
 * returns 1 when the action was one of them.  k above the first item and
 * j below the last scroll the page by a line instead (the reference
 * answer above the rubric comes into view); a moved selection is brought
 * into view once (follow), so scrolling is never undone by the next
 * frame. */
static int mark_key(struct quizscr *s, int action, wint_t ch)
{
	int n = (int)s->nmarks;
	switch (action) {
	case A_UP:
		if (s->sel > 0) {
			s->sel--;
			s->follow = 1;
		} else if (s->scroll > 0) {
			s->scroll--;
		}
		return 1;
	case A_DOWN:
		if (s->sel + 1 < n) {
			s->sel++;
			s->follow = 1;
		} else {
			s->scroll++; /* clamped when drawn */
		}
		return 1;
	case A_TOGGLE:
		if (n)
			s->marks[s->sel] ^= 1;
		return 1;
	case A_DIGIT:
		if (ch - '1' < (wint_t)n) {
			s->sel = (int)(ch - '1');
			s->marks[s->sel] ^= 1;
			s->follow = 1;
		}
		return 1;
	}
	return 0;
}

static void answer_key(struct tui *t, struct quizscr *s, int action, wint_t ch)
{
	if (action == A_QUIT) {
		leave_paused(t, s);
		return;
	}
	if (s->q->kind == QK_CHOICE) {
		if (!mark_key(s, action, ch) && action == A_ENTER)
			submit_choice(t, s);
		return;
	}
	s->st = QS_EDIT; /* a written question is always typed into */
}

/* 1 when no rubric point is ticked (a question with a rubric). */
static int none_ticked(const struct quizscr *s)
{
	for (size_t i = 0; i < s->nmarks; i++)
		if (s->marks[i])
			return 0;
	return s->nmarks > 0;
}

static void reveal_key(struct tui *t, struct quizscr *s, int action, wint_t ch)
{
	if (s->confirm_got) { /* "Got it with 0 of N points?": only y grades */
		s->confirm_got = 0;
		if (action == A_YES)
			grade_recall(t, s, GRADE_GOT);
		return;
	}
	if (mark_key(s, action, ch))
		return;
	switch (action) {
	case A_AGAIN: grade_recall(t, s, GRADE_AGAIN); break;
	case A_PARTLY: grade_recall(t, s, GRADE_PARTLY); break;
	case A_GOT:
		/* A grade the rubric contradicts is asked about first. */
		if (none_ticked(s))
			s->confirm_got = 1;
		else
			grade_recall(t, s, GRADE_GOT);
		break;
	case A_ENTER: grade_recall(t, s, quiz_suggest_grade(s->q, s->marks, NULL)); break;
	case A_QUIT: leave_paused(t, s); break;
	}
}

static void result_key(struct tui *t, struct quizscr *s, int action, wint_t ch)
{
	(void)ch;
	if (action == A_ENTER || action == A_TOGGLE || action == A_DOWN)
		begin_question(t, s);
	else if (action == A_QUIT)
		leave_paused(t, s);
}

static void abandon_key(struct tui *t, struct quizscr *s, int action, wint_t ch)
{
	if (action == A_YES) {
		quiz_session_abandon(s->ss, answers_now_ms());
		tui_flash(t, "%s", i18n(s->lang, M_QUIZ_ABANDONED));
		tui_back(t);
	} else if (action == A_NO || ch == 27 || action == A_QUIT) {
		s->st = s->before_abandon;
	}
}

static void length_key(struct tui *t, struct quizscr *s, int action, wint_t ch)
{
	if (action == A_UP && s->len_sel > 0) {
		s->len_sel--;
	} else if (action == A_DOWN && s->len_sel + 1 < (int)s->nlen) {
		s->len_sel++;
	} else if (action == A_DIGIT && ch - '1' < (wint_t)s->nlen) {
		s->len_sel = (int)(ch - '1');
	} else if (action == A_ENTER) {
		size_t limit = (size_t)s->len_sel + 1 < s->nlen ? s->len_opts[s->len_sel] : 0;
		s->st = QS_ANSWER;
		if (open_session(t, s, s->want_chapter, limit, 0) != 0)
			tui_back(t); /* open_session said why */
		else if (s->st != QS_CONFLICT && s->st != QS_LENGTH)
			begin_question(t, s);
	} else if (action == A_QUIT) {
		if (s->reopen_reader && s->want_chapter)
			go_reader(t, s->want_chapter, s->want_lang, NULL);
		else
			tui_back(t);
	}
}

static void summary_key(struct tui *t, struct quizscr *s, int action, wint_t ch)
{
	(void)ch;
	if (action == A_UP && s->weak_sel > 0) {
		s->weak_sel--;
	} else if (action == A_DOWN && s->weak_sel + 1 < (int)s->nweak) {
		s->weak_sel++;
	} else if (action == A_REREAD) {
		/* Reread the lesson of the weakest (selected) question: its
		 * contents open, for the learner to pick the section. */
		const char *chapter =
			s->nweak ? s->sum.items[s->weak_sel].chapter : s->ss->test->chapter;
		if (chapter)
			go_reader(t, chapter, s->lang,
				  s->nweak ? s->sum.items[s->weak_sel].question : NULL);
		else
			tui_back(t);
	} else if (action == A_QUIT) {
		tui_back(t);
	}
}

/* Keys every question state shares (answer, reveal, result): abandon,
 * undo, scrolling.  Returns 1 when the key was one of them. */
static int question_key(struct tui *t, struct quizscr *s, int action)
{
	switch (action) {
	case A_ABANDON:
		s->before_abandon = s->st;
		s->st = QS_ABANDON;
		return 1;
	case A_UNDO: undo(t, s); return 1;
	case A_LANG: switch_lang(t, s); return 1;
	case A_PGDN:
	case A_PGUP: scroll_page(s, action == A_PGDN); return 1;
	case A_MOUSE: {
		MEVENT ev;
		if (getmouse(&ev) == OK && (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED))) {
			s->scroll += ev.bstate & BUTTON4_PRESSED ? -3 : 3;
			s->scroll = s->scroll < 0 ? 0 : s->scroll;
			s->follow = 0;
		}
		return 1;
	}
	}
	return 0;
}

typedef void (*state_key_fn)(struct tui *t, struct quizscr *s, int action, wint_t ch);

static const state_key_fn state_keys[] = {
	[QS_CONFLICT] = conflict_key, [QS_ANSWER] = answer_key, [QS_EDIT] = edit_key,
	[QS_REVEAL] = reveal_key,     [QS_RESULT] = result_key, [QS_ABANDON] = abandon_key,
	[QS_SUMMARY] = summary_key,   [QS_LENGTH] = length_key,
};

static void quiz_key(struct tui *t, void *self, int action, wint_t ch, int is_code)
{
	struct quizscr *s = self;
	s->note[0] = '\0';
	if (is_code && s->st == QS_EDIT && action < 0)
		return; /* a KEY_* code the text box has no use for */
	int shared = s->st == QS_ANSWER || s->st == QS_REVEAL || s->st == QS_RESULT;
	if (shared && question_key(t, s, action))
		return;
	state_keys[s->st](t, s, action, ch);
}

/* The key table of the current state (help shows it). */
static struct keymap quiz_keymap(void *self)
{
	const struct quizscr *s = self;
	if (s->st == QS_EDIT)
		return (struct keymap){edit_keys, WB_ARRAY_LEN(edit_keys), 1};
	if (s->st == QS_SUMMARY)
		return (struct keymap){summary_keys, WB_ARRAY_LEN(summary_keys), 0};
	if (s->st == QS_LENGTH)
		return (struct keymap){length_keys, WB_ARRAY_LEN(length_keys), 0};
	return (struct keymap){quiz_keys, WB_ARRAY_LEN(quiz_keys), 0};
}

static void quiz_leave(struct tui *t, void *self)
{
	(void)t;
	(void)self;
	curs_set(0);
}

static void quiz_free(void *self)
{
	struct quizscr *s = self;
	quiz_session_free(s->ss);
	quiz_bank_free(s->bank);
	quiz_test_free(s->other);
	answers_summary_free(&s->sum);
	textbox_free(&s->box);
	free(s->marks);
	free(s->title);
	free(s->want_chapter);
	free(s);
}

/* ---- starting ---- */

static void set_title(struct tui *t, struct quizscr *s)
{
	free(s->title);
	s->title = s->ss->test->chapter ? lesson_title(t, s->lang, s->ss->test->chapter) : NULL;
}

/* The length question before a new test: the sizes on offer for the
 * questions req would draw from (12 and 24 when the pool is larger, and
 * always all of them).  Returns 0 (QS_LENGTH), or WB_ENOENT after saying
 * there is nothing to ask. */
static int ask_length(struct tui *t, struct quizscr *s, const struct quiz_session_req *req)
{
	size_t n = 0;
	const char *L = !strcmp(s->want_lang, "zh") ? "zh" : "en";
	quiz_session_pool(t->store, req, &n);
	if (n == 0) {
		if (req->chapter)
			tui_flash(t, i18n(L, M_QUIZ_NO_QUESTIONS), req->chapter);
		else
			tui_flash(t, "%s", i18n(L, M_QUIZ_NONE_DUE));
		return WB_ENOENT;
	}
	snprintf(s->lang, sizeof s->lang, "%s", L);
	s->nlen = 0;
	static const size_t sizes[] = {12, 24};
	for (size_t i = 0; i < 2; i++)
		if (n > sizes[i])
			s->len_opts[s->nlen++] = sizes[i];
	s->len_opts[s->nlen++] = n;
	s->len_sel = 0;
	free(s->title);
	s->title = req->chapter ? lesson_title(t, L, req->chapter) : NULL;
	s->st = QS_LENGTH;
	return 0;
}

/* Opens the session asked for through core's one resume-or-start policy
 * (quiz_session_open): `chapter` (NULL: a review) in want_lang.  On 0 the
 * screen has a test (resumed or started), or is in QS_CONFLICT with the
 * other running test in s->other.  Otherwise says why on the status line
 * and returns the WB_E* code. */
static int open_session(struct tui *t, struct quizscr *s, const char *chapter, size_t limit,
			int no_start)
{
	struct quiz_session_req req = {
		.chapter = chapter,
		.lang = s->want_lang,
		.closed_book = 1,
		.limit = limit,
		.resume = 1,
		.no_start = no_start,
		.content_root = t->app->content,
		.instructor_dir = t->app->quizzes,
	};
	struct quiz_session_opened o = {0};
	int err = quiz_session_open(t->store, &req, &o);
	if (err == WB_ECONFLICT && o.conflict) {
		quiz_test_free(s->other);
		s->other = o.conflict;
		o.conflict = NULL;
		s->st = QS_CONFLICT;
		snprintf(s->lang, sizeof s->lang, "%s", s->want_lang);
		err = 0;
	} else if (err == 0) {
		quiz_session_free(s->ss);
		quiz_bank_free(s->bank);
		s->ss = o.ss;
		s->bank = o.bank;
		o.ss = NULL;
		o.bank = NULL;
		snprintf(s->lang, sizeof s->lang, "%s", s->bank->lang);
		set_title(t, s);
		if (o.resumed)
			note(s, i18n(s->lang, M_QUIZ_RESUMED), quiz_session_answered(s->ss),
			     s->ss->test->n);
	} else if (err == WB_ENOENT && o.step == QUIZ_OPEN_START && no_start) {
		err = ask_length(t, s, &req); /* none runs: how long a new test? */
	} else if (err == WB_ENOENT && o.step == QUIZ_OPEN_START) {
		const char *L = !strcmp(s->want_lang, "zh") ? "zh" : "en";
		if (chapter)
			tui_flash(t, i18n(L, M_QUIZ_NO_QUESTIONS), chapter);
		else
			tui_flash(t, "%s", i18n(L, M_QUIZ_NONE_DUE));
	} else if (err == WB_EBUSY) {
		tui_flash(t, "%s %s", i18n(s->want_lang, M_QUIZ_BUSY),
			  i18n(s->want_lang, M_QUIZ_BUSY_NOTHING));
	} else if (err == WB_ENOSPC) { /* said on the screen the learner goes back to */
		tui_flash(t, "%s", i18n(s->want_lang, M_TEST_FULL));
	} else if (o.step == QUIZ_OPEN_LOOK) {
		tui_flash(t, "%s", store_errmsg(t->store));
	} else if (err != WB_ECONFLICT && !(err == WB_ENOENT && o.step == QUIZ_OPEN_RESUME)) {
		tui_flash(t, i18n(s->want_lang, M_QUIZ_SAVE_FAILED), store_errmsg(t->store));
	}
	quiz_session_opened_clear(&o);
	return err;
}

int quiz_open(struct tui *t, const char *chapter, const char *lang, int over_reader,
	      struct screen *out)
{
	struct quizscr *s = wb_xcalloc(1, sizeof *s);
	s->want_chapter = chapter && *chapter ? wb_xstrdup(chapter) : NULL;
	snprintf(s->want_lang, sizeof s->want_lang, "%s", lang);
	s->reopen_reader = over_reader;
	s->st = QS_ANSWER;
	int err = open_session(t, s, s->want_chapter, 0, 1);
	if (err) {
		quiz_free(s);
		return err;
	}
	if (s->st != QS_CONFLICT && s->st != QS_LENGTH)
		begin_question(t, s);
	*out = (struct screen){
		.name = "quiz",
		.self = s,
		.draw = quiz_draw,
		.key = quiz_key,
		.leave = quiz_leave,
		.free = quiz_free,
		.keymap = quiz_keymap,
		.keys = quiz_keys,
		.nkeys = WB_ARRAY_LEN(quiz_keys),
	};
	return 0;
}
