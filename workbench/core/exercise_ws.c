/*
 * exercise_ws.c - the exercise catalogue as core sees it, the learner's
 * workspace and the shipped texts (see exercise_ws.h).
 *
 * Invariants
 * - A learner's file is never overwritten: start creates it with O_EXCL,
 *   reset renames it to a backup first (rename never replaces an
 *   existing backup: the name gets a counter instead).
 * - The workspace folder is a real folder owned by this user, 0700 (made
 *   so, and chmod'ed back to 0700 if it was looser); a symlink there is
 *   refused, so a start never writes through a link someone planted.
 * - TASK.md in the workspace is ours, not the learner's: a copy of the
 *   task text (review ux-r3 B1), written again on every start and reset
 *   (never through a link), in the language asked for or, when none is,
 *   the one its first line names.  An exercise whose own file is called
 *   TASK.md gets no copy.
 * - The hints parser is a line splitter on "## " headings and nothing
 *   more (no Markdown library: the sections are the whole format; the
 *   text is shown sanitised by the caller, core/textsafe).
 */
#include "core/exercise_ws.h"
#include "base/wb.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const struct excat_entry *catalogue;
static size_t ncatalogue;

void excat_init(const struct excat_entry *table, size_t n)
{
	catalogue = table;
	ncatalogue = table ? n : 0;
}

const struct excat_entry *excat_find(const char *id)
{
	for (size_t i = 0; id && i < ncatalogue; i++)
		if (!strcmp(catalogue[i].id, id))
			return &catalogue[i];
	return NULL;
}

const struct excat_entry *excat_all(size_t *n)
{
	*n = ncatalogue;
	return catalogue;
}

const char *excat_title(const struct excat_entry *e, const char *lang)
{
	return (lang && !strcmp(lang, "zh")) ? e->title_zh : e->title_en;
}

/* ---- paths ---- */

char *exws_dir(const char *id)
{
	char *rel = wb_xasprintf("exercises/%s", id);
	char *dir = wb_data_path(rel);
	free(rel);
	return dir;
}

char *exws_file(const struct excat_entry *e)
{
	char *dir = exws_dir(e->id);
	char *p = dir ? wb_xasprintf("%s/%s", dir, e->file) : NULL;
	free(dir);
	return p;
}

char *exws_shipped(const char *root, const char *id)
{
	return wb_xasprintf("%s/exercises/%s", root, id);
}

char *exws_shipped_file(const char *root, const char *id, const char *name)
{
	return wb_xasprintf("%s/exercises/%s/%s", root, id, name);
}

int exws_started(const struct excat_entry *e)
{
	char *p = exws_file(e);
	struct stat st;
	int yes = p && stat(p, &st) == 0;
	free(p);
	return yes;
}

/* ---- the workspace ---- */

/* Makes dir (parents 0700 too) and checks it is a private real folder of
 * ours.  Returns 0 or WB_EIO with err set. */
static int private_dir(const char *dir, char *err, size_t errlen)
{
	struct stat st;
	if (wb_mkdir_p(dir, 0700) != 0 || lstat(dir, &st) != 0) {
		snprintf(err, errlen, "cannot create the workspace %s: %s", dir, strerror(errno));
		return WB_EIO;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != getuid()) {
		snprintf(err, errlen, "the workspace %s is not a folder of yours (a link?)", dir);
		return WB_EIO;
	}
	if ((st.st_mode & 077) && chmod(dir, 0700) != 0) {
		snprintf(err, errlen, "cannot make the workspace %s private: %s", dir,
			 strerror(errno));
		return WB_EIO;
	}
	return 0;
}

/* Writes text to a new file dst (O_EXCL unless replace, mode 0600).
 * Returns 0, WB_ECONFLICT when dst exists and !replace, or WB_EIO. */
static int write_new(const char *dst, const char *text, size_t len, int replace)
{
	int fd = open(dst,
		      O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (replace ? O_TRUNC : O_EXCL),
		      0600);
	if (fd < 0)
		return errno == EEXIST ? WB_ECONFLICT : WB_EIO;
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	int bad = off < len;
	if (close(fd) != 0)
		bad = 1;
	if (bad)
		unlink(dst);
	return bad ? WB_EIO : 0;
}

/* Copies shipped file name of exercise id to dst.  Returns 0,
 * WB_ECONFLICT (dst exists, !replace), WB_ENOENT or WB_EIO, err set for
 * the last two. */
static int copy_shipped(const char *root, const char *id, const char *name, const char *dst,
			int replace, char *err, size_t errlen)
{
	char *src = exws_shipped_file(root, id, name);
	char *text = NULL;
	size_t len = 0;
	int rc = wb_read_file(src, &text, &len);
	if (rc) {
		snprintf(err, errlen, "cannot read %s: %s", src,
			 rc == WB_ENOENT ? "no such file" : "read error");
		goto out;
	}
	rc = write_new(dst, text, len, replace);
	if (rc == WB_EIO)
		snprintf(err, errlen, "cannot write %s: %s", dst, strerror(errno));
out:
	free(text);
	free(src);
	return rc;
}

static int read_localised(const char *root, const char *id, const char *stem, const char *lang,
			  char **text, size_t *len, char **used);

#define TASK_COPY "TASK.md"
#define TASK_MARK "<!-- workbench: a copy of "

/* Writes <dir>/TASK.md: the first line names the shipped file it copies
 * (and so its language), then the task text.  lang NULL keeps the
 * language of the copy there (English when there is none).  A missing
 * task text writes nothing.  Returns 0 or WB_EIO with err set. */
static int write_task_copy(const char *root, const struct excat_entry *e, const char *lang,
			   const char *dir, char *err, size_t errlen)
{
	if (!strcmp(e->file, TASK_COPY))
		return 0; /* the learner's own file */
	char *dst = wb_xasprintf("%s/%s", dir, TASK_COPY);
	char *text = NULL, *used = NULL;
	size_t len = 0;
	if (!lang) {
		/* the first line of the copy there names its language */
		char head[64] = "";
		int fd = open(dst, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		if (fd >= 0) {
			ssize_t n = read(fd, head, sizeof head - 1);
			head[n > 0 ? n : 0] = '\0';
			close(fd);
		}
		lang = strncmp(head, TASK_MARK "task.zh.md", strlen(TASK_MARK "task.zh.md")) ? "en"
											     : "zh";
	}
	int rc = 0;
	if (read_localised(root, e->id, "task", lang, &text, &len, &used) == 0) {
		const char *base = strrchr(used, '/') ? strrchr(used, '/') + 1 : used;
		char *copy = wb_xasprintf(TASK_MARK
					  "%s, written again on every `workbench exercise "
					  "start` and `reset`: your work goes in %s -->\n\n%.*s",
					  base, e->file, (int)len, text);
		if (write_new(dst, copy, strlen(copy), 1) != 0) {
			snprintf(err, errlen, "cannot write %s: %s", dst, strerror(errno));
			rc = WB_EIO;
		}
		free(copy);
	}
	free(used);
	free(text);
	free(dst);
	return rc;
}

int exws_start(const char *root, const struct excat_entry *e, char **path, int *created, char *err,
	       size_t errlen)
{
	return exws_start_lang(root, e, NULL, path, created, err, errlen);
}

int exws_start_lang(const char *root, const struct excat_entry *e, const char *lang, char **path,
		    int *created, char *err, size_t errlen)
{
	*path = NULL;
	*created = 0;
	char *dir = exws_dir(e->id);
	char *file = exws_file(e);
	char *starter = wb_xasprintf("starter.%s", e->lang);
	int rc = WB_ENOENT;
	if (!dir || !file) {
		snprintf(err, errlen, "no home folder: set HOME or XDG_DATA_HOME");
		goto out;
	}
	if ((rc = private_dir(dir, err, errlen)) != 0)
		goto out;
	rc = copy_shipped(root, e->id, starter, file, 0, err, errlen);
	if (rc == WB_ECONFLICT)
		rc = 0; /* the learner's own file: kept as it is */
	else if (rc == 0)
		*created = 1;
	if (rc == 0 && !strcmp(e->lang, "c")) {
		char *api = wb_xasprintf("%s/api.h", dir);
		rc = copy_shipped(root, e->id, "api.h", api, 1, err, errlen);
		free(api);
	}
	if (rc == 0)
		rc = write_task_copy(root, e, lang, dir, err, errlen);
	if (rc == 0) {
		*path = file;
		file = NULL;
	}
out:
	free(starter);
	free(file);
	free(dir);
	return rc;
}

int exws_reset(const char *root, const struct excat_entry *e, char **path, char **backup, char *err,
	       size_t errlen)
{
	return exws_reset_lang(root, e, NULL, path, backup, err, errlen);
}

int exws_reset_lang(const char *root, const struct excat_entry *e, const char *lang, char **path,
		    char **backup, char *err, size_t errlen)
{
	*path = *backup = NULL;
	char *file = exws_file(e);
	int created;
	if (!file) {
		snprintf(err, errlen, "no home folder: set HOME or XDG_DATA_HOME");
		return WB_ENOENT;
	}
	struct stat st;
	if (lstat(file, &st) == 0) {
		char stamp[32];
		time_t now = time(NULL);
		struct tm tm;
		localtime_r(&now, &tm);
		strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
		char *b = wb_xasprintf("%s.bak-%s", file, stamp);
		for (int i = 2; lstat(b, &st) == 0 && i < 1000; i++) {
			free(b);
			b = wb_xasprintf("%s.bak-%s-%d", file, stamp, i);
		}
		/* link + unlink: never replaces an existing backup */
		if (link(file, b) != 0 || unlink(file) != 0) {
			snprintf(err, errlen, "cannot back up %s as %s: %s", file, b,
				 strerror(errno));
			free(b);
			free(file);
			return WB_EIO;
		}
		*backup = b;
	}
	free(file);
	return exws_start_lang(root, e, lang, path, &created, err, errlen);
}

/* ---- shipped texts ---- */

/* Trims blank space at both ends of s[0..n) into a new string. */
static char *trimmed(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == '\t'))
		n--;
	return wb_xstrndup(s, n);
}

int exws_hints_parse(const char *text, size_t len, char *hint[EXWS_HINTS], int *count)
{
	size_t start[EXWS_HINTS + 1] = {0};
	int n = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) + 1 : len;
		if (end - i >= 3 && !memcmp(text + i, "## ", 3)) {
			if (n < EXWS_HINTS + 1)
				start[n] = i;
			n++;
		}
		i = end;
	}
	*count = n;
	for (int k = 0; k < EXWS_HINTS; k++)
		hint[k] = NULL;
	if (n != EXWS_HINTS)
		return WB_EINVAL;
	start[EXWS_HINTS] = len;
	for (int k = 0; k < EXWS_HINTS; k++)
		hint[k] = trimmed(text + start[k] + 3, start[k + 1] - start[k] - 3);
	return 0;
}

void exws_hints_free(char *hint[EXWS_HINTS])
{
	for (int k = 0; k < EXWS_HINTS; k++) {
		free(hint[k]);
		hint[k] = NULL;
	}
}

/* Reads <root>/exercises/<id>/<stem>.<lang>.md, or the English one. */
static int read_localised(const char *root, const char *id, const char *stem, const char *lang,
			  char **text, size_t *len, char **used)
{
	const char *langs[] = {lang && !strcmp(lang, "zh") ? "zh" : "en", "en"};
	int rc = WB_ENOENT;
	for (size_t i = 0; i < WB_ARRAY_LEN(langs) && rc == WB_ENOENT; i++) {
		char *name = wb_xasprintf("%s.%s.md", stem, langs[i]);
		char *p = exws_shipped_file(root, id, name);
		free(name);
		rc = wb_read_file(p, text, len);
		if (used && (rc == 0 || i + 1 == WB_ARRAY_LEN(langs)))
			*used = p;
		else
			free(p);
	}
	return rc;
}

int exws_hints_load(const char *root, const char *id, const char *lang, char *hint[EXWS_HINTS],
		    char *err, size_t errlen)
{
	char *text = NULL, *path = NULL;
	size_t len = 0;
	int count = 0;
	for (int k = 0; k < EXWS_HINTS; k++)
		hint[k] = NULL;
	int rc = read_localised(root, id, "hints", lang, &text, &len, &path);
	if (rc) {
		snprintf(err, errlen, "cannot read %s", path);
		goto out;
	}
	rc = exws_hints_parse(text, len, hint, &count);
	if (rc)
		snprintf(err, errlen, "%s: %d '## ' hint sections, expected %d", path, count,
			 EXWS_HINTS);
out:
	free(text);
	free(path);
	return rc;
}

int exws_task(const char *root, const char *id, const char *lang, char **text)
{
	size_t len;
	*text = NULL;
	return read_localised(root, id, "task", lang, text, &len, NULL) ? WB_ENOENT : 0;
}

int exws_solution(const char *root, const struct excat_entry *e, char **text)
{
	char *name = wb_xasprintf("solution.%s", e->lang);
	char *p = exws_shipped_file(root, e->id, name);
	size_t len;
	*text = NULL;
	int rc = wb_read_file(p, text, &len);
	free(p);
	free(name);
	return rc ? WB_ENOENT : 0;
}

/* ---- the editor ---- */

/* 1 when an executable named name is on PATH. */
static int on_path(const char *name)
{
	const char *path = getenv("PATH");
	if (!path)
		return 0;
	int found = 0;
	char *copy = wb_xstrdup(path), *save = NULL;
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = wb_xasprintf("%s/%s", *d ? d : ".", name);
		found = access(p, X_OK) == 0;
		free(p);
	}
	free(copy);
	return found;
}

const char *exws_editor(int fallback)
{
	const char *ed = getenv("VISUAL");
	if (!ed || !*ed)
		ed = getenv("EDITOR");
	if (ed && *ed)
		return ed;
	return fallback && on_path("vi") ? "vi" : NULL;
}

int exws_run_editor(const char *ed, const char *path)
{
	pid_t pid = fork();
	if (pid < 0)
		return WB_EIO;
	if (pid == 0) {
		setenv("WB_EDITOR", ed, 1);
		execl("/bin/sh", "sh", "-c", "exec $WB_EDITOR \"$1\"", "sh", path, (char *)NULL);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return WB_EIO;
	return WIFEXITED(status) ? WEXITSTATUS(status) : WB_EIO;
}
