/*
 * tui/quiz.c - the closed-book self-test screen (chapter tests and the
 * review of due questions), the "lesson is closed" notice, and home's
 * review line.
 *
 * Flow per question: recall -> write in a text box (or not) -> Tab
 * reveals the reference answer and rubric beside the learner's text ->
 * tick the points covered -> grade Again / Partly / Got it (the ticks
 * suggest one).  Choice and numeric questions are graded on submit and
 * then show the reference answer.  Every grade is saved at once by
 * core/answers.c; `u` undoes the last one.
 *
 * Text entry runs its own small key loop (edit_loop): the main loop
 * gives '?' to the help overlay, but a learner must be able to type '?'
 * into an answer.  The loop keeps the main loop's promises: it redraws,
 * passes resizes to every screen and returns when SIGINT/SIGTERM/SIGHUP
 * arrive (their handlers are chained, so the main loop sees them too).
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
#include "core/layout.h"
#include "core/lesson.h"
#include "core/quizbank.h"
#include "core/store.h"
#include "core/utf8.h"
#include "base/wb.h"
#include "tui/tui.h"

#include <curses.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a multi-line UTF-8 text box (model only) ---- */

struct tbox {
	uint32_t *cp; /* code points; '\n' separates lines */
	size_t len;   /* code points used */
	size_t cap;
	size_t cur; /* cursor: index of the code point before which we insert */
};

static void tb_clear(struct tbox *b)
{
	b->len = b->cur = 0;
}

static void tb_free(struct tbox *b)
{
	free(b->cp);
	memset(b, 0, sizeof *b);
}

static void tb_insert(struct tbox *b, uint32_t c)
{
	if (b->len == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->cp = wb_xrealloc(b->cp, b->cap * sizeof *b->cp);
	}
	memmove(b->cp + b->cur + 1, b->cp + b->cur, (b->len - b->cur) * sizeof *b->cp);
	b->cp[b->cur++] = c;
	b->len++;
}

static void tb_erase(struct tbox *b, size_t from, size_t to)
{
	if (to > b->len)
		to = b->len;
	if (from >= to)
		return;
	memmove(b->cp + from, b->cp + to, (b->len - to) * sizeof *b->cp);
	b->len -= to - from;
	if (b->cur > to)
		b->cur -= to - from;
	else if (b->cur > from)
		b->cur = from;
}

static size_t tb_line_start(const struct tbox *b, size_t i)
{
	while (i > 0 && b->cp[i - 1] != '\n')
		i--;
	return i;
}

static size_t tb_line_end(const struct tbox *b, size_t i)
{
	while (i < b->len && b->cp[i] != '\n')
		i++;
	return i;
}

static int is_space(uint32_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == 0x3000;
}

static void tb_kill_word(struct tbox *b)
{
	size_t i = b->cur;
	while (i > 0 && is_space(b->cp[i - 1]))
		i--;
	while (i > 0 && !is_space(b->cp[i - 1]))
		i--;
	tb_erase(b, i, b->cur);
}

static char *tb_text(const struct tbox *b)
{
	struct wb_buf out = {0};
	for (size_t i = 0; i < b->len; i++) {
		char enc[4];
		wb_buf_append(&out, enc, utf8_encode(b->cp[i], enc));
	}
	return wb_buf_steal(&out);
}

static void tb_set(struct tbox *b, const char *s)
{
	tb_clear(b);
	size_t n = s ? strlen(s) : 0, i = 0;
	while (i < n) {
		uint32_t c;
		i += utf8_decode(s + i, n - i, &c);
		if (c != '\r')
			tb_insert(b, c);
	}
}

static int tb_blank(const struct tbox *b)
{
	for (size_t i = 0; i < b->len; i++)
		if (!is_space(b->cp[i]))
			return 0;
	return 1;
}

static int cp_cols(uint32_t c)
{
	if (c < 0x20)
		return 1; /* shown as U+FFFD */
	int w = utf8_cp_width(c);
	return w;
}

/* Visual rows of the box at a width: row r spans [start[r], end[r]). */
struct tb_rows {
	size_t *start, *end;
	size_t n;
	size_t cur_row; /* row holding the cursor */
	int cur_col;	/* cursor column in that row */
};

static void tb_wrap(const struct tbox *b, int width, struct tb_rows *r)
{
	size_t cap = 16;
	r->start = wb_xmalloc(cap * sizeof *r->start);
	r->end = wb_xmalloc(cap * sizeof *r->end);
	r->n = 0;
	r->cur_row = 0;
	r->cur_col = 0;
	size_t s = 0;
	int col = 0;
	for (size_t i = 0;; i++) {
		int brk = i == b->len || b->cp[i] == '\n';
		int w = brk ? 0 : cp_cols(b->cp[i]);
		if (!brk && col + w > width && i > s) {
			/* wrap before i */
		} else if (!brk) {
			col += w;
			continue;
		}
		if (r->n == cap) {
			cap *= 2;
			r->start = wb_xrealloc(r->start, cap * sizeof *r->start);
			r->end = wb_xrealloc(r->end, cap * sizeof *r->end);
		}
		r->start[r->n] = s;
		r->end[r->n] = i;
		r->n++;
		if (i == b->len)
			break;
		if (b->cp[i] == '\n') {
			s = i + 1;
			col = 0;
		} else {
			s = i;
			col = w;
		}
	}
	/* The cursor belongs to the last row that starts at or before it. */
	for (size_t k = 0; k < r->n; k++)
		if (r->start[k] <= b->cur)
			r->cur_row = k;
	for (size_t i = r->start[r->cur_row]; i < b->cur && i < b->len; i++)
		r->cur_col += cp_cols(b->cp[i]);
}

static void tb_rows_free(struct tb_rows *r)
{
	free(r->start);
	free(r->end);
}

/* Moves the cursor one visual row up (-1) or down (+1), keeping the column. */
static void tb_vertical(struct tbox *b, int width, int dir)
{
	struct tb_rows r;
	tb_wrap(b, width, &r);
	if ((dir < 0 && r.cur_row == 0) || (dir > 0 && r.cur_row + 1 >= r.n)) {
		b->cur = dir < 0 ? 0 : b->len;
		tb_rows_free(&r);
		return;
	}
	size_t row = dir < 0 ? r.cur_row - 1 : r.cur_row + 1;
	size_t i = r.start[row];
	int col = 0;
	while (i < r.end[row] && col + cp_cols(b->cp[i]) <= r.cur_col) {
		col += cp_cols(b->cp[i]);
		i++;
	}
	b->cur = i;
	tb_rows_free(&r);
}

/* ---- the screen ---- */

enum qstate {
	QS_CONFLICT, /* another test runs: continue it or abandon it */
	QS_ANSWER,   /* the question; recall/numeric: text entry */
	QS_REVEAL,   /* recall: own text beside the reference and rubric */
	QS_RESULT,   /* choice/numeric: graded, reference shown */
	QS_ABANDON,  /* confirm abandoning */
	QS_SUMMARY,  /* the end */
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
	A_YES,
	A_NO,
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
	{'A', 0, "A", A_ABANDON, "abandon the test (graded answers are kept)",
	 "放弃测验（已评分的回答保留）"},
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
	struct tbox box;	       /* recall answer or numeric input */
	unsigned char *marks;	       /* choice picks or rubric ticks */
	size_t nmarks;		       /* options or rubric items */
	int sel;		       /* selected option / rubric item */
	int scroll;		       /* first content line shown */
	int editing;		       /* the text box has the keys */
	int correct;		       /* QS_RESULT: the auto-graded outcome */
	size_t pos;		       /* position of q in the test */
	char note[256];		       /* status message until the next key */
	/* conflict */
	struct quiz_test *other; /* the running test we are not */
	char *want_chapter;	 /* what the learner asked for; NULL = review */
	char want_lang[8];
	int reopen_reader; /* the reader was replaced: reopen it on q */
	/* summary */
	struct answers_summary sum;
	size_t nweak; /* weak items listed */
	int weak_sel;
};

/* ---- small drawing helpers ---- */

/* A list of screen lines: either a laid-out Markdown line or plain text. */
struct pline {
	const struct lay_line *lay; /* borrowed from one of page.lays */
	char *text;		    /* plain text, owned */
	int attr;
	int indent;
	int tag; /* rubric item / option index + 1, 0 none */
};

struct page {
	struct pline *l;
	size_t n;
	struct layout **lays;
	size_t nlays;
};

static struct pline *page_add(struct page *p)
{
	p->l = wb_xrealloc(p->l, (p->n + 1) * sizeof *p->l);
	memset(&p->l[p->n], 0, sizeof p->l[p->n]);
	return &p->l[p->n++];
}

static void page_blank(struct page *p)
{
	page_add(p)->text = wb_xstrdup("");
}

/* Plain text wrapped to width columns starting at indent; lines after
 * the first are indented `hang` more (for "[ ] 1. " prefixes). */
static void page_hang(struct page *p, const char *text, int width, int attr, int indent, int hang,
		      int tag)
{
	char **lines;
	int w = width - hang > 4 ? width - hang : 4;
	size_t n = layout_wrap(text, w, &lines);
	for (size_t i = 0; i < n; i++) {
		struct pline *l = page_add(p);
		l->text = lines[i];
		l->attr = attr;
		l->indent = indent + (i ? hang : 0);
		l->tag = tag;
	}
	free(lines);
}

static void page_text(struct page *p, const char *text, int width, int attr, int indent, int tag)
{
	page_hang(p, text, width, attr, indent, 0, tag);
}

static void page_md(struct page *p, const char *md, int width, const char *lang, int indent)
{
	struct lesson *les;
	if (lesson_parse("quiz", lang, md, strlen(md), &les) != 0)
		return;
	struct layout *lay = layout_build(les, width > LAYOUT_MIN_WIDTH ? width : LAYOUT_MIN_WIDTH);
	lesson_free(les);
	p->lays = wb_xrealloc(p->lays, (p->nlays + 1) * sizeof *p->lays);
	p->lays[p->nlays++] = lay;
	size_t n = lay->nlines;
	while (n > 0 && lay->lines[n - 1].kind == LK_BLANK)
		n--;
	size_t i = 0;
	while (i < n && lay->lines[i].kind == LK_BLANK)
		i++;
	for (; i < n; i++) {
		struct pline *l = page_add(p);
		l->lay = &lay->lines[i];
		l->indent = indent;
	}
}

static void page_free(struct page *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->l[i].text);
	free(p->l);
	for (size_t i = 0; i < p->nlays; i++)
		layout_free(p->lays[i]);
	free(p->lays);
	memset(p, 0, sizeof *p);
}

/* Draws lines [first, first+rows) of p at (y, x), width w.  Lines tagged
 * sel_tag are drawn in reverse video. */
static void page_draw(const struct page *p, int y, int x, int rows, int w, int first, int sel_tag)
{
	for (int r = 0; r < rows && first + r < (int)p->n; r++) {
		const struct pline *l = &p->l[first + r];
		int hl = sel_tag && l->tag == sel_tag;
		if (hl) {
			attron(term_attr_select());
			mvhline(y + r, x, ' ', w);
			attroff(term_attr_select());
		}
		if (l->lay)
			term_draw_line(y + r, x + l->indent, l->lay, w - l->indent);
		else
			term_text(y + r, x + l->indent, l->text, w - l->indent,
				  l->attr | (hl ? term_attr_select() : 0));
	}
}

/* First and last line of a tag; -1 when absent. */
static void page_tag_span(const struct page *p, int tag, int *first, int *last)
{
	*first = *last = -1;
	for (size_t i = 0; i < p->n; i++)
		if (p->l[i].tag == tag) {
			if (*first < 0)
				*first = (int)i;
			*last = (int)i;
		}
}

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

static void edit(struct tui *t, struct quizscr *s);
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
	s->shown_at = answers_now_ms();
	s->revealed_at = 0;
	tb_clear(&s->box);
	set_marks(s, s->q->kind == QK_CHOICE ? s->q->noptions : s->q->nrubric);
	s->sel = 0;
	s->scroll = 0;
	s->editing = 0;
	if (s->q->kind != QK_CHOICE)
		edit(t, s);
}

static void reveal(struct quizscr *s)
{
	s->st = QS_REVEAL;
	s->revealed_at = answers_now_ms();
	s->editing = 0;
	s->sel = 0;
	s->scroll = 0;
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
	a.text = tb_blank(&s->box) ? NULL : tb_text(&s->box);
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
	char *in = tb_text(&s->box);
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
	s->editing = 0;
	set_marks(s, s->q->kind == QK_CHOICE ? s->q->noptions : s->q->nrubric);
	tb_set(&s->box, s->q->kind == QK_CHOICE ? NULL : a.text);
	s->box.cur = s->box.len;
	if (s->q->kind == QK_RECALL) {
		marks_from(s, a.ticked);
		s->st = QS_REVEAL;
	} else {
		if (s->q->kind == QK_CHOICE)
			marks_from(s, a.text);
		s->st = QS_ANSWER;
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

/* ---- text entry ---- */

static volatile sig_atomic_t edit_stop;
static struct sigaction chained[3];
static const int chained_sigs[3] = {SIGINT, SIGTERM, SIGHUP};

static void on_edit_signal(int sig)
{
	edit_stop = 1;
	for (int i = 0; i < 3; i++)
		if (chained_sigs[i] == sig && chained[i].sa_handler != SIG_DFL &&
		    chained[i].sa_handler != SIG_IGN)
			chained[i].sa_handler(sig);
}

static void quiz_draw(struct tui *t, void *self);

/* Box geometry shared by drawing and editing. */
static int box_width(void)
{
	return COLS - 4 > 10 ? COLS - 4 : 10;
}

enum { EDIT_DONE, EDIT_ESC, EDIT_STOP };

static int edit_loop(struct tui *t, struct quizscr *s)
{
	int single = s->q->kind == QK_NUMERIC;
	struct sigaction sa = {0};
	sa.sa_handler = on_edit_signal;
	for (int i = 0; i < 3; i++)
		sigaction(chained_sigs[i], &sa, &chained[i]);
	edit_stop = 0;
	s->editing = 1;
	int ret = EDIT_ESC;
	for (;;) {
		if (edit_stop) {
			ret = EDIT_STOP;
			break;
		}
		if (!term_too_small(t)) {
			quiz_draw(t, s);
			refresh();
		}
		wint_t ch;
		int r = get_wch(&ch);
		if (r == ERR)
			continue;
		if (!(r == KEY_CODE_YES && ch == KEY_RESIZE))
			s->note[0] = '\0';
		if (r == KEY_CODE_YES) {
			switch (ch) {
			case KEY_RESIZE:
				for (int i = 0; i < t->depth; i++)
					if (t->stack[i].resize)
						t->stack[i].resize(t, t->stack[i].self);
				break;
			case KEY_LEFT:
				if (s->box.cur > 0)
					s->box.cur--;
				break;
			case KEY_RIGHT:
				if (s->box.cur < s->box.len)
					s->box.cur++;
				break;
			case KEY_UP: tb_vertical(&s->box, box_width(), -1); break;
			case KEY_DOWN: tb_vertical(&s->box, box_width(), 1); break;
			case KEY_HOME: s->box.cur = tb_line_start(&s->box, s->box.cur); break;
			case KEY_END: s->box.cur = tb_line_end(&s->box, s->box.cur); break;
			case KEY_BACKSPACE:
				if (s->box.cur > 0)
					tb_erase(&s->box, s->box.cur - 1, s->box.cur);
				break;
			case KEY_DC: tb_erase(&s->box, s->box.cur, s->box.cur + 1); break;
			case KEY_ENTER:
				if (single) {
					ret = EDIT_DONE;
					goto out;
				}
				tb_insert(&s->box, '\n');
				break;
			}
			continue;
		}
		switch (ch) {
		case '\t': ret = EDIT_DONE; goto out;
		case 27: ret = EDIT_ESC; goto out;
		case '\r':
		case '\n':
			if (single) {
				ret = EDIT_DONE;
				goto out;
			}
			tb_insert(&s->box, '\n');
			break;
		case 127:
		case 8:
			if (s->box.cur > 0)
				tb_erase(&s->box, s->box.cur - 1, s->box.cur);
			break;
		case 1: s->box.cur = tb_line_start(&s->box, s->box.cur); break; /* ^A */
		case 5: s->box.cur = tb_line_end(&s->box, s->box.cur); break;	/* ^E */
		case 2: s->box.cur -= s->box.cur > 0; break;			/* ^B */
		case 6: s->box.cur += s->box.cur < s->box.len; break;		/* ^F */
		case 4: tb_erase(&s->box, s->box.cur, s->box.cur + 1); break;	/* ^D */
		case 11: tb_erase(&s->box, s->box.cur, tb_line_end(&s->box, s->box.cur)); break;
		case 21: tb_erase(&s->box, tb_line_start(&s->box, s->box.cur), s->box.cur); break;
		case 23: tb_kill_word(&s->box); break; /* ^W */
		default:
			if (ch >= 0x20 && ch != 0x7f && !(single && ch == '\n'))
				tb_insert(&s->box, (uint32_t)ch);
		}
	}
out:
	for (int i = 0; i < 3; i++)
		sigaction(chained_sigs[i], &chained[i], NULL);
	s->editing = 0;
	curs_set(0);
	return ret;
}

/* Runs the text box until the learner is done or leaves it. */
static void edit(struct tui *t, struct quizscr *s)
{
	for (;;) {
		int r = edit_loop(t, s);
		if (r != EDIT_DONE)
			return;
		if (s->q->kind == QK_RECALL) {
			reveal(s);
			return;
		}
		if (submit_numeric(t, s) == 0)
			return;
	}
}

/* ---- drawing ---- */

static void draw_header(struct tui *t, struct quizscr *s)
{
	char left[512], right[256];
	if (s->title)
		snprintf(left, sizeof left, i18n(s->lang, M_QUIZ_TITLE), s->title);
	else
		snprintf(left, sizeof left, "%s", i18n(s->lang, M_QUIZ_REVIEW_TITLE));
	right[0] = '\0';
	if (s->q) {
		char prog[64];
		snprintf(prog, sizeof prog, i18n(s->lang, M_QUIZ_PROGRESS), s->pos + 1,
			 s->ss->test->n);
		snprintf(right, sizeof right, "%s · %s · [%s]", prog,
			 kind_name(s->lang, s->q->kind), s->q->id);
	}
	(void)t;
	int rw = utf8_width(right, strlen(right));
	if (rw > COLS - 12)
		rw = 0, right[0] = '\0';
	term_text(0, 1, left, COLS - rw - 4, term_attr_heading());
	if (rw)
		term_text(0, COLS - rw - 1, right, rw, A_DIM);
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
		term_text(y, 3, title, COLS - 6, A_BOLD);
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
		scroll_to(s, f, l, rows);
		clamp_scroll(s, (int)p.n, rows);
		page_draw(&p, top, 1, rows, w, s->scroll, s->sel + 1);
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
		page_draw(&p, top, 1, rows, w, s->scroll, 0);
		rule(box_top - 1,
		     single ? i18n(L, M_QUIZ_NUMERIC_PROMPT) : i18n(L, M_QUIZ_YOUR_ANSWER));
		struct tb_rows r;
		tb_wrap(&s->box, box_width(), &r);
		size_t first = r.cur_row >= (size_t)box_rows ? r.cur_row - box_rows + 1 : 0;
		for (int i = 0; i < box_rows && first + i < r.n; i++) {
			size_t a = r.start[first + i], b = r.end[first + i];
			/* An empty box has no buffer yet: no arithmetic on NULL. */
			struct tbox piece = {.cp = s->box.cp ? s->box.cp + a : NULL, .len = b - a};
			char *text = tb_text(&piece);
			term_text(box_top + i, 2, text, box_width(), 0);
			free(text);
		}
		if (s->editing) {
			move(box_top + (int)(r.cur_row - first), 2 + r.cur_col);
			curs_set(1);
		}
		tb_rows_free(&r);
		hint = s->editing ? i18n(L, single ? M_QUIZ_NUMERIC_HINT : M_QUIZ_EDIT_HINT)
				  : i18n(L, M_QUIZ_CMD_HINT);
	}
	page_free(&p);
	/* The status line must not move the cursor away from the box. */
	int cy, cx;
	getyx(stdscr, cy, cx);
	status(t, s, hint);
	if (s->editing)
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
	/* Question text: at most three lines at the top. */
	struct page qp = {0};
	page_text(&qp, s->q->text, COLS - 2, A_BOLD, 0, 0);
	int qrows = qp.n > 3 ? 3 : (int)qp.n;
	page_draw(&qp, 1, 1, qrows, COLS - 2, 0, 0);
	page_free(&qp);

	int grade_rows = 4;
	int top = 1 + qrows + 1, bottom = LINES - 2 - grade_rows;
	int rows = bottom - top + 1;
	int side = COLS >= 72;
	int lw = side ? (COLS - 3) / 2 : COLS - 2;
	int rw = side ? COLS - 3 - lw : COLS - 2;
	struct page left = {0}, right = {0};
	page_text(&left, i18n(L, M_QUIZ_YOUR_ANSWER), lw, A_BOLD | A_UNDERLINE, 0, 0);
	if (tb_blank(&s->box)) {
		page_text(&left, i18n(L, M_QUIZ_NOT_WRITTEN), lw, A_DIM, 0, 0);
	} else {
		char *text = tb_text(&s->box);
		page_text(&left, text, lw, 0, 0, 0);
		free(text);
	}
	if (!side)
		page_blank(&left);
	page_reference(side ? &right : &left, s, rw);
	struct page *main = side ? &right : &left;
	int f, l;
	page_tag_span(main, s->sel + 1, &f, &l);
	scroll_to(s, f, l, rows);
	int total = (int)(side && left.n > right.n ? left.n : main->n);
	clamp_scroll(s, total, rows);
	if (rows > 0) {
		page_draw(&left, top, 1, rows, lw, s->scroll, side ? 0 : s->sel + 1);
		if (side) {
			for (int r = 0; r < rows; r++)
				term_text(top + r, 1 + lw, "│", 1, A_DIM);
			page_draw(&right, top, 2 + lw, rows, rw, s->scroll, s->sel + 1);
		}
	}
	page_free(&left);
	page_free(&right);

	/* What each grade means; the suggested one stands out. */
	char buf[512];
	snprintf(buf, sizeof buf, i18n(L, M_QUIZ_SUGGESTED), grade_name(L, suggested),
		 suggested_pts, s->q->max_points);
	term_text(LINES - 1 - grade_rows, 1, buf, COLS - 2, A_BOLD);
	static const int means[] = {M_GRADE_AGAIN_MEANS, M_GRADE_PARTLY_MEANS, M_GRADE_GOT_MEANS};
	static const char keys[] = {'a', 'p', 'g'};
	for (int g = 0; g < 3; g++) {
		snprintf(buf, sizeof buf, "%c  %s", keys[g], i18n(L, (enum msg)means[g]));
		term_text(LINES - grade_rows + g, 3, buf, COLS - 4,
			  g + 1 == suggested ? term_attr_select() : (int)A_DIM);
	}
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
		char *in = tb_text(&s->box), expect[64], *line;
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
	page_draw(&p, 2, 1, rows, w, s->scroll, 0);
	page_free(&p);
	status(t, s, i18n(L, M_QUIZ_NEXT_HINT));
}

static void draw_summary(struct tui *t, struct quizscr *s)
{
	const char *L = s->lang;
	char buf[512];
	int y = 2;
	term_text(y++, 2, i18n(L, M_QUIZ_SUMMARY), COLS - 4, A_BOLD);
	y++;
	snprintf(buf, sizeof buf, i18n(L, M_QUIZ_POINTS), s->sum.points, s->sum.max_points,
		 s->sum.max_points ? s->sum.points * 100 / s->sum.max_points : 0);
	term_text(y++, 2, buf, COLS - 4, 0);
	snprintf(buf, sizeof buf, "%s %d · %s %d · %s %d", i18n(L, M_GRADE_AGAIN),
		 s->sum.grades[GRADE_AGAIN], i18n(L, M_GRADE_PARTLY), s->sum.grades[GRADE_PARTLY],
		 i18n(L, M_GRADE_GOT), s->sum.grades[GRADE_GOT]);
	term_text(y++, 2, buf, COLS - 4, 0);
	int secs = (int)(s->sum.time_ms / 1000);
	snprintf(buf, sizeof buf, i18n(L, M_QUIZ_TIME), secs / 60, secs % 60);
	term_text(y++, 2, buf, COLS - 4, 0);
	y++;
	if (!s->nweak) {
		term_text(y++, 2, i18n(L, M_QUIZ_ALL_GOT), COLS - 4, 0);
	} else {
		term_text(y++, 2, i18n(L, M_QUIZ_WEAKEST), COLS - 4, A_BOLD);
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
			term_text(y, 3, buf, COLS - 6, attr);
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
	size_t n = layout_wrap(buf, COLS - 4, &lines);
	for (size_t i = 0; i < n; i++)
		term_text(3 + (int)i, 2, lines[i], COLS - 4, A_BOLD);
	layout_wrap_free(lines, n);
	term_status(t, i18n(L, M_QUIZ_OTHER_KEYS), "");
}

static void quiz_draw(struct tui *t, void *self)
{
	struct quizscr *s = self;
	erase();
	if (s->st == QS_CONFLICT) {
		draw_conflict(t, s);
		return;
	}
	draw_header(t, s);
	enum qstate st = s->st == QS_ABANDON ? s->before_abandon : s->st;
	switch (st) {
	case QS_ANSWER: draw_answer(t, s); break;
	case QS_REVEAL: draw_reveal(t, s); break;
	case QS_RESULT: draw_result(t, s); break;
	case QS_SUMMARY: draw_summary(t, s); break;
	default: break;
	}
	if (s->st == QS_ABANDON)
		term_status(t, i18n(s->lang, M_QUIZ_ABANDON_ASK), "");
}

/* ---- keys ---- */

static void leave_paused(struct tui *t, struct quizscr *s)
{
	const char *msg = i18n(s->lang, M_QUIZ_PAUSED); /* static; s goes with the pop */
	tui_pop(t);
	tui_flash(t, "%s", msg);
}

static int start_fresh(struct tui *t, struct quizscr *s);
static int resume_running(struct tui *t, struct quizscr *s);

static void conflict_key(struct tui *t, struct quizscr *s, int action)
{
	switch (action) {
	case A_CONTINUE:
		quiz_test_free(s->other);
		s->other = NULL;
		if (resume_running(t, s) == 0)
			begin_question(t, s);
		else
			tui_pop(t); /* the test ended meanwhile */
		break;
	case A_ABANDON:
		answers_abandon_running(t->store, answers_now_ms());
		quiz_test_free(s->other);
		s->other = NULL;
		if (start_fresh(t, s) == 0)
			begin_question(t, s);
		else
			tui_pop(t); /* nothing to ask: start_fresh said why */
		break;
	case A_QUIT:
	case A_NO: {
		char *ch = s->reopen_reader && s->want_chapter ? wb_xstrdup(s->want_chapter) : NULL;
		char lang[8];
		snprintf(lang, sizeof lang, "%s", s->want_lang);
		tui_pop(t);
		if (ch)
			reader_open(t, ch, lang);
		free(ch);
		break;
	}
	}
}

static void quiz_key(struct tui *t, void *self, int action, wint_t ch, int is_code)
{
	struct quizscr *s = self;
	(void)is_code;
	s->note[0] = '\0';
	if (s->st == QS_CONFLICT) {
		conflict_key(t, s, action);
		return;
	}
	if (s->st == QS_ABANDON) {
		if (action == A_YES) {
			quiz_session_abandon(s->ss, answers_now_ms());
			const char *msg = i18n(s->lang, M_QUIZ_ABANDONED);
			tui_pop(t);
			tui_flash(t, "%s", msg);
		} else if (action == A_NO || ch == 27 || action == A_QUIT) {
			s->st = s->before_abandon;
		}
		return;
	}
	if (action == A_ABANDON && s->st != QS_SUMMARY) {
		s->before_abandon = s->st;
		s->st = QS_ABANDON;
		return;
	}
	if (action == A_UNDO && s->st != QS_SUMMARY) {
		undo(t, s);
		return;
	}
	if (action == A_PGDN || action == A_PGUP) {
		int step = (LINES - 6) / 2 > 1 ? (LINES - 6) / 2 : 1;
		s->scroll += action == A_PGDN ? step : -step;
		if (s->scroll < 0)
			s->scroll = 0;
		return;
	}
	switch (s->st) {
	case QS_ANSWER:
		if (action == A_QUIT) {
			leave_paused(t, s);
			return;
		}
		if (s->q->kind == QK_CHOICE) {
			int n = (int)s->nmarks;
			if (action == A_UP && s->sel > 0)
				s->sel--;
			else if (action == A_DOWN && s->sel + 1 < n)
				s->sel++;
			else if (action == A_TOGGLE && n)
				s->marks[s->sel] ^= 1;
			else if (action == A_DIGIT && ch - '1' < (wint_t)n) {
				s->sel = (int)(ch - '1');
				s->marks[s->sel] ^= 1;
			} else if (action == A_ENTER)
				submit_choice(t, s);
			return;
		}
		if (action == A_REVEAL && s->q->kind == QK_RECALL)
			reveal(s);
		else if (action == A_ENTER || action == A_REVEAL)
			edit(t, s);
		return;
	case QS_REVEAL: {
		int n = (int)s->nmarks;
		if (action == A_UP && s->sel > 0)
			s->sel--;
		else if (action == A_DOWN && s->sel + 1 < n)
			s->sel++;
		else if (action == A_TOGGLE && n)
			s->marks[s->sel] ^= 1;
		else if (action == A_DIGIT && ch - '1' < (wint_t)n) {
			s->sel = (int)(ch - '1');
			s->marks[s->sel] ^= 1;
		} else if (action == A_AGAIN)
			grade_recall(t, s, GRADE_AGAIN);
		else if (action == A_PARTLY)
			grade_recall(t, s, GRADE_PARTLY);
		else if (action == A_GOT)
			grade_recall(t, s, GRADE_GOT);
		else if (action == A_ENTER)
			grade_recall(t, s, quiz_suggest_grade(s->q, s->marks, NULL));
		else if (action == A_QUIT)
			leave_paused(t, s);
		return;
	}
	case QS_RESULT:
		if (action == A_ENTER || action == A_TOGGLE || action == A_DOWN)
			begin_question(t, s);
		else if (action == A_QUIT)
			leave_paused(t, s);
		return;
	case QS_SUMMARY:
		if (action == A_UP && s->weak_sel > 0)
			s->weak_sel--;
		else if (action == A_DOWN && s->weak_sel + 1 < (int)s->nweak)
			s->weak_sel++;
		else if (action == A_ENTER || ch == 'r') {
			/* Reread the lesson of the weakest (selected) question. */
			const char *chapter =
				s->nweak ? s->sum.items[s->weak_sel].chapter : s->ss->test->chapter;
			char *c = chapter ? wb_xstrdup(chapter) : NULL;
			char lang[8];
			snprintf(lang, sizeof lang, "%s", s->lang);
			tui_pop(t);
			if (c && reader_open(t, c, lang) != 0)
				tui_flash(t, i18n(lang, M_LOAD_FAILED), c, "");
			free(c);
		} else if (action == A_QUIT)
			tui_pop(t);
		return;
	default: return;
	}
}

static void quiz_free(void *self)
{
	struct quizscr *s = self;
	quiz_session_free(s->ss);
	quiz_bank_free(s->bank);
	quiz_test_free(s->other);
	answers_summary_free(&s->sum);
	tb_free(&s->box);
	free(s->marks);
	free(s->title);
	free(s->want_chapter);
	free(s);
}

/* ---- starting ---- */

static void load_bank(struct tui *t, struct quizscr *s, const char *lang)
{
	snprintf(s->lang, sizeof s->lang, "%s", !strcmp(lang, "zh") ? "zh" : "en");
	quiz_bank_free(s->bank);
	s->bank = NULL;
	quiz_bank_open(t->app->content, t->app->quizzes, s->lang, &s->bank);
}

static void set_title(struct tui *t, struct quizscr *s)
{
	free(s->title);
	s->title = s->ss->test->chapter ? lesson_title(t, s->lang, s->ss->test->chapter) : NULL;
}

static int resume_running(struct tui *t, struct quizscr *s)
{
	struct quiz_test *run;
	if (answers_running_test(t->store, &run) != 0)
		return WB_ENOENT;
	load_bank(t, s, run->lang);
	quiz_test_free(run);
	quiz_session_free(s->ss);
	s->ss = NULL;
	int err = quiz_session_resume(t->store, s->bank, &s->ss);
	if (err)
		return err;
	set_title(t, s);
	note(s, i18n(s->lang, M_QUIZ_RESUMED), quiz_session_answered(s->ss), s->ss->test->n);
	return 0;
}

/* Starts what the learner asked for (want_chapter, or review). */
static int start_fresh(struct tui *t, struct quizscr *s)
{
	load_bank(t, s, s->want_lang);
	const struct quiz_question **qs = NULL;
	size_t n;
	if (s->want_chapter) {
		n = quiz_bank_chapter(s->bank, s->want_chapter, &qs);
	} else {
		int64_t now = answers_now_ms() / 1000;
		answers_due(t->store, s->bank, answers_day_start(now, 1), &qs, &n);
	}
	if (n == 0) {
		free(qs);
		if (s->want_chapter)
			tui_flash(t, i18n(s->lang, M_QUIZ_NO_QUESTIONS), s->want_chapter);
		else
			tui_flash(t, "%s", i18n(s->lang, M_QUIZ_NONE_DUE));
		return WB_ENOENT;
	}
	uint64_t seed = answers_random_seed();
	int err = quiz_session_start(t->store, s->want_chapter ? "chapter" : "review",
				     s->want_chapter, s->lang, 1, qs, n, 0, seed, answers_now_ms(),
				     &s->ss);
	free(qs);
	if (err == WB_ECONFLICT)
		return err; /* another window started a test a moment ago: start() looks again */
	if (err == WB_EBUSY) {
		tui_flash(t, "%s %s", i18n(s->lang, M_QUIZ_BUSY),
			  i18n(s->lang, M_QUIZ_BUSY_NOTHING));
		return err;
	}
	if (err) {
		note(s, i18n(s->lang, M_QUIZ_SAVE_FAILED), store_errmsg(t->store));
		return err;
	}
	set_title(t, s);
	return 0;
}

static void push_quiz(struct tui *t, struct quizscr *s)
{
	tui_push(t, (struct screen){
			    .name = "quiz",
			    .self = s,
			    .draw = quiz_draw,
			    .key = quiz_key,
			    .free = quiz_free,
			    .keys = quiz_keys,
			    .nkeys = WB_ARRAY_LEN(quiz_keys),
		    });
}

/* Shared by chapter tests and reviews. */
static void start(struct tui *t, const char *chapter, const char *lang, int replace_top)
{
	struct quizscr *s = wb_xcalloc(1, sizeof *s);
	s->want_chapter = chapter ? wb_xstrdup(chapter) : NULL;
	snprintf(s->want_lang, sizeof s->want_lang, "%s", lang);
	s->reopen_reader = replace_top;
	s->st = QS_ANSWER;
	/* Another window may start a test between the look and the start:
	 * the start then reports WB_ECONFLICT and we look again. */
	for (int attempt = 0;; attempt++) {
		struct quiz_test *run = NULL;
		int err = answers_running_test(t->store, &run);
		if (err && err != WB_ENOENT) {
			tui_flash(t, "%s", store_errmsg(t->store));
			quiz_free(s);
			return;
		}
		int same = run && (chapter ? run->chapter && !strcmp(run->chapter, chapter)
					   : !strcmp(run->kind, "review"));
		if (run && !same) {
			s->other = run;
			s->st = QS_CONFLICT;
			snprintf(s->lang, sizeof s->lang, "%s", lang);
			break;
		}
		int resuming = run != NULL;
		quiz_test_free(run);
		err = resuming ? resume_running(t, s) : start_fresh(t, s);
		if ((err == WB_ECONFLICT || (resuming && err == WB_ENOENT)) && attempt < 3)
			continue;
		if (err) {
			quiz_free(s);
			return;
		}
		break;
	}
	if (replace_top)
		tui_pop(t);
	push_quiz(t, s);
	if (s->st != QS_CONFLICT)
		begin_question(t, s);
}

void quiz_start_chapter(struct tui *t, const char *chapter, const char *lang, int replace_top)
{
	char *c = wb_xstrdup(chapter);
	char l[8];
	snprintf(l, sizeof l, "%s", lang);
	start(t, c, l, replace_top);
	free(c);
}

void quiz_start_review(struct tui *t)
{
	start(t, NULL, t->app->lang, 0);
}

/* ---- the "lesson is closed" notice ---- */

struct blocked {
	char *chapter;	 /* the lesson asked for */
	char lang[8];	 /* its language */
	size_t answered; /* of the running test */
	size_t n;
	char *test_chapter; /* the running test's chapter, NULL for a review */
};

enum { B_CONTINUE, B_ABANDON, B_BACK };

static const struct keybind blocked_keys[] = {
	{'c', 0, "c", B_CONTINUE, "continue the test", "继续测验"},
	{'\r', 0, "Enter", B_CONTINUE, "continue the test", "继续测验"},
	{'A', 0, "A", B_ABANDON, "abandon the test and open the lesson", "放弃测验并打开课文"},
	{'q', 0, "q", B_BACK, "back", "返回"},
	{KEY_LEFT, 1, "←", B_BACK, "back", "返回"},
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
		size_t n = layout_wrap(parts[k], COLS - 4, &lines);
		for (size_t i = 0; i < n; i++)
			term_text(y++, 2, lines[i], COLS - 4, k == 0 ? A_BOLD : 0);
		layout_wrap_free(lines, n);
		y++;
	}
	term_status(t, i18n(L, M_QUIZ_BLOCKED_KEYS), "");
}

static void blocked_key(struct tui *t, void *self, int action, wint_t ch, int is_code)
{
	(void)ch;
	(void)is_code;
	struct blocked *b = self;
	char *chapter = wb_xstrdup(b->chapter);
	char *test_chapter = b->test_chapter ? wb_xstrdup(b->test_chapter) : NULL;
	char lang[8];
	snprintf(lang, sizeof lang, "%s", b->lang);
	switch (action) {
	case B_CONTINUE:
		tui_pop(t);
		if (test_chapter)
			quiz_start_chapter(t, test_chapter, lang, 0);
		else
			start(t, NULL, lang, 0);
		break;
	case B_ABANDON:
		answers_abandon_running(t->store, answers_now_ms());
		tui_pop(t);
		tui_flash(t, "%s", i18n(lang, M_QUIZ_ABANDONED));
		reader_open(t, chapter, lang);
		break;
	case B_BACK: tui_pop(t); break;
	}
	free(chapter);
	free(test_chapter);
}

static void blocked_free(void *self)
{
	struct blocked *b = self;
	free(b->chapter);
	free(b->test_chapter);
	free(b);
}

int quiz_guard_lesson(struct tui *t, const char *chapter, const char *lang)
{
	struct quiz_test *run;
	if (answers_running_test(t->store, &run) != 0)
		return 0;
	if (!quiz_test_covers(run, chapter)) {
		quiz_test_free(run);
		return 0;
	}
	struct blocked *b = wb_xcalloc(1, sizeof *b);
	b->chapter = wb_xstrdup(chapter);
	snprintf(b->lang, sizeof b->lang, "%s", lang);
	b->answered = run->answered;
	b->n = run->n;
	b->test_chapter = run->chapter ? wb_xstrdup(run->chapter) : NULL;
	quiz_test_free(run);
	tui_push(t, (struct screen){
			    .name = "lesson-closed",
			    .self = b,
			    .draw = blocked_draw,
			    .key = blocked_key,
			    .free = blocked_free,
			    .keys = blocked_keys,
			    .nkeys = WB_ARRAY_LEN(blocked_keys),
		    });
	return 1;
}

/* ---- home's line ---- */

/* One cached bank per language: home redraws several times a second. */
static struct {
	struct quiz_bank *bank;
	char lang[8];
} cache;

static void cache_free(void)
{
	quiz_bank_free(cache.bank);
	cache.bank = NULL;
}

static const struct quiz_bank *cached_bank(struct tui *t, const char *lang)
{
	if (cache.bank && !strcmp(cache.lang, lang))
		return cache.bank;
	static int registered;
	if (!registered) {
		atexit(cache_free);
		registered = 1;
	}
	cache_free();
	snprintf(cache.lang, sizeof cache.lang, "%s", lang);
	quiz_bank_open(t->app->content, t->app->quizzes, lang, &cache.bank);
	return cache.bank;
}

int quiz_due_today(struct tui *t, const char *lang)
{
	const struct quiz_bank *b = cached_bank(t, lang);
	int counts[1] = {0};
	if (answers_due_days(t->store, b, answers_now_ms() / 1000, 1, counts) != 0)
		return 0;
	return counts[0];
}

void quiz_home_line(struct tui *t, int y)
{
	const char *L = t->app->lang;
	char buf[512];
	struct quiz_test *run;
	if (answers_running_test(t->store, &run) == 0) {
		snprintf(buf, sizeof buf, i18n(L, M_HOME_TEST_RUNNING),
			 run->chapter ? run->chapter : i18n(L, M_QUIZ_REVIEW_TITLE), run->answered,
			 run->n);
		quiz_test_free(run);
		term_text(y, 2, buf, COLS - 4, A_BOLD);
		return;
	}
	snprintf(buf, sizeof buf, i18n(L, M_HOME_DUE), quiz_due_today(t, L));
	term_text(y, 2, buf, COLS - 4, A_DIM);
}
