/*
 * textsafe.c - placeholders for the characters of content text that a
 * terminal would act on (see textsafe.h for the table and the reasons).
 *
 * Our own code rather than a library: what counts as unsafe is this
 * project's policy (TAB and LF pass, the placeholders must stay visible and
 * one per character), and the decoding is core/utf8's, the same the layout
 * uses, so the sanitiser and the reader never disagree about a byte.  It
 * does not print, colour or wrap; callers do.
 */
#define _GNU_SOURCE /* fopencookie */
#include "core/textsafe.h"

#include <errno.h>
#include <unistd.h>

#include <stdlib.h>
#include <string.h>

#include "base/wb.h"
#include "core/utf8.h"

static enum textsafe_kind classify(uint32_t cp, size_t len)
{
	if (cp == UTF8_REPLACEMENT && len == 1)
		return TEXTSAFE_INVALID; /* a valid U+FFFD takes 3 bytes */
	if (cp == 0x1b)
		return TEXTSAFE_ESC;
	if ((cp < 0x20 && cp != '\t' && cp != '\n') || cp == 0x7f)
		return TEXTSAFE_CONTROL;
	if (cp >= 0x80 && cp <= 0x9f)
		return TEXTSAFE_C1;
	if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
		return TEXTSAFE_BIDI;
	return TEXTSAFE_OK;
}

int textsafe_unsafe_cp(uint32_t cp)
{
	return classify(cp, 3) != TEXTSAFE_OK;
}

enum textsafe_kind textsafe_next(const char *s, size_t n, size_t *pos, uint32_t *cp, size_t *len)
{
	size_t i = *pos;
	while (i < n) {
		uint32_t c;
		size_t k = utf8_decode(s + i, n - i, &c);
		enum textsafe_kind kind = classify(c, k);
		if (c == '\r' && i + 1 < n && s[i + 1] == '\n')
			kind = TEXTSAFE_OK; /* a CR LF line end moves nothing */
		if (kind != TEXTSAFE_OK) {
			*pos = i;
			*cp = kind == TEXTSAFE_INVALID ? (unsigned char)s[i] : c;
			*len = k;
			return kind;
		}
		i += k;
	}
	*pos = n;
	*cp = 0;
	*len = 0;
	return TEXTSAFE_OK;
}

int textsafe_clean(const char *s, size_t n)
{
	size_t pos = 0, len;
	uint32_t cp;
	return textsafe_next(s, n, &pos, &cp, &len) == TEXTSAFE_OK;
}

/* Appends the placeholder of one unsafe character. */
static void placeholder(struct wb_buf *b, enum textsafe_kind kind, uint32_t cp)
{
	char enc[4];
	switch (kind) {
	case TEXTSAFE_CONTROL:
	case TEXTSAFE_ESC:
		/* Control Pictures: U+2400 + code for C0, U+2421 for DEL. */
		wb_buf_append(b, enc, utf8_encode(cp == 0x7f ? 0x2421u : 0x2400u + cp, enc));
		break;
	case TEXTSAFE_C1:
	case TEXTSAFE_BIDI: wb_buf_printf(b, "<U+%04X>", (unsigned)cp); break;
	case TEXTSAFE_INVALID:
	default: wb_buf_append(b, enc, utf8_encode(UTF8_REPLACEMENT, enc)); break;
	}
}

char *textsafe_dup(const char *s, size_t n)
{
	struct wb_buf b = {0};
	size_t done = 0;
	for (;;) {
		size_t pos = done, len;
		uint32_t cp;
		enum textsafe_kind kind = textsafe_next(s, n, &pos, &cp, &len);
		wb_buf_append(&b, s + done, pos - done);
		if (kind == TEXTSAFE_OK)
			break;
		placeholder(&b, kind, cp);
		done = pos + len;
	}
	return wb_buf_steal(&b);
}

char *textsafe_str(const char *s)
{
	return s ? textsafe_dup(s, strlen(s)) : NULL;
}

int textsafe_fputs(const char *s, FILE *f)
{
	if (!s)
		return 0;
	size_t n = strlen(s);
	if (textsafe_clean(s, n))
		return fputs(s, f) < 0 ? WB_EIO : 0;
	char *safe = textsafe_dup(s, n);
	int rc = fputs(safe, f) < 0 ? WB_EIO : 0;
	free(safe);
	return rc;
}

size_t textsafe_scan(const char *s, size_t n,
		     void (*fn)(void *arg, size_t line, size_t col, const char *what), void *arg)
{
	size_t line = 1, col = 1, found = 0;
	for (size_t i = 0; i < n;) {
		if (s[i] == '\n' || s[i] == '\r') {
			i += s[i] == '\r' && i + 1 < n && s[i + 1] == '\n' ? 2 : 1;
			line++;
			col = 1;
			continue;
		}
		uint32_t c;
		size_t k = utf8_decode(s + i, n - i, &c);
		enum textsafe_kind kind = classify(c, k);
		if (kind != TEXTSAFE_OK) {
			char what[96];
			textsafe_describe(kind, kind == TEXTSAFE_INVALID ? (unsigned char)s[i] : c,
					  what, sizeof what);
			fn(arg, line, col, what);
			found++;
		}
		i += k;
		col++;
	}
	return found;
}

/* ---- the sanitising stream -------------------------------------------- */

struct stream {
	int fd;	       /* where sanitised bytes go; not ours to close */
	char carry[4]; /* the start of a UTF-8 sequence a write cut off */
	size_t ncarry; /* bytes in carry */
};

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Bytes at the end of s[0..n) that begin a multi-byte sequence whose
 * continuation bytes have not arrived yet: 0 to 3. */
static size_t incomplete_tail(const char *s, size_t n)
{
	if (n > 0 && s[n - 1] == '\r')
		return 1; /* CR LF or a lone CR: the next write tells */
	for (size_t back = 1; back <= 3 && back <= n; back++) {
		unsigned char c = (unsigned char)s[n - back];
		if ((c & 0xc0) == 0x80)
			continue; /* a continuation byte: look further back */
		size_t need = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 1;
		if (c < 0xc2 || c > 0xf4)
			return 0;
		return need > back ? back : 0;
	}
	return 0;
}

static int sanitise_out(struct textsafe_stream *st, const char *s, size_t n)
{
	char *safe = textsafe_dup(s, n);
	int rc = write_all(st->fd, safe, strlen(safe));
	free(safe);
	return rc;
}

static ssize_t stream_write(void *cookie, const char *buf, size_t size)
{
	struct textsafe_stream *st = cookie;
	struct wb_buf b = {0};
	wb_buf_append(&b, st->carry, st->ncarry);
	wb_buf_append(&b, buf, size);
	size_t hold = incomplete_tail(b.data ? b.data : "", b.len);
	int rc = sanitise_out(st, b.data ? b.data : "", b.len - hold);
	memcpy(st->carry, b.data + b.len - hold, hold);
	st->ncarry = hold;
	wb_buf_free(&b);
	return rc < 0 ? -1 : (ssize_t)size;
}

static int stream_close(void *cookie)
{
	struct textsafe_stream *st = cookie;
	int rc = st->ncarry ? sanitise_out(st, st->carry, st->ncarry) : 0;
	st->ncarry = 0;
	return rc;
}

FILE *textsafe_stream(struct textsafe_stream *st, int fd, int mode)
{
	*st = (struct textsafe_stream){.fd = fd};
	cookie_io_functions_t io = {.write = stream_write, .close = stream_close};
	FILE *f = fopencookie(st, "w", io);
	if (!f)
		return NULL;
	setvbuf(f, NULL, mode, BUFSIZ);
	return f;
}

const char *textsafe_describe(enum textsafe_kind kind, uint32_t cp, char *buf, size_t len)
{
	switch (kind) {
	case TEXTSAFE_ESC:
		snprintf(buf, len, "escape character U+001B (starts a terminal control sequence)");
		break;
	case TEXTSAFE_CONTROL: snprintf(buf, len, "control character U+%04X", (unsigned)cp); break;
	case TEXTSAFE_C1: snprintf(buf, len, "C1 control character U+%04X", (unsigned)cp); break;
	case TEXTSAFE_BIDI:
		snprintf(buf, len,
			 "bidi control U+%04X (displayed text would differ from the file)",
			 (unsigned)cp);
		break;
	case TEXTSAFE_INVALID:
		snprintf(buf, len, "byte 0x%02X that is not valid UTF-8", (unsigned)cp);
		break;
	default: snprintf(buf, len, "no unsafe character"); break;
	}
	return buf;
}
