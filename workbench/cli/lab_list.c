/*
 * cli/lab_list.c - `workbench lab list [--json]`: every lab in this build
 * with its chapters, title (in the UI language) and what it needs (and how
 * many ZooKeeper sessions, when a --zk server's per-address limit matters),
 * as columns or JSON lines.
 * It does not run labs (cli/lab_run.c) or read the lesson catalogue.
 */
#include "app.h"
#include "cli/commands.h"
#include "lab.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

static const char *needs_text(unsigned needs)
{
	if (needs & LAB_NEEDS_ENSEMBLE)
		return "zookeeper-ensemble";
	if (needs & LAB_NEEDS_ZK)
		return "zookeeper";
	if (needs & LAB_NEEDS_REDIS)
		return "redis";
	return "sqlite";
}

static int lab_list(struct app *app, const struct args *args)
{
	int json = args_has(args, "--json");
	size_t n;
	const struct lab *const *labs = lab_all(&n);
	for (size_t i = 0; i < n; i++) {
		if (json) {
			json_t *o =
				json_pack("{s:s, s:s, s:s, s:s}", "id", labs[i]->id, "chapters",
					  labs[i]->chapters, "title", lab_title(labs[i], app->lang),
					  "needs", needs_text(labs[i]->needs));
			if (labs[i]->sessions > 0) /* #20 F10: what a --zk server must allow */
				json_object_set_new(o, "zk_sessions",
						    json_integer(labs[i]->sessions));
			char *s = json_dumps(o, JSON_COMPACT);
			printf("%s\n", s);
			free(s);
			json_decref(o);
		} else {
			printf("%-22s %-6s %s", labs[i]->id, labs[i]->chapters,
			       lab_title(labs[i], app->lang));
			if (labs[i]->sessions > 0)
				printf(" [%d ZooKeeper sessions: --zk needs maxClientCnxns >= %d "
				       "or 0]",
				       labs[i]->sessions, labs[i]->sessions);
			printf("\n");
		}
	}
	return EXIT_OK;
}

const struct command cmd_lab_list = {
	.name = "lab",
	.sub = "list",
	.args = {.opts = "--json", .upper = 0},
	.usage = "[--json]",
	.help = "list the labs in this build",
	.run = lab_list,
};
