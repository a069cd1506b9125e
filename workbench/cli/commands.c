/*
 * cli/commands.c - the usage messages every command shares, printed from
 * its descriptor.  The table of commands and the dispatch are in main.c;
 * nothing here parses or runs a command.
 */
#include "cli/commands.h"

#include <stdarg.h>
#include <stdio.h>

void command_print_usage(const struct command *c, int with_help, FILE *f)
{
	fprintf(f, "usage: workbench %s%s%s%s%s\n", c->name, c->sub ? " " : "",
		c->sub ? c->sub : "", *c->usage ? " " : "", c->usage);
	if (with_help)
		fprintf(f, "%s\n", c->help);
	if (c->more)
		fputs(c->more, f);
}

int command_usage_error(const struct command *c, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "workbench %s%s%s: ", c->name, c->sub ? " " : "", c->sub ? c->sub : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	command_print_usage(c, 0, stderr);
	return EXIT_USAGE;
}
