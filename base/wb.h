/*
 * wb.h - error codes and the few helpers every module shares.
 *
 * Functions in this project return 0 or a negative WB_E* code and pass
 * results through out parameters.  This header deliberately holds no
 * module APIs: each module has its own header.
 */
#ifndef WB_WB_H
#define WB_WB_H

#include <stdarg.h>
#include <stddef.h>

enum {
	WB_OK = 0,
	WB_ENOMEM = -1,	    /* allocation failed */
	WB_EIO = -2,	    /* file or database I/O failed */
	WB_EINVAL = -3,	    /* bad argument or malformed input */
	WB_ENOENT = -4,	    /* no such file, chapter or record */
	WB_ENEWER = -5,	    /* database written by a newer workbench */
	WB_ECORRUPT = -6,   /* database or file is damaged */
	WB_EBUSY = -7,	    /* database locked for too long */
	WB_ERANGE = -8,	    /* value out of range */
	WB_EUNAVAIL = -9,   /* a needed program or service is missing */
	WB_ECONFLICT = -10, /* another process changed the record first */
	WB_ENOSPC = -11,    /* no space left on the device (or a database size limit) */
};

/* Returns a static English description of a WB_E* code. */
const char *wb_strerror(int err);

/* Allocation helpers that abort with a message on failure: the workbench
 * cannot do anything useful without memory, and checking every small
 * string copy would bury the logic. */
void *wb_xmalloc(size_t n);
void *wb_xcalloc(size_t n, size_t size);
void *wb_xrealloc(void *p, size_t n);
char *wb_xstrdup(const char *s);
char *wb_xstrndup(const char *s, size_t n);
/* printf into a fresh string; caller frees.  Aborts on out of memory; an
 * encoding error (vsnprintf < 0) gives "". */
char *wb_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* wb_xasprintf with a va_list (the two-pass vsnprintf, written once):
 * ap is used and left as va_arg left it (the caller va_ends it).
 * Caller frees; fails as wb_xasprintf does. */
char *wb_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* A growable byte buffer, always NUL-terminated. */
struct wb_buf {
	char *data; /* NUL-terminated contents, NULL until first append */
	size_t len; /* bytes used, excluding the NUL */
	size_t cap; /* bytes allocated */
};
/* Appends n bytes of s (which may hold NULs).  Cannot fail (aborts on
 * out of memory). */
void wb_buf_append(struct wb_buf *b, const char *s, size_t n);
/* Appends the string s.  Cannot fail (aborts on out of memory). */
void wb_buf_puts(struct wb_buf *b, const char *s);
/* Appends printf output.  Cannot fail (aborts on out of memory). */
void wb_buf_printf(struct wb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hands the contents to the caller (never NULL) and resets the buffer. */
char *wb_buf_steal(struct wb_buf *b);
void wb_buf_free(struct wb_buf *b);

/* Reads a whole file.  Returns 0, WB_ENOENT or WB_EIO; *out is
 * NUL-terminated and freed by the caller. */
int wb_read_file(const char *path, char **out, size_t *len);

/* Reads a whole regular file of at most max bytes, for input that may be
 * hostile (review r3 N6: /dev/zero or a huge file read until the process
 * ran out of memory).  The file is opened without blocking (a FIFO does
 * not hang the open) and fstat'ed first: a device, FIFO, socket or folder
 * is refused, a file over max is refused before a byte is read, and the
 * read stops at max + 1 bytes should the file grow meanwhile.  Returns 0
 * (*out NUL-terminated, caller frees), WB_ENOENT, WB_EIO, WB_EINVAL when
 * path is not a regular file, or WB_ERANGE when it holds more than max
 * bytes; wb_read_strerror words them. */
int wb_read_file_max(const char *path, size_t max, char **out, size_t *len);

/* Reads fd (a pipe, a terminal, a file: stdin for "-") to its end, at
 * most max bytes: WB_ERANGE as soon as a byte more arrives, so an endless
 * stream (`yes | ...`) costs max bytes and no more.  fd stays open.
 * Returns 0 (*out as wb_read_file_max), WB_EIO or WB_ERANGE. */
int wb_read_fd_max(int fd, size_t max, char **out, size_t *len);

/* The reason a wb_read_file_max or wb_read_fd_max call failed with rc, in
 * words, written into buf[0..len): "larger than N MiB, the limit for this
 * file" (N from max) for WB_ERANGE, "not a regular file" for WB_EINVAL,
 * else wb_strerror(rc).  Returns buf.  Cannot fail. */
const char *wb_read_strerror(int rc, size_t max, char *buf, size_t len);

/* Creates a directory and its parents with the given mode. 0 or WB_EIO. */
int wb_mkdir_p(const char *path, unsigned mode);

/* The path rel in this user's workbench data folder:
 * $XDG_DATA_HOME/workbench/rel (an absolute XDG_DATA_HOME only: a
 * relative one is ignored, as the XDG base directory spec says), else
 * HOME/.local/share/workbench/rel, HOME being $HOME when set and not
 * empty, else the password database's entry for this user.  Never the
 * current directory: NULL when neither names a home.  Caller frees. */
char *wb_data_path(const char *rel);

#define WB_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif
