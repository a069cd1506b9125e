/*
 * l10n.h - the program's gettext catalogue (po/zh_CN.po, compiled by
 * msgfmt into <localedir>/zh_CN/LC_MESSAGES/workbench.mo): the Chinese
 * text of an English msgid, whatever locale the user has.
 *
 * Shared by the interface (workbench/core/i18n.c) and the labs' narration
 * (labs/harness/narration.c), which sit on this layer.  English needs no
 * lookup: the msgids are the English texts.  How the catalogue is found
 * and why LANGUAGE and LC_MESSAGES are set is in l10n.c's opening comment.
 * It does not choose the language (the caller passes it per call) and has
 * no other language than Chinese.
 */
#ifndef WB_L10N_H
#define WB_L10N_H

/* The text domain, as msgfmt's output is named. */
#define L10N_DOMAIN "workbench"

/* The Chinese text of msgid from the catalogue, or msgid itself when the
 * catalogue has none (or cannot be loaded: no .mo found, no usable
 * locale).  The first call sets the catalogue up (thread-safe).  msgid
 * must not be NULL.  The result is the catalogue's (never freed) or
 * msgid. */
const char *l10n_zh(const char *msgid);

/* Uses dir as the locale directory (dir/zh_CN/LC_MESSAGES/workbench.mo)
 * instead of the one found next to the binary; for tests.  Call before
 * the first l10n_zh; dir is copied.  Returns 0, or WB_EINVAL once the
 * catalogue is set up. */
int l10n_set_dir(const char *dir);

/* The locale directory in use after the first l10n_zh, or NULL when no
 * catalogue could be loaded (the text stays English).  Static. */
const char *l10n_dir(void);

#endif
