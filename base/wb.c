/*
 * wb.c - error strings, checked allocation, a byte buffer and file reading.
 * Nothing here knows about lessons, quizzes or curses.
 */
#include "base/wb.h"

#include <errno.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *wb_strerror(int err)
{
	switch (err) {
	case WB_OK: return "success";
	case WB_ENOMEM: return "out of memory";
	case WB_EIO: return "input/output error";
	case WB_EINVAL: return "invalid input";
	case WB_ENOENT: return "not found";
	case WB_ENEWER: return "written by a newer version of workbench";
	case WB_ECORRUPT: return "file is damaged";
	case WB_EBUSY: return "database is busy";
	case WB_ERANGE: return "value out of range";
	case WB_EUNAVAIL: return "a required program is not available";
	case WB_ECONFLICT: return "changed by another process";
	case WB_ENOSPC: return "no space left on device";
	}
	return "unknown error";
}

static void oom(void)
{
	fputs("workbench: out of memory\n", stderr);
	abort();
}

void *wb_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *wb_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *wb_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom();
	return q;
}

char *wb_xstrdup(const char *s)
{
	return wb_xstrndup(s, strlen(s));
}

char *wb_xstrndup(const char *s, size_t n)
{
	char *p = wb_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *wb_xvasprintf(const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	char *p = wb_xmalloc((size_t)(n > 0 ? n : 0) + 1);
	p[0] = '\0'; /* an encoding error formats as "" */
	if (n > 0)
		vsnprintf(p, (size_t)n + 1, fmt, again);
	va_end(again);
	return p;
}

char *wb_xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = wb_xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

void wb_buf_append(struct wb_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->data = wb_xrealloc(b->data, cap);
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void wb_buf_puts(struct wb_buf *b, const char *s)
{
	wb_buf_append(b, s, strlen(s));
}

void wb_buf_printf(struct wb_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *tmp = wb_xvasprintf(fmt, ap);
	va_end(ap);
	wb_buf_puts(b, tmp);
	free(tmp);
}

char *wb_buf_steal(struct wb_buf *b)
{
	char *p = b->data ? b->data : wb_xstrdup("");
	b->data = NULL;
	b->len = b->cap = 0;
	return p;
}

void wb_buf_free(struct wb_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

int wb_read_file(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return errno == ENOENT ? WB_ENOENT : WB_EIO;
	struct wb_buf b = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		wb_buf_append(&b, chunk, n);
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		wb_buf_free(&b);
		return WB_EIO;
	}
	if (len)
		*len = b.len;
	*out = wb_buf_steal(&b);
	return 0;
}

int wb_mkdir_p(const char *path, unsigned mode)
{
	char *p = wb_xstrdup(path);
	int rc = 0;
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, (mode_t)mode) != 0 && errno != EEXIST)
			rc = WB_EIO;
		*s = '/';
	}
	if (rc == 0 && mkdir(p, (mode_t)mode) != 0 && errno != EEXIST)
		rc = WB_EIO;
	free(p);
	return rc;
}

/* The home folder: $HOME when set and not empty, else the password
 * database's entry for this user; NULL when neither names one. */
static const char *home_dir(void)
{
	const char *home = getenv("HOME");
	if (home && *home)
		return home;
	struct passwd *pw = getpwuid(getuid());
	return pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : NULL;
}

char *wb_data_path(const char *rel)
{
	const char *xdg = getenv("XDG_DATA_HOME");
	if (xdg && xdg[0] == '/')
		return wb_xasprintf("%s/workbench/%s", xdg, rel);
	const char *home = home_dir();
	return home ? wb_xasprintf("%s/.local/share/workbench/%s", home, rel) : NULL;
}
