/*
 * l10n.c - loading the gettext catalogue (see l10n.h).  Why it sets
 * LC_MESSAGES to C.UTF-8 and LANGUAGE to zh_CN, and what was measured to
 * choose that, is in workbench/core/i18n.c's opening comment.
 *
 * The search order of the locale directory mirrors core/content.c's for
 * lessons: the build tree when the binary runs from one (CMakeCache.txt
 * beside it), <exe>/../share/locale when the catalogue is there (an
 * installed or relocated tree), the configured WB_LOCALE_DIR, and last the
 * build tree's (unit tests run from below it).  It does not parse .mo
 * files (glibc's gettext does) or translate anything but to Chinese.
 */
#define _GNU_SOURCE /* setenv under -std=c11 */
#include "base/l10n.h"

#include <libintl.h>
#include <limits.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/wb.h"

#ifndef WB_LOCALE_DIR
#define WB_LOCALE_DIR "/usr/local/share/locale"
#endif
#ifndef WB_BUILD_LOCALE_DIR
#define WB_BUILD_LOCALE_DIR ""
#endif

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char dir_set[PATH_MAX];
static char dir_used[PATH_MAX];
static int ready; /* the catalogue is bound and a locale lets it be read */

static int has_catalogue(const char *dir)
{
	char path[PATH_MAX + 64];
	struct stat st;
	if (!dir || !*dir)
		return 0;
	snprintf(path, sizeof path, "%s/zh_CN/LC_MESSAGES/" L10N_DOMAIN ".mo", dir);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Fills dir_used; returns 0 or WB_ENOENT. */
static int find_dir(void)
{
	char exe[PATH_MAX], try[PATH_MAX + 32];
	if (dir_set[0]) {
		snprintf(dir_used, sizeof dir_used, "%s", dir_set);
		return has_catalogue(dir_used) ? 0 : WB_ENOENT;
	}
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *slash = n > 0 ? (exe[n] = '\0', strrchr(exe, '/')) : NULL;
	if (slash) {
		*slash = '\0';
		struct stat st;
		snprintf(try, sizeof try, "%s/CMakeCache.txt", exe);
		if (stat(try, &st) == 0 && has_catalogue(WB_BUILD_LOCALE_DIR)) {
			snprintf(dir_used, sizeof dir_used, "%s", WB_BUILD_LOCALE_DIR);
			return 0;
		}
		int w = snprintf(dir_used, sizeof dir_used, "%s/../share/locale", exe);
		if (w > 0 && (size_t)w < sizeof dir_used && has_catalogue(dir_used))
			return 0;
	}
	const char *const fixed[] = {WB_LOCALE_DIR, WB_BUILD_LOCALE_DIR};
	for (size_t i = 0; i < WB_ARRAY_LEN(fixed); i++)
		if (has_catalogue(fixed[i])) {
			snprintf(dir_used, sizeof dir_used, "%s", fixed[i]);
			return 0;
		}
	return WB_ENOENT;
}

/* glibc's gettext never translates in the C or POSIX locale and ignores
 * LANGUAGE there; C.UTF-8 is shipped by Debian's libc-bin, needs no
 * locale-gen, and translates.  A user locale other than C is kept.
 * Returns 1 when LC_MESSAGES lets the catalogue be read. */
static int messages_locale(void)
{
	const char *cur = setlocale(LC_MESSAGES, NULL);
	if (cur && strcmp(cur, "C") != 0 && strcmp(cur, "POSIX") != 0)
		return 1;
	return setlocale(LC_MESSAGES, "C.UTF-8") || setlocale(LC_MESSAGES, "C.utf8");
}

static void setup(void)
{
	if (find_dir() != 0) {
		dir_used[0] = '\0';
		return;
	}
	if (!messages_locale() || setenv("LANGUAGE", "zh_CN", 1) != 0 ||
	    !bindtextdomain(L10N_DOMAIN, dir_used) ||
	    !bind_textdomain_codeset(L10N_DOMAIN, "UTF-8")) {
		dir_used[0] = '\0';
		return;
	}
	ready = 1;
}

const char *l10n_zh(const char *msgid)
{
	pthread_once(&once, setup);
	if (!ready || !*msgid)
		return msgid;
	const char *s = dgettext(L10N_DOMAIN, msgid);
	/* Not found: maybe setlocale(LC_ALL, "") (the TUI's term_init) put
	 * LC_MESSAGES back to C since; set it again and retry once. */
	if (s == msgid && messages_locale() == 1)
		s = dgettext(L10N_DOMAIN, msgid);
	return s;
}

int l10n_set_dir(const char *dir)
{
	if (!dir || strlen(dir) >= sizeof dir_set)
		return WB_EINVAL;
	/* For a test's main before any lookup: pthread_once has no query. */
	if (dir_used[0] || ready)
		return WB_EINVAL;
	snprintf(dir_set, sizeof dir_set, "%s", dir);
	return 0;
}

const char *l10n_dir(void)
{
	pthread_once(&once, setup);
	return ready ? dir_used : NULL;
}
