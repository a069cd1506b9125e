/*
 * i18n.h - the user interface's own strings in English and Chinese.
 *
 * Lesson and quiz text comes from content files; this table only holds
 * the workbench's labels, hints and messages.  No formatting logic here.
 */
#ifndef WB_I18N_H
#define WB_I18N_H

enum msg {
	M_APP_TITLE,
	M_HOME_HINT,
	M_NO_CHAPTERS,
	M_READ,
	M_TOC_TITLE,
	M_HELP_TITLE,
	M_HELP_CLOSE,
	M_SEARCH_PROMPT,
	M_SEARCH_NONE,
	M_SEARCH_HITS,
	M_TOO_SMALL,
	M_LANG_MISSING,
	M_LAB_NOT_BUILT,
	M_READER_HINT,
	M_NO_SECTIONS,
	M_LOAD_FAILED,
	M_LABS,
	M_COUNT
};

/* Returns the string for lang ("zh" or English for anything else). */
const char *i18n(const char *lang, enum msg m);

#endif
