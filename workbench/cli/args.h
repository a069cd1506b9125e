/*
 * cli/args.h - the one command-line option parser, driven by a template.
 *
 * A command states which options it takes in a template string, tmux
 * style; args_parse() splits argv into those options and the operands
 * (the other words, in order) and says what was wrong when it cannot:
 *
 *   "--json --zk="        --json is a flag, --zk takes a value
 *   "-o|--output="        two spellings of one option
 *
 * An option's value is given as "--zk=VALUE" or "--zk VALUE" (the next
 * word, whatever it is, so "--wait -1" hands "-1" to the caller to judge).
 * "--" ends the options; "-" alone is an operand.  A repeated option keeps
 * its last value.  It does not convert or check values, print anything,
 * or know the commands.
 */
#ifndef WB_CLI_ARGS_H
#define WB_CLI_ARGS_H

#include <stddef.h>

/* Parse flags (struct args_spec.flags). */
enum {
	/* Options stop at the first operand: it and every later word are
	 * operands (`zk-lock ... COMMAND ARGS`). */
	ARGS_IN_ORDER = 1 << 0,
	/* After the first operand, unknown options and "--" with every word
	 * after it are kept as operands, for a later parse (main.c's global
	 * flags around the command words). */
	ARGS_PASS_UNKNOWN = 1 << 1,
};

/* What a command accepts. */
struct args_spec {
	const char *opts; /* option template (above); NULL or "" for none */
	int lower;	  /* fewest operands */
	int upper;	  /* most operands, -1 for any number */
	unsigned flags;	  /* ARGS_* */
};

#define ARGS_MAX_OPTS 16

/* One option of the template and what the command line gave it. */
struct args_opt {
	const char *spell; /* its spellings in the template, "-o|--output" */
	size_t len;	   /* length of spell (without the '=') */
	int takes_value;
	int count;	   /* times given */
	const char *value; /* last value given, NULL when none */
};

/* A parsed command line.  Strings are borrowed from the caller's argv. */
struct args {
	struct args_opt opt[ARGS_MAX_OPTS];
	size_t nopt;
	int argc;	     /* number of operands */
	char **argv;	     /* operands, NULL-terminated (owned array) */
	char err[192];	     /* after a failed parse: what was wrong, no prefix */
	const char *unknown; /* after "unknown option": the word as given, maybe
				with "=VALUE" (borrowed from argv), else NULL */
};

/* Parses argv[0..argc) (the words after the command's name) by spec into
 * *a.  Returns 0, or WB_EINVAL for a usage error with a->err saying which
 * ("unknown option '--x'", "--zk needs a value", "option '--json' takes
 * no value", "missing argument", "unexpected argument 'x'").  Call
 * args_free() afterwards in both cases.  A template with more than
 * ARGS_MAX_OPTS options is a programming error (abort). */
int args_parse(const struct args_spec *spec, int argc, char **argv, struct args *a);

/* How many times option name (any of its spellings) was given; 0 also
 * for a name the template does not have.  Cannot fail. */
int args_has(const struct args *a, const char *name);

/* The last value of option name, or NULL when it was not given (or the
 * template does not have it).  Borrowed from argv. */
const char *args_value(const struct args *a, const char *name);

/* The option of the template that word (an unknown option) most likely
 * meant, as "--json" (static storage, overwritten by the next call), or
 * NULL when none is close (cli/suggest.c).  Cannot fail. */
const char *args_suggest(const struct args_spec *spec, const char *word);

/* Frees the operand array; a may be zeroed or parsed.  Accepts NULL. */
void args_free(struct args *a);

#endif
