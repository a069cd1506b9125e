/*
 * cli/commands.h - the command descriptor, tmux style: each command's
 * `const struct command cmd_<sym>` sits in its own file under cli/ and is
 * listed in cli/commands.def; main.c dispatches from that list, parses the
 * command's options from its template (cli/args.h) and prints help from
 * the descriptors.  No command logic here.
 */
#ifndef WB_CLI_COMMANDS_H
#define WB_CLI_COMMANDS_H

#include "app.h"
#include "cli/args.h"

#include <stdio.h>

struct command {
	const char *name;      /* first word, e.g. "quiz" */
	const char *sub;       /* second word or NULL, e.g. "lint" */
	struct args_spec args; /* options and operand counts, parsed before run */
	const char *usage;     /* argument synopsis, e.g. "[PATH...]" */
	const char *help;      /* one line for --help */
	const char *more;      /* further lines for usage messages, or NULL */
	int data_out;	       /* 1: stdout carries a data format (CSV, JSON) that
				  a pipe or file gets byte for byte; sanitised
				  only on a terminal (core/textsafe.h) */
	/* Runs the command with its parsed arguments; returns an exit code. */
	int (*run)(struct app *app, const struct args *args);
};

#define WB_COMMAND(sym) extern const struct command cmd_##sym;
#include "cli/commands.def"
#undef WB_COMMAND

/* Prints "usage: workbench NAME [SUB] USAGE", the help line when
 * with_help, and the descriptor's more lines to f.  Cannot fail (output
 * errors are the stream's). */
void command_print_usage(const struct command *c, int with_help, FILE *f);

/* Prints "workbench NAME [SUB]: " and the printf-style message, then the
 * usage, on stderr.  Returns EXIT_USAGE for the caller to return. */
int command_usage_error(const struct command *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
