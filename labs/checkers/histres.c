/*
 * histres.c - helpers shared by the checkers (histres.h): result filling
 * and integer parsing.  No checker logic lives here.
 */
#include "checkers/histres.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/wb.h"

void histres_valid(struct hist_result *res)
{
	memset(res, 0, sizeof *res);
	res->verdict = HIST_VALID;
}

void histres_set(struct hist_result *res, enum hist_verdict v, const char *fmt, ...)
{
	va_list ap;

	res->verdict = v;
	va_start(ap, fmt);
	if (vsnprintf(res->why, sizeof res->why, fmt, ap) < 0)
		res->why[0] = '\0';
	va_end(ap);
}

int histres_witness(struct hist_result *res, int index)
{
	if (res->n_witness >= WB_ARRAY_LEN(res->witness))
		return WB_ERANGE;
	res->witness[res->n_witness++] = index;
	return 0;
}

int histres_parse_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (s == NULL || *s == '\0' || *s == ' ' || *s == '\t')
		return WB_EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return WB_EINVAL;
	*out = (int64_t)v;
	return 0;
}

const char *histres_verdict_name(enum hist_verdict v)
{
	switch (v) {
	case HIST_VALID: return "valid";
	case HIST_INVALID: return "invalid";
	case HIST_UNKNOWN: return "unknown";
	}
	return "?";
}
