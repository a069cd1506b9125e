/*
 * cli/args.c - the option parser of every command and of main.c's global
 * flags (template rules in args.h).
 *
 * It only splits words: values are checked by the command that reads
 * them, and messages are printed by the caller, which knows the usage.
 */
#include "cli/args.h"
#include "cli/suggest.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads the template into a->opt. */
static void load_template(const char *t, struct args *a)
{
	while (t && *t) {
		size_t n = strcspn(t, " ");
		if (n) {
			if (a->nopt == ARGS_MAX_OPTS) {
				fprintf(stderr, "args: template has over %d options\n",
					ARGS_MAX_OPTS);
				abort();
			}
			struct args_opt *o = &a->opt[a->nopt++];
			o->spell = t;
			o->takes_value = t[n - 1] == '=';
			o->len = n - (size_t)o->takes_value;
		}
		t += n;
		while (*t == ' ')
			t++;
	}
}

/* True when name[0..n) is one of the '|'-separated spellings of o. */
static int spelled(const struct args_opt *o, const char *name, size_t n)
{
	const char *s = o->spell, *end = o->spell + o->len;
	while (s < end) {
		const char *bar = memchr(s, '|', (size_t)(end - s));
		size_t len = (size_t)((bar ? bar : end) - s);
		if (len == n && !memcmp(s, name, n))
			return 1;
		s += len + 1;
	}
	return 0;
}

/* The index in a->opt of the option spelled name[0..n), or -1. */
static int find(const struct args *a, const char *name, size_t n)
{
	for (size_t i = 0; i < a->nopt; i++)
		if (spelled(&a->opt[i], name, n))
			return (int)i;
	return -1;
}

/* Takes the option at argv[*i] (it starts with '-').  Returns 1 when it is
 * an unknown option the caller may keep, 0 when taken, WB_EINVAL on error. */
static int take_option(struct args *a, int argc, char **argv, int *i)
{
	const char *arg = argv[*i];
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	int k = find(a, arg, n);
	if (k < 0)
		return 1;
	struct args_opt *o = &a->opt[k];
	if (!o->takes_value && eq) {
		snprintf(a->err, sizeof a->err, "option '%.*s' takes no value", (int)n, arg);
		return WB_EINVAL;
	}
	if (o->takes_value && !eq && *i + 1 >= argc) {
		snprintf(a->err, sizeof a->err, "%s needs a value", arg);
		return WB_EINVAL;
	}
	if (o->takes_value)
		o->value = eq ? eq + 1 : argv[++*i];
	o->count++;
	return 0;
}

static int check_count(const struct args_spec *spec, struct args *a)
{
	if (a->argc < spec->lower) {
		snprintf(a->err, sizeof a->err, "missing argument");
		return WB_EINVAL;
	}
	if (spec->upper >= 0 && a->argc > spec->upper) {
		snprintf(a->err, sizeof a->err, "unexpected argument '%s'", a->argv[spec->upper]);
		return WB_EINVAL;
	}
	return 0;
}

int args_parse(const struct args_spec *spec, int argc, char **argv, struct args *a)
{
	memset(a, 0, sizeof *a);
	load_template(spec->opts, a);
	a->argv = wb_xcalloc((size_t)argc + 1, sizeof *a->argv);
	int pass = (spec->flags & ARGS_PASS_UNKNOWN) != 0;
	int i = 0;
	for (; i < argc; i++) {
		const char *arg = argv[i];
		if (!strcmp(arg, "--")) {
			if (pass && a->argc > 0)
				a->argv[a->argc++] = argv[i];
			i++;
			break;
		}
		if (arg[0] != '-' || !arg[1]) {
			a->argv[a->argc++] = argv[i];
			if (spec->flags & ARGS_IN_ORDER) {
				i++;
				break;
			}
			continue;
		}
		int rc = take_option(a, argc, argv, &i);
		if (rc < 0)
			return rc;
		if (rc == 1 && pass && a->argc > 0) {
			a->argv[a->argc++] = argv[i];
		} else if (rc == 1) {
			snprintf(a->err, sizeof a->err, "unknown option '%s'", arg);
			a->unknown = arg;
			return WB_EINVAL;
		}
	}
	while (i < argc)
		a->argv[a->argc++] = argv[i++];
	return check_count(spec, a);
}

int args_has(const struct args *a, const char *name)
{
	int k = find(a, name, strlen(name));
	return k < 0 ? 0 : a->opt[k].count;
}

const char *args_value(const struct args *a, const char *name)
{
	int k = find(a, name, strlen(name));
	return k < 0 ? NULL : a->opt[k].value;
}

const char *args_suggest(const struct args_spec *spec, const char *word)
{
	static char best[64];
	const char *cands[ARGS_MAX_OPTS * 3];
	char names[ARGS_MAX_OPTS * 3][64];
	size_t n = 0, wlen = strcspn(word, "=");
	char w[64];
	snprintf(w, sizeof w, "%.*s", (int)(wlen < sizeof w ? wlen : sizeof w - 1), word);
	for (const char *t = spec->opts; t && *t && n < WB_ARRAY_LEN(names);) {
		size_t len = strcspn(t, " |=");
		if (len && len < sizeof names[0]) {
			snprintf(names[n], sizeof names[n], "%.*s", (int)len, t);
			cands[n] = names[n];
			n++;
		}
		t += len;
		t += strspn(t, " |=");
	}
	const char *got = suggest_closest(w, cands, n);
	if (!got)
		return NULL;
	snprintf(best, sizeof best, "%s", got);
	return best;
}

void args_free(struct args *a)
{
	if (!a)
		return;
	free(a->argv);
	a->argv = NULL;
	a->argc = 0;
}
