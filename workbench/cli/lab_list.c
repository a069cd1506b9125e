/*
 * cli/lab_list.c - `workbench lab list [--json]`: every lab in this build
 * with its chapters, whether it accepts --zk, its title (in the UI
 * language), what it needs (and how many ZooKeeper sessions, when a --zk
 * server's per-address limit matters), as columns or JSON lines.
 * It also holds cli/labcmd.h's helpers.  It does not run labs
 * (cli/lab_run.c) or read the lesson catalogue.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/labcmd.h"
#include "cli/suggest.h"
#include "base/wb.h"
#include "lab.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

int labcmd_takes_zk(const struct lab *lab)
{
	return (lab->needs & LAB_NEEDS_ZK) &&
	       !(lab->needs & (LAB_NEEDS_PROCCTL | LAB_NEEDS_ENSEMBLE));
}

const char *labcmd_suggest(const char *id)
{
	size_t n;
	const struct lab *const *labs = lab_all(&n);
	const char **ids = wb_xcalloc(n + 1, sizeof *ids);
	for (size_t i = 0; i < n; i++)
		ids[i] = labs[i]->id;
	const char *near = suggest_closest(id, ids, n);
	free(ids);
	return near;
}

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
			json_t *o = json_pack(
				"{s:s, s:s, s:s, s:s, s:b}", "id", labs[i]->id, "chapters",
				labs[i]->chapters, "title", lab_title(labs[i], app->lang), "needs",
				needs_text(labs[i]->needs), "zk_option", labcmd_takes_zk(labs[i]));
			if (labs[i]->sessions > 0) /* #20 F10: what a --zk server must allow */
				json_object_set_new(o, "zk_sessions",
						    json_integer(labs[i]->sessions));
			char *s = json_dumps(o, JSON_COMPACT);
			printf("%s\n", s);
			free(s);
			json_decref(o);
		} else {
			printf("%-22s %-6s %-4s %s", labs[i]->id, labs[i]->chapters,
			       labcmd_takes_zk(labs[i]) ? "--zk" : "",
			       lab_title(labs[i], app->lang));
			if (labs[i]->sessions > 0)
				printf(" [%d ZooKeeper sessions: --zk needs maxClientCnxns >= %d "
				       "or 0]",
				       labs[i]->sessions, labs[i]->sessions);
			printf("\n");
		}
	}
	if (!json)
		fprintf(stderr, "--zk: the lab can run against your own ZooKeeper "
				"(workbench lab run ID --zk HOST:PORT); the others start their own "
				"servers or use none\n");
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
