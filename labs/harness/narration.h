/*
 * narration.h - a lab's narration in the learner's language: the Chinese
 * text of every step, expected value, conclusion and could-not-run note a
 * lab writes through harness/report.h, from the gettext catalogue.
 *
 * The English format string is the msgid: a lab writes
 * report_step(r, "B takes the lock with token %lld", t) and, in a Chinese
 * run, the reporter formats the catalogue's Chinese text with the same
 * arguments.  xgettext finds the narration as the format argument of the
 * report_* calls (po/update.sh names them); a narration passed in a
 * variable is written N_("...") where it is a literal.  msgfmt -c checks
 * that every Chinese format has the English one's conversions, and
 * tests/cli/translations.sh that every msgid has its Chinese text.
 * Identifiers, paths, check names, evidence and observed values are not
 * translated.  It does not choose the language (the supervisor does),
 * print, or load the catalogue (base/l10n.h does).
 */
#ifndef WB_NARRATION_H
#define WB_NARRATION_H

/* Marks a narration literal for xgettext where it is not written in a
 * report_* call itself; the text is unchanged. */
#ifndef N_
#define N_(s) s
#endif

/* The text of the English format en in lang: the Chinese format when lang
 * is "zh" and the catalogue has one, else en itself.  en may be NULL
 * (NULL is returned).  Cannot fail; the result is the catalogue's (never
 * freed) or en. */
const char *narration_text(const char *lang, const char *en);

#endif
