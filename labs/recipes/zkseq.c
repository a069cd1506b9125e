/*
 * zkseq.c - sequential node names (see zkseq.h).
 *
 * The parsers are strict on purpose: the only accepted suffix is what a
 * server whose counter has not wrapped produces, exactly ten ASCII digits.
 * Anything else (a sign, eleven characters, spaces, a value above
 * INT32_MAX) means the counter wrapped or the name is not ours, and a lock
 * must not guess an order for it.
 */
#include "recipes/zkseq.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *zkseq_format(int32_t counter, char buf[12])
{
	snprintf(buf, 12, "%010d", (int)counter);
	return buf;
}

/* Exactly ten digits and the end of the string. */
static int parse_digits(const char *s, int32_t *seq)
{
	int64_t v = 0;
	for (int i = 0; i < ZKSEQ_DIGITS; i++) {
		if (s[i] < '0' || s[i] > '9')
			return WB_EINVAL;
		v = v * 10 + (s[i] - '0');
	}
	if (s[ZKSEQ_DIGITS] != '\0')
		return WB_EINVAL;
	if (v > INT32_MAX)
		return WB_ERANGE;
	*seq = (int32_t)v;
	return 0;
}

int zkseq_parse(const char *name, const char *prefix, int32_t *seq)
{
	if (!name || !prefix)
		return WB_EINVAL;
	size_t n = strlen(prefix);
	if (strncmp(name, prefix, n) != 0)
		return WB_EINVAL;
	return parse_digits(name + n, seq);
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The 8-4-4-4-12 hex form in the first 36 characters of s.  Stops at the
 * first mismatch, so a shorter string is never read past its NUL. */
static int uuid_at(const char *s)
{
	for (int i = 0; i < ZKSEQ_UUID_LEN; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;
		if (dash ? s[i] != '-' : !is_hex(s[i]))
			return 0;
	}
	return 1;
}

int zkseq_is_uuid(const char *s)
{
	return s && uuid_at(s) && s[ZKSEQ_UUID_LEN] == '\0';
}

int zkseq_protected_name(const char *uuid, char buf[ZKSEQ_PROTECTED_LEN + 1])
{
	if (!zkseq_is_uuid(uuid))
		return WB_EINVAL;
	snprintf(buf, ZKSEQ_PROTECTED_LEN + 1, "%s%s-%s", ZKSEQ_PROTECTED_PREFIX, uuid,
		 ZKSEQ_LOCK_NAME);
	return 0;
}

int zkseq_parse_protected(const char *name, char guid[ZKSEQ_UUID_LEN + 1], int32_t *seq)
{
	if (!name || strncmp(name, ZKSEQ_PROTECTED_PREFIX, 3) != 0)
		return WB_EINVAL;
	const char *uuid = name + 3;
	if (!uuid_at(uuid))
		return WB_EINVAL;
	const char *rest = uuid + ZKSEQ_UUID_LEN;
	if (strncmp(rest, "-" ZKSEQ_LOCK_NAME, 6) != 0)
		return WB_EINVAL;
	int32_t v;
	int rc = parse_digits(rest + 6, &v);
	if (rc)
		return rc;
	if (guid) {
		memcpy(guid, uuid, ZKSEQ_UUID_LEN);
		guid[ZKSEQ_UUID_LEN] = '\0';
	}
	if (seq)
		*seq = v;
	return 0;
}

int zkseq_cmp_protected(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int32_t sx, sy;
	int okx = zkseq_parse_protected(x, NULL, &sx) == 0;
	int oky = zkseq_parse_protected(y, NULL, &sy) == 0;
	if (okx && oky && sx != sy)
		return sx < sy ? -1 : 1;
	if (okx != oky)
		return okx ? -1 : 1;
	return strcmp(x, y);
}
