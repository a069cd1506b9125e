/*
 * wb.c - error strings, checked allocation, a byte buffer and file reading
 * (whole, or capped for untrusted input: wb_read_file_max).
 * Nothing here knows about lessons, quizzes or curses.
 */
#include "base/wb.h"

#include <errno.h>
#include <fcntl.h>
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

/* Reads fd into a fresh buffer until its end or until more than max
 * bytes came; hint: the size to start with (fstat's, or 0). */
static int read_capped(int fd, size_t max, size_t hint, char **out, size_t *len)
{
	size_t cap = (hint < max ? hint : max) + 1, n = 0;
	if (cap < 4096)
		cap = 4096;
	char *buf = wb_xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			/* Room for max + 1 bytes at most: one byte over the
			 * limit is all it takes to know. */
			size_t want = cap > max / 2 ? max + 1 : 2 * cap;
			if (want <= cap) {
				free(buf);
				return WB_ERANGE;
			}
			buf = wb_xrealloc(buf, want + 1);
			cap = want;
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return WB_EIO;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			free(buf);
			return WB_ERANGE;
		}
	}
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

int wb_read_file_max(const char *path, size_t max, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return errno == ENOENT ? WB_ENOENT : WB_EIO;
	struct stat st;
	int rc = 0;
	if (fstat(fd, &st) != 0)
		rc = WB_EIO;
	else if (!S_ISREG(st.st_mode))
		rc = WB_EINVAL;
	else if ((unsigned long long)st.st_size > max)
		rc = WB_ERANGE;
	else
		rc = read_capped(fd, max, (size_t)st.st_size, out, len);
	close(fd);
	return rc;
}

int wb_read_fd_max(int fd, size_t max, char **out, size_t *len)
{
	return read_capped(fd, max, 0, out, len);
}

const char *wb_read_strerror(int rc, size_t max, char *buf, size_t len)
{
	if (rc == WB_ERANGE && max >= (1u << 20))
		snprintf(buf, len, "larger than %zu MiB, the limit for this file", max >> 20);
	else if (rc == WB_ERANGE)
		snprintf(buf, len, "larger than %zu bytes, the limit for this file", max);
	else if (rc == WB_EINVAL)
		snprintf(buf, len, "not a regular file");
	else
		snprintf(buf, len, "%s", wb_strerror(rc));
	return buf;
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
