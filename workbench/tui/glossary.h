/*
 * glossary.h - the glossary screen (tui/glossary.c): the language's
 * lessons/<lang>/glossary.md, scrollable and searchable like a lesson,
 * opened from the reader's `w` key or at one term (NAV_GLOSSARY).
 */
#ifndef WB_TUI_GLOSSARY_H
#define WB_TUI_GLOSSARY_H

#include "tui/tui.h"

/* Opens the glossary of lang; with term not NULL or empty, at the entry
 * whose name (either name in zh) is term, else at the top.  Returns 0,
 * or WB_ENOENT / WB_EIO when the file cannot be read (nothing is
 * opened). */
int glossary_open(struct tui *t, const char *lang, const char *term, struct screen *out);

#endif
