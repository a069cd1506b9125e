/*
 * narration.h - a lab's narration in the learner's language: the Chinese
 * text of every step, expected value, conclusion and could-not-run note a
 * lab writes through harness/report.h.
 *
 * The English format string is the key, as in gettext's msgid: a lab
 * writes report_step(r, "B takes the lock with token %lld", t) and, in a
 * Chinese run, the reporter formats the Chinese text with the same
 * arguments.  The tables are data (narration_zh_*.def); a unit test checks
 * that every Chinese format has exactly the English one's conversions, in
 * order, so the arguments always fit, and a test over the lab sources
 * checks that every narration literal has its translation.  Identifiers,
 * paths, check names, evidence and observed values are not translated.
 * It does not choose the language (the supervisor does) or print.
 */
#ifndef WB_NARRATION_H
#define WB_NARRATION_H

#include <stddef.h>

/* The text of the English format en in lang: the Chinese format when lang
 * is "zh" and the table has one, else en itself.  en may be NULL (NULL is
 * returned).  Cannot fail; the result is static or en. */
const char *narration_text(const char *lang, const char *en);

/* The table, for tests: *n pairs of (English, Chinese) formats. */
struct narration_pair {
	const char *en;
	const char *zh;
};
const struct narration_pair *narration_table(size_t *n);

#endif
