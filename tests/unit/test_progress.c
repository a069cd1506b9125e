/* test_progress.c - the review queue and the learner's day on a real
 * SQLite file: the daily limit of new questions (Anki's "new cards per
 * day": first graded today count against it, tomorrow it starts again),
 * due counts per chapter, the day rolling over at 4 am (not 24 h after a
 * review), and the next intervals the grade keys show, in English and
 * Chinese.  TZ is UTC; every time is passed in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "core/answers.h"
#include "core/progress.h"
#include "core/quizbank.h"
#include "core/sched.h"
#include "core/store.h"
#include "base/wb.h"
#include "testlib.h"

#define HOUR  3600
#define DAY   86400
#define T0    1767268800       /* 2026-01-01 12:00:00 UTC */
#define JAN02 (T0 + 12 * HOUR) /* 2026-01-02 00:00:00 UTC */

static char dir[64];
static struct quiz_bank *bank;

static int setup(void **state)
{
	(void)state;
	setenv("TZ", "UTC0", 1);
	tzset();
	if (testlib_tmpdir("progress", dir, sizeof dir) != 0)
		return -1;
	const char *dirs[] = {WB_TEST_FIXTURES "/quizzes"};
	return quiz_bank_load(dirs, 1, "en", &bank);
}

static int teardown(void **state)
{
	(void)state;
	quiz_bank_free(bank);
	return testlib_rmtree(dir) == 0 ? 0 : -1;
}

static struct store *open_db(const char *name)
{
	char path[128], err[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	struct store *s;
	if (store_open(path, &s, err, sizeof err) != 0)
		fail_msg("%s", err);
	return s;
}

/* Saves a grade for question id at unix time t. */
static void grade(struct store *s, const char *id, int g, int64_t t)
{
	const struct quiz_question *q = quiz_bank_find(bank, id);
	assert_non_null(q);
	struct answer a = {0};
	a.question = wb_xstrdup(id);
	a.chapter = wb_xstrdup(q->file->chapter);
	a.lang = wb_xstrdup("en");
	a.kind = wb_xstrdup(quiz_kind_name(q->kind));
	a.shown_at = t * 1000 - 30000;
	a.graded_at = t * 1000;
	a.max_points = q->max_points;
	a.points = g == GRADE_GOT ? q->max_points : 0;
	a.grade = g;
	a.closed_book = 1;
	assert_int_equal(answers_save(s, &a), 0);
	answer_clear(&a);
}

/* The review queue at now: its size, and its first question's id. */
static size_t queue(struct store *s, int64_t now, const char **first)
{
	const struct quiz_question **qs;
	size_t n;
	assert_int_equal(answers_due(s, bank, answers_day_start(now, 1), &qs, &n), 0);
	*first = n ? qs[0]->id : "";
	free(qs);
	return n;
}

static void test_new_per_day(void **state)
{
	(void)state;
	struct store *s = open_db("new.db");
	const char *first;
	/* The default brings every one of the six new questions (20 a day). */
	assert_int_equal(answers_new_per_day(), 20);
	assert_int_equal(queue(s, T0, &first), 6);
	assert_int_equal(answers_set_new_per_day(2), 0);
	assert_int_equal(queue(s, T0, &first), 2);
	assert_string_equal(first, "fixture-notify"); /* bank order */
	/* A question first graded today uses up one of the two. */
	grade(s, "fixture-notify", GRADE_GOT, T0);
	assert_int_equal(queue(s, T0 + HOUR, &first), 1);
	assert_string_equal(first, "fixture-cas-minus-one");
	int due = -1, fresh = -1;
	assert_int_equal(answers_due_today(s, bank, "00-fixture", T0 + HOUR, &due, &fresh), 0);
	assert_int_equal(due, 0);
	assert_int_equal(fresh, 1);
	assert_int_equal(answers_due_today(s, bank, "99-other", T0 + HOUR, &due, &fresh), 0);
	assert_int_equal(due + fresh, 0);
	/* Grading it again today is not a new question. */
	grade(s, "fixture-notify", GRADE_GOT, T0 + 2 * HOUR);
	assert_int_equal(queue(s, T0 + 3 * HOUR, &first), 1);
	/* Tomorrow the allowance starts again. */
	assert_int_equal(queue(s, T0 + DAY, &first), 2);
	/* Three days on, notify is due and comes first, then two new ones. */
	assert_int_equal(queue(s, T0 + 5 * DAY, &first), 3);
	assert_string_equal(first, "fixture-notify");
	assert_int_equal(answers_due_today(s, bank, NULL, T0 + 5 * DAY, &due, &fresh), 0);
	assert_int_equal(due, 1);
	assert_int_equal(fresh, 2);
	/* No new questions at all. */
	assert_int_equal(answers_set_new_per_day(0), 0);
	assert_int_equal(queue(s, T0, &first), 0);
	assert_int_equal(answers_set_new_per_day(-1), WB_EINVAL);
	assert_int_equal(answers_set_new_per_day(ANSWERS_NEW_PER_DAY), 0);
	store_close(s);
}

/* The day starts at 4 am: a lapse at 23:00 is due at 04:00, not at 23:00
 * the next day, and at 02:00 it is still the day of the lapse. */
static void test_day_rolls_over_at_4am(void **state)
{
	(void)state;
	struct store *s = open_db("rollover.db");
	assert_int_equal(answers_set_new_per_day(0), 0);
	assert_int_equal(answers_day_start(JAN02 + 2 * HOUR, 0), JAN02 - 20 * HOUR);
	assert_int_equal(answers_day_start(JAN02 + 5 * HOUR, 0), JAN02 + 4 * HOUR);
	assert_int_equal(answers_day_start(JAN02 + 5 * HOUR, 1), JAN02 + 28 * HOUR);
	grade(s, "fixture-notify", GRADE_AGAIN, JAN02 - HOUR); /* 23:00 */
	struct sched_state st;
	assert_int_equal(answers_schedule_get(s, "fixture-notify", &st), 0);
	assert_int_equal(st.due, JAN02 + 4 * HOUR);
	const char *first;
	assert_int_equal(queue(s, JAN02 + 2 * HOUR, &first), 0); /* 02:00: the same day */
	assert_int_equal(queue(s, JAN02 + 5 * HOUR, &first), 1); /* 05:00: the next day */
	/* A workbench started with --day-starts 0 has midnight days. */
	assert_int_equal(sched_set_day_start(0), 0);
	assert_int_equal(answers_day_start(JAN02 + 2 * HOUR, 0), JAN02);
	assert_int_equal(sched_set_day_start(SCHED_DAY_START_DEF), 0);
	assert_int_equal(answers_set_new_per_day(ANSWERS_NEW_PER_DAY), 0);
	store_close(s);
}

static void test_next_intervals(void **state)
{
	(void)state;
	struct store *s = open_db("ivl.db");
	int days[4];
	char buf[256];
	/* New: Again 1, Partly (Hard) round(1.18385) = 1, Got it (Good)
	 * round(3.173) = 3 (test_sched.c test_preview). */
	assert_int_equal(answers_next_intervals(s, "fixture-notify", T0, days), 0);
	assert_int_equal(days[GRADE_AGAIN], 1);
	assert_int_equal(days[GRADE_PARTLY], 1);
	assert_int_equal(days[GRADE_GOT], 3);
	answers_intervals_text("en", days, buf, sizeof buf);
	assert_string_equal(buf, "Again: tomorrow · Partly: tomorrow · Got it: 3 d");
	/* Got it at T0, asked three days later: 1, 5, 11. */
	grade(s, "fixture-notify", GRADE_GOT, T0);
	assert_int_equal(answers_next_intervals(s, "fixture-notify", T0 + 3 * DAY, days), 0);
	answers_intervals_text("en", days, buf, sizeof buf);
	assert_string_equal(buf, "Again: tomorrow · Partly: 5 d · Got it: 11 d");
	answers_intervals_text("zh", days, buf, sizeof buf);
	assert_string_equal(buf, "没掌握：明天 · 部分掌握：5 天 · 已掌握：11 天");
	int long_days[4] = {0, 1, 45, 400};
	answers_intervals_text("en", long_days, buf, sizeof buf);
	assert_string_equal(buf, "Again: tomorrow · Partly: 1.5 mo · Got it: 1.1 y");
	char tiny[12];
	answers_intervals_text("en", long_days, tiny, sizeof tiny);
	assert_int_equal(strlen(tiny), sizeof tiny - 1);
	store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_per_day),
		cmocka_unit_test(test_day_rolls_over_at_4am),
		cmocka_unit_test(test_next_intervals),
	};
	return cmocka_run_group_tests_name("progress", tests, setup, teardown);
}
