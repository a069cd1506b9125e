/*
 * i18n.c - the interface's strings through GNU gettext (see i18n.h): the
 * table below holds the English msgids, marked N_() for xgettext; their
 * Chinese texts are in po/zh_CN.po, which msgfmt compiles at build time
 * into <build>/locale/zh_CN/LC_MESSAGES/workbench.mo (installed under
 * share/locale/zh_CN/LC_MESSAGES/).  base/l10n.c loads it, for the labs'
 * narration too (one domain, "workbench"; po/update.sh extracts both).
 *
 * The language is chosen per run (--lang) and per call (the TUI's L key
 * switches it at run time; a test may stay in the language it started
 * in), not by the user's locale, and a fresh Debian has no zh_CN locale.
 * Measured here in C (glibc 2.36, Debian 12; `locale -a`: C, C.utf8,
 * POSIX; a ten-line program with its own .mo):
 *   - LANG=zh_CN.UTF-8: setlocale(LC_ALL, "") fails, LC_MESSAGES stays
 *     "C", and gettext returns the msgid.  In "C" (and "POSIX") glibc
 *     never loads a catalogue and ignores LANGUAGE.
 *   - LC_MESSAGES "C.UTF-8" with LANGUAGE=zh_CN: translated, from
 *     <dir>/zh_CN/LC_MESSAGES/<domain>.mo.  C.UTF-8 comes with libc-bin
 *     (/usr/lib/locale/C.utf8), not from locale-gen: it loads with
 *     env -i and with LOCPATH naming an empty folder.
 *   - Switching at run time does not work: after one Chinese lookup,
 *     LANGUAGE=en still gives the Chinese text, also after
 *     setlocale(LC_MESSAGES, "C.UTF-8") or textdomain() again (glibc caches
 *     a translation by domain and LC_MESSAGES name, not by LANGUAGE).
 * So only Chinese is ever looked up: English is the msgid itself, returned
 * without gettext, and the first Chinese lookup sets LC_MESSAGES to
 * C.UTF-8 (when it is C or POSIX; a real user locale is kept) and
 * LANGUAGE=zh_CN once, for the rest of the process.  No per-language
 * domains and no locale-gen are needed.  The price: from then on other
 * catalogues follow LANGUAGE too (libc's strerror texts in Chinese where
 * Debian's zh_CN libc.mo is installed), and child processes inherit
 * LANGUAGE=zh_CN; a run that never shows Chinese never sets either.
 *
 * The enum API stays: call sites pass the language per call, which _()
 * (one global language) cannot, and 200-odd call sites keep their
 * M_ names; the table is msgids only, so there is one source of truth
 * and xgettext finds every string.  New code may also write
 * i18n_text(lang, "English") at the call site (extracted as well).
 * Format directives must match between msgid and msgstr: msgfmt -c checks
 * it at build time.  It does not choose the language or format text.
 */
#include "core/i18n.h"

#include <string.h>

#include "base/l10n.h"

static const char *const msgids[M_COUNT] = {
	[M_APP_TITLE] = N_("workbench: distributed coordination engineering"),
	[M_HOME_HINT] = N_("Enter open  L 中文  ? help  q quit"),
	[M_NO_CHAPTERS] = N_("No chapters found in %s"),
	[M_READ] = N_("read"),
	[M_TOC_TITLE] = N_("Contents (Enter jumps, Esc closes)"),
	[M_HELP_TITLE] = N_("Keys on this screen"),
	[M_HELP_CLOSE] = N_("Press any key to close"),
	[M_SEARCH_PROMPT] = N_("Search: "),
	[M_SEARCH_NONE] = N_("No match for \"%s\""),
	[M_SEARCH_HITS] = N_("Match %zu of %zu for \"%s\""),
	[M_TOO_SMALL] = N_("Terminal too small (%dx%d). Please make it at least %dx%d."),
	[M_LANG_MISSING] = N_("This chapter has no English version"),
	[M_LAB_NOT_BUILT] = N_("Lab %s is not in this build yet"),
	[M_READER_HINT] = N_("? help"),
	[M_NO_SECTIONS] = N_("This chapter has no sections"),
	[M_LABS] = N_("labs passed"),
	[M_LOAD_FAILED] = N_("Cannot open %s: %s"),
	[M_GRADE_AGAIN] = N_("Again"),
	[M_GRADE_PARTLY] = N_("Partly"),
	[M_GRADE_GOT] = N_("Got it"),
	[M_GRADE_AGAIN_MEANS] = N_("Again: I could not recall the key points"),
	[M_GRADE_PARTLY_MEANS] = N_("Partly: I recalled some points, or only with real effort"),
	[M_GRADE_GOT_MEANS] = N_("Got it: I recalled every point without help"),
	[M_IVL_TOMORROW] = N_("tomorrow"),
	[M_IVL_DAYS] = N_("%d d"),
	[M_IVL_MONTHS] = N_("%.1f mo"),
	[M_IVL_YEARS] = N_("%.1f y"),
	[M_IVL_ITEM] = N_("%s%s: %s"),
	[M_IVL_NEXT] = N_("Next review: %s"),
	[M_HOME_CHAPTER_DUE] = N_("%d due"),
	[M_HOME_DUE_NEW] = N_("%d due today, %d new: r review · s self-test · p statistics"),
	[M_KIND_RECALL] = N_("recall"),
	[M_KIND_CHOICE] = N_("choice"),
	[M_KIND_NUMERIC] = N_("numeric"),
	[M_QUIZ_TITLE] = N_("Self-test: %s"),
	[M_QUIZ_REVIEW_TITLE] = N_("Review: questions due today"),
	[M_QUIZ_PROGRESS] = N_("Question %zu of %zu"),
	[M_QUIZ_YOUR_ANSWER] = N_("Your answer"),
	[M_QUIZ_EDIT_HINT] = N_("Tab done: reveal the answer · Esc command keys"),
	[M_QUIZ_NOT_WRITTEN] = N_("(you chose not to write an answer)"),
	[M_QUIZ_REFERENCE] = N_("Reference answer"),
	[M_QUIZ_RUBRIC] = N_("Rubric: tick the points you covered"),
	[M_QUIZ_SUGGESTED] = N_("Suggested grade: %s (%d of %d points ticked)"),
	[M_QUIZ_REVEAL_HINT] = N_("Space tick · a/p/g grade · Enter accept %s · u undo"),
	[M_QUIZ_CHOICE_HINT] = N_("Space choose · Enter submit · u undo · q pause · A abandon"),
	[M_QUIZ_CHOICE_MULTI] = N_("Choose every correct option"),
	[M_QUIZ_NUMERIC_PROMPT] = N_("Your answer (a number): "),
	[M_QUIZ_NOT_NUMBER] = N_("'%s' is not a number"),
	[M_QUIZ_CORRECT] = N_("Correct"),
	[M_QUIZ_WRONG] = N_("Not correct"),
	[M_QUIZ_EXPECTED] = N_("Expected %s"),
	[M_QUIZ_NEXT_HINT] = N_("Enter next question · u undo"),
	[M_QUIZ_SAVED] = N_("Saved: %s, %d/%d points"),
	[M_QUIZ_UNDONE] = N_("Grade undone: answer the question again"),
	[M_QUIZ_NOTHING_TO_UNDO] = N_("Nothing to undo in this test"),
	[M_QUIZ_PAUSED] = N_("Test paused: s on its chapter resumes it"),
	[M_QUIZ_SUMMARY] = N_("Test finished"),
	[M_QUIZ_POINTS] = N_("Points %d of %d (%d%%)"),
	[M_QUIZ_TIME] = N_("Time %d:%02d"),
	[M_QUIZ_WEAKEST] = N_("Weakest questions (Enter rereads the lesson):"),
	[M_QUIZ_ALL_GOT] = N_("Every question got full points."),
	[M_QUIZ_NO_QUESTIONS] = N_("Chapter %s has no questions in this language"),
	[M_QUIZ_NONE_DUE] = N_("No questions are due for review today"),
	[M_QUIZ_OTHER_RUNNING] = N_("Another self-test is in progress: %s, %zu of %zu answered."),
	[M_QUIZ_OTHER_KEYS] = N_("c continue that test · A abandon it and start this one · q back"),
	[M_QUIZ_BLOCKED] =
		N_("A closed-book self-test of this chapter is in progress (%zu of %zu answered)."),
	[M_QUIZ_BLOCKED_WHY] =
		N_("The lesson stays closed until the test is finished or abandoned."),
	[M_QUIZ_BLOCKED_KEYS] =
		N_("c continue the test · A abandon the test and open the lesson · q back"),
	[M_QUIZ_ABANDON_ASK] = N_("Abandon this test? Graded answers are kept. y yes · n no"),
	[M_QUIZ_ABANDONED] = N_("Test abandoned; graded answers were kept"),
	[M_QUIZ_SAVE_FAILED] = N_("Could not save the answer: %s"),
	[M_QUIZ_RESUMED] = N_("Resumed: %zu of %zu answered"),
	[M_QUIZ_CMD_HINT] =
		N_("^P pause · ^R undo · ^X abandon · F1 all keys · letters still type"),
	[M_QUIZ_OPTIONS] = N_("Options"),
	[M_QUIZ_SUMMARY_HINT] = N_("Enter reread the lesson · q back"),
	[M_HOME_DUE] = N_("%d due today: r review · s self-test · p statistics"),
	[M_HOME_TEST_RUNNING] = N_("Self-test in progress: %s, %zu of %zu answered (s resumes)"),
	[M_STATS_TITLE] = N_("Statistics"),
	[M_STATS_MASTERY] = N_("Mastery per chapter (share of questions last graded Got it)"),
	[M_STATS_POINTS] = N_("Points per test, oldest first (tests: %zu)"),
	[M_STATS_NO_TESTS] = N_("No tests yet"),
	[M_STATS_DUE] = N_("Questions due in the next 14 days"),
	[M_STATS_HINT] = N_("j/k scroll · q back"),
	[M_STATS_TODAY] = N_("today"),
	[M_PLAIN_WRITE] = N_("Write your answer; end it with a line holding only \".\" (a first "
			     "line \".\" skips writing):"),
	[M_PLAIN_TICK] = N_("Which rubric points did you cover? Numbers separated by spaces, "
			    "\"all\", or Enter for none:"),
	[M_PLAIN_GRADE] = N_("Your grade: a = Again, p = Partly, g = Got it (Enter = %s):"),
	[M_PLAIN_CHOOSE] = N_("Your choice: option numbers separated by spaces:"),
	[M_PLAIN_BAD_INPUT] = N_("Please answer with numbers from 1 to %zu"),
	[M_PLAIN_COMMANDS] = N_("At any prompt: :undo undoes the last grade, :quit pauses, "
				":abandon abandons the test."),
	[M_PLAIN_CORRECT_OPTIONS] = N_("Correct options: %s"),
	[M_QUIZ_NUMERIC_HINT] = N_("Enter submit · Esc command keys"),
	[M_PLAIN_PAUSED] = N_("Test paused: run the same command again to resume it."),
	[M_QUIZ_BUSY] = N_("The progress database is busy: another program is writing to it "
			   "(another workbench, a backup or a database shell)."),
	[M_QUIZ_BUSY_NOTHING] = N_("Nothing was changed; try again."),
	[M_PLAIN_BUSY_CHOICE] =
		N_("Enter: try again · :quit: pause the test (this answer is not saved)"),
	[M_PLAIN_BUSY_CHOICE_STOP] = N_("Enter: try again · :quit: stop (nothing is changed)"),
	[M_PLAIN_NUMERIC_PROMPT] = N_("Your answer (a number): (\".\" or an empty line skips)"),
	[M_PLAIN_SKIPPED] = N_("Skipped"),
	[M_PLAIN_WEAKEST] = N_("Weakest questions:"),
	[M_PLAIN_REREAD] = N_("To reread the chapter: workbench lesson show %s"),
	[M_QUIZ_GRADED_ELSEWHERE] =
		N_("[%s] was already graded in another window (%s); this answer was not saved."),
	[M_QUIZ_ENDED_ELSEWHERE] =
		N_("This test was ended in another window; this answer was not saved."),
	[M_QUIZ_UNDO_ELSEWHERE] =
		N_("Nothing undone: the newest grade of this test was given in another window."),
	[M_QUIZ_ABANDON_OTHER_ASK] =
		N_("Abandon that test and start this one? Graded answers are kept. y yes · n no"),
	[M_QUIZ_BLOCKED_ABANDON_ASK] =
		N_("Abandon the test and open the lesson? Graded answers are kept. y yes · n no"),
	[M_QUIZ_DRAFT_KEPT] =
		N_("Test paused; your unfinished answer is kept: s on its chapter resumes it"),
	[M_QUIZ_DRAFT_RESTORED] = N_("Your unfinished answer is back in the box"),
	[M_QUIZ_LENGTH_TITLE] = N_("Closed-book self-test: %s"),
	[M_QUIZ_LENGTH_SHORT] = N_("%zu questions: across the chapter's sections, weak ones first"),
	[M_QUIZ_LENGTH_MEDIUM] = N_("%zu questions: the same rule, a longer test"),
	[M_QUIZ_LENGTH_ALL] = N_("all %zu questions"),
	[M_QUIZ_LENGTH_WHY] = N_("The lesson closes once you grade the first answer, and opens "
				 "again when the test is finished or abandoned; q pauses it."),
	[M_QUIZ_LENGTH_KEYS] = N_("j/k or 1-3 choose · Enter start · q back"),
	[M_QUIZ_TRIMMED] = N_("Resumed: %zu of %zu answered (--limit %zu: at most %zu more)"),
	[M_QUIZ_LANG_SWITCHED] = N_("The test continues in English; nothing graded changed"),
	[M_QUIZ_LANG_KEPT] =
		N_("Some questions of this test have no English version: it stays in Chinese"),
	[M_QUIZ_LANG_FAILED] = N_("Cannot switch the test's language (%s); it goes on as it was"),
	[M_LAB_TITLE] = N_("Lab"),
	[M_LAB_EXPECTED] = N_("expected: "),
	[M_LAB_OBSERVED] = N_("observed: "),
	[M_LAB_RUNNING] = N_("running… Esc cancels"),
	[M_LAB_CANCELLING] = N_("cancelling…"),
	[M_LAB_CANCELLED] = N_("cancelled"),
	[M_LAB_PASS] = N_("PASS ✔"),
	[M_LAB_CANNOT] = N_("could not run"),
	[M_LAB_FAIL] = N_("FAIL ✘"),
	[M_LAB_CHECKS_HELD] = N_("checks held"),
	[M_LAB_NO_RECIPE] = N_("This lab has no separate recipe"),
	[M_LAB_CANNOT_START] = N_("cannot start the lab: %s"),
	[M_HELP_WORD] = N_("help"),
	[M_HELP_THIS] = N_("this help"),
	/* the glossary screen (tui/glossary.c) */
	[M_GLOSSARY_HINT] = N_("t terms  / search  q back  ? help"),
	[M_GLOSSARY_TERMS] = N_("Terms (Enter goes there, Esc closes)"),
	[M_GLOSSARY_MISSING] = N_("There is no English glossary"),
	[M_GLOSSARY_NO_TERM] = N_("\"%s\" is not in the glossary"),
	[M_TABLE_CUT] = N_("(Table cut here: the table at line %d has %zu cells; the reader lays "
			   "out at most %u table cells per lesson.)"),
	/* wt-labux */
	[M_LAB_CONTROL_OK] = N_("  (the control failed, as expected: a pass)"),
	[M_LAB_CONCLUSION] = N_("What this run showed:"),
	[M_LAB_EVIDENCE] = N_("Evidence (%zu lines)"),
	[M_LAB_CANCEL_DONE] = N_("Cancelled: the %d processes the run started are stopped and its "
				 "run folder is removed."),
	[M_LAB_CANCEL_FORCED] =
		N_("Cancelled: the lab did not stop in time and was killed; its processes die with "
		   "it, and its run folder is removed when the next lab starts."),
	[M_LAB_NO_CARD] =
		N_("No lab card on screen: scroll to a Lab box (Tab picks one of several)"),
	[M_SEARCH_PROMPT_LAST] = N_("Search (Enter: \"%s\"): "),
	[M_SOURCE_STATUS] = N_("line %zu of %zu  col %d"),
	[M_SOURCE_NOT_FOUND] = N_("Cannot open %s: %s"),
	[M_HELP_SCROLL] = N_("j/k Space/b scroll · q closes"),
	[M_QUIZ_FULL] = N_(
		"No space left on device: the answer was not saved; nothing saved before is lost."),
	[M_PLAIN_FULL_CHOICE] = N_("Free some space and press Enter to try again · :quit: pause "
				   "the test (this answer is not saved)"),
	[M_QUIZ_FULL_RETRY] = N_("Free some space and press the same key to try again."),
	[M_TEST_NOT_STARTED] = N_("Cannot start the test: %s"),
	[M_TEST_FULL] = N_("No space left on device: the test was not started; nothing saved "
			   "before is lost. Free some space and press s again."),
	[M_DB_LOCKED] = N_("The progress database %s is locked by another program."),
	[M_DB_LOCKED_WHY] =
		N_("An open sqlite3 shell, a backup or another workbench holds it exclusively. "
		   "Nothing was changed; the workbench starts as soon as it is released."),
	[M_DB_LOCKED_WAIT] = N_("Trying again in %d s · r: try now · q: quit"),
	[M_DB_LOCKED_TRYING] = N_("Trying again…"),
	/* wt-uxa */
	[M_QUIZ_GOT_NONE_ASK] = N_("Got it with 0 of %d points ticked? y grade Got it · n back"),
	[M_READER_PICK_SECTION] = N_("Pick the section about [%s] (Enter jumps)"),
	/* wt-timeline */
	[M_TL_MS] = N_("ms"),
	[M_TL_NOTE_SCALE] =
		N_("Times are ms since the run started; spacing between ticks is compressed."),
	[M_TL_NOTE_BREAKS] = N_("Times are ms since the run started; each ≈ leaves out idle time "
				"(%s ms in all); spacing between ticks is compressed."),
	[M_TL_NOTE_WITNESS] = N_("Heavy bars (━) are the checker's witness: operations %s."),
	[M_TL_EMPTY] = N_("No operations or marks were recorded."),
	[M_TL_TITLE] = N_("Timeline"),
	[M_TL_NO_HISTORY] = N_("This run recorded no operation history, so there is no timeline to "
			       "show. t: back to the run"),
	[M_TL_MISSING] = N_("(The timeline '%s' cannot be shown here: its history file is missing "
			    "or damaged, or the page is too narrow.)"),
	/* wt-perf */
	[M_LABALL_LAB] = N_("lab"),
	[M_LABALL_SECONDS] = N_("seconds"),
	[M_LABALL_VERDICT] = N_("verdict"),
	[M_LABALL_NOT_RUN] = N_("not run"),
	[M_LABALL_TOTAL] =
		N_("%d labs in %.1f s: %d passed, %d failed, %d could not run, %d not run"),
	/* exercises: wt-fw */
	[M_EX_NOT_STARTED] = N_("not started"),
	[M_EX_FAILING] = N_("failing"),
	[M_EX_PASSED] = N_("passed"),
	[M_EX_LIST_HEAD] = N_("CH  ID                   LANG  STATE        HINTS  TITLE"),
	[M_EX_UNKNOWN] = N_("unknown exercise '%s'%s; see workbench exercise list"),
	[M_EX_DID_YOU_MEAN] = N_(" (did you mean '%s'?)"),
	[M_EX_NONE] = N_("No exercise in this build yet."),
	[M_EX_FILE] = N_("Your file: %s"),
	[M_EX_KEPT] = N_("Already started: your file is kept as it is (workbench exercise reset %s "
			 "starts over)."),
	[M_EX_NEXT] = N_("When it is written: workbench exercise check %s   (or watch %s: checks "
			 "on every save)"),
	[M_EX_EDITOR_FAILED] = N_("the editor (%s) exited with status %d; your file is kept"),
	[M_EX_HINT_N] = N_("Hint %d of %d"),
	[M_EX_HINTS_ALL_SHOWN] =
		N_("All %d hints are revealed; workbench exercise hint %s --all shows them again."),
	[M_EX_HINTS_NONE_YET] =
		N_("No hint revealed yet: workbench exercise hint %s shows the first."),
	[M_EX_RESET_ASK] = N_("Reset %s to the starter? Your file is kept as a .bak copy. [y/N] "),
	[M_EX_NEEDS_YES] = N_("not on a terminal: pass --yes to confirm"),
	[M_EX_RESET_DONE] = N_("Reset %s: a fresh starter is in %s"),
	[M_EX_BACKUP] = N_("Your old file: %s"),
	[M_EX_UNCHANGED] = N_("Nothing changed."),
	[M_EX_SOLUTION_ASK] = N_(
		"Show the reference solution of %s? It is recorded; a hint may teach more. [y/N] "),
	[M_EX_SOLUTION_TITLE] = N_("Reference solution of %s (solution.%s):"),
	[M_EX_NOT_STARTED_ERR] = N_("%s is not started yet: workbench exercise start %s"),
	[M_EX_VERIFY_NONE] = N_("No exercise started yet: workbench exercise list shows them."),
	[M_EX_VERIFY_CHECKING] = N_("Checking %s ..."),
	[M_EX_VERIFY_SUMMARY] = N_("%d of %d started exercises pass"),
	[M_EX_CANNOT_RUN] = N_("could not run"),
	[M_EX_FAILED_CHECKS] = N_("failed: %s"),
	[M_EX_WATCHING] = N_("Watching %s: every save runs the check; Ctrl-C stops."),
	[M_EX_WATCH_RUN] = N_("-- check %d of %s: %s (save again to re-check; Ctrl-C stops)"),
	[M_EX_WATCH_STOPPED] = N_("Stopped watching."),
	[M_EX_CHECK_FAILED_START] = N_("cannot run the check: %s"),
	[M_EX_CARD] = N_("Try it yourself"),
	[M_EX_CARD_KEYS] = N_("Enter start and check · h hint"),
	[M_EX_NO_EDITOR] = N_("No editor: set $VISUAL or $EDITOR. Your file is %s"),
	[M_STATS_EXERCISES] = N_("Exercises solved per chapter"),
	[M_EX_SOLVED] = N_("exercises solved"),
	[M_EX_NOT_BUILT] = N_("Exercise %s is not in this build yet"),
	/* wt-labtime */
	[M_LABALL_STORY] = N_("story"),
	[M_LABALL_SERVER] = N_("servers"),
	[M_LABALL_OTHER] = N_("other"),
	[M_LABALL_SPLIT] = N_("of which %.1f s waiting for the stories, %.1f s starting and "
			      "stopping servers, %.1f s the rest"),
};

const char *i18n_text(const char *lang, const char *msgid)
{
	if (!msgid || !lang || strncmp(lang, "zh", 2) != 0)
		return msgid;
	return l10n_zh(msgid);
}

const char *i18n(const char *lang, enum msg m)
{
	if ((int)m < 0 || m >= M_COUNT || !msgids[m])
		return "";
	return i18n_text(lang, msgids[m]);
}
