/*
 * cli/lab_run.c - `workbench lab run ID [--json] [--zk HOST:PORT,...]
 * [--history FILE [--history-format json|edn]] [--timeline FILE.svg]
 * [--force]`: finds the lab, checks --zk against it, and runs the lab
 * under the lab supervisor (cli/labsuper.h), which owns the run folder,
 * the worker, the cancel and the record.  Titles come from the lab
 * catalogue in the UI language.  `lab run --all` and `--only` go to
 * cli/lab_run_all.c.  No lab logic here.
 *
 * The output files: --history and --timeline are opened with
 * base/outfile.h before the run (never the progress database, an
 * existing file only with --force), so a refused name costs no run.
 * The worker writes the history (histfile.h) and the supervisor the SVG
 * into private scratch files; after the run this file checks them
 * (complete: the history ends its last line, the SVG its </svg>), copies
 * them into the output files and puts those in place.  A file that
 * cannot be written makes the exit non-zero (1 after a pass) but never
 * changes the verdict the run recorded; after a cancel nothing is
 * written.
 */
#include "app.h"
#include "cli/commands.h"
#include "cli/labcmd.h"
#include "cli/labsuper.h"
#include "base/outfile.h"
#include "base/wb.h"
#include "histfile.h"
#include "lab.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Finds the lab and checks --zk against it.  Returns -1 to go on, or the
 * exit code. */
static int find_lab(const char *id, const char *zk, const struct lab **out)
{
	const struct lab *lab = lab_find(id);
	if (!lab) {
		const char *near = labcmd_suggest(id);
		fprintf(stderr,
			"workbench: no lab '%s' in this build%s%s%s; see `workbench lab list`\n",
			id, near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
		return EXIT_USAGE;
	}
	char msg[512];
	if (zk && lab_check_zk(zk, msg, sizeof msg) != 0) {
		fprintf(stderr, "workbench: %s\n", msg);
		return EXIT_USAGE;
	}
	if (zk && (lab->needs & (LAB_NEEDS_PROCCTL | LAB_NEEDS_ENSEMBLE))) {
		fprintf(stderr,
			"workbench: lab %s starts, cuts or proxies its own servers; it cannot run "
			"against --zk %s\n",
			id, zk);
		return LAB_EXIT_CANNOT;
	}
	if (zk && !labcmd_takes_zk(lab)) {
		fprintf(stderr,
			"workbench: lab %s does not use ZooKeeper, so --zk %s has nothing to do; "
			"the labs marked --zk in `workbench lab list` take it\n",
			id, zk);
		return EXIT_USAGE;
	}
	*out = lab;
	return -1;
}

/* The output files of one run (see the top of the file). */
struct run_out {
	char *scratch;		     /* private folder for the scratch files, or NULL */
	FILE *hist_scratch;	     /* the worker's history, or NULL */
	char *svg_scratch;	     /* where the supervisor draws the SVG, or NULL */
	struct wb_outfile hist, svg; /* the user's files; .f NULL when not asked */
};

/* Removes the scratch files and folder and frees what out holds. */
static void outputs_clear(struct run_out *out)
{
	if (out->hist_scratch)
		fclose(out->hist_scratch);
	if (out->scratch) {
		char *h = wb_xasprintf("%s/history", out->scratch);
		unlink(h);
		free(h);
		if (out->svg_scratch)
			unlink(out->svg_scratch);
		rmdir(out->scratch);
	}
	free(out->svg_scratch);
	free(out->scratch);
	wb_outfile_abort(&out->hist);
	wb_outfile_abort(&out->svg);
	memset(out, 0, sizeof *out);
}

/* Opens the asked output files and the scratch files.  Returns -1 to go
 * on, or the exit code after saying why. */
static int outputs_open(struct run_out *out, const struct app *app, const char *hpath,
			const char *tpath, int force)
{
	char why[1024];
	if ((hpath && wb_outfile_open(&out->hist, hpath, app->db_path, force, why, sizeof why)) ||
	    (tpath && wb_outfile_open(&out->svg, tpath, app->db_path, force, why, sizeof why))) {
		fprintf(stderr, "workbench: %s\n", why);
		outputs_clear(out);
		return EXIT_USAGE;
	}
	if (!hpath && !tpath)
		return -1;
	const char *tmp = getenv("TMPDIR");
	out->scratch = wb_xasprintf("%s/workbench-out-XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
	if (!mkdtemp(out->scratch)) {
		fprintf(stderr, "workbench: cannot make a scratch folder %s: %s\n", out->scratch,
			strerror(errno));
		free(out->scratch);
		out->scratch = NULL;
		outputs_clear(out);
		return EXIT_FAIL;
	}
	if (hpath) {
		char *h = wb_xasprintf("%s/history", out->scratch);
		out->hist_scratch = fopen(h, "w+");
		free(h);
		if (!out->hist_scratch) {
			fprintf(stderr, "workbench: cannot write a scratch file in %s: %s\n",
				out->scratch, strerror(errno));
			outputs_clear(out);
			return EXIT_FAIL;
		}
	}
	if (tpath)
		out->svg_scratch = wb_xasprintf("%s/timeline.svg", out->scratch);
	return -1;
}

/* Copies the scratch file src (read from its start) into the output file
 * o and puts it in place, when the scratch file is complete: empty or
 * ending in end.  Returns 0, or -1 after saying why (o is then as it was). */
static int output_put(FILE *src, struct wb_outfile *o, const char *end, const char *db)
{
	char buf[8192], last[16] = "";
	size_t n, have = 0, want = strlen(end);
	int bad = fflush(src) != 0 || fseek(src, 0, SEEK_SET) != 0;
	while (!bad && (n = fread(buf, 1, sizeof buf, src)) > 0) {
		bad = fwrite(buf, 1, n, o->f) != n;
		if (n >= want) {
			memcpy(last, buf + n - want, want);
			have = want;
		} else { /* keep the last want bytes of what was read */
			size_t keep = have + n > want ? want - n : have;
			memmove(last, last + have - keep, keep);
			memcpy(last + keep, buf, n);
			have = keep + n;
		}
	}
	bad = bad || ferror(src);
	if (!bad && have && (have < want || memcmp(last, end, want) != 0)) {
		fprintf(stderr, "workbench: %s was not written: the run's copy is incomplete\n",
			o->path);
		wb_outfile_abort(o);
		return -1;
	}
	char why[1024];
	if (bad) {
		fprintf(stderr, "workbench: cannot write %s\n", o->path);
		wb_outfile_abort(o);
		return -1;
	}
	if (wb_outfile_commit(o, db, why, sizeof why) != 0) {
		fprintf(stderr, "workbench: %s\n", why);
		return -1;
	}
	return 0;
}

/* After the run: puts the output files in place (nothing after a
 * cancel), says where the timeline went unless json, and removes the
 * scratch files.  Returns 0, or -1 when a file asked for was not
 * written (said on stderr). */
static int outputs_finish(struct run_out *out, const struct app *app, int cancelled, int json)
{
	int rc = 0;
	if (cancelled) {
		outputs_clear(out);
		return 0;
	}
	if (out->hist.f && output_put(out->hist_scratch, &out->hist, "\n", app->db_path) != 0)
		rc = -1;
	if (out->svg.f) {
		FILE *svg = fopen(out->svg_scratch, "r");
		struct stat st;
		if (!svg || fstat(fileno(svg), &st) != 0 || st.st_size == 0) {
			fprintf(stderr, "workbench: no timeline written to %s\n", out->svg.path);
			rc = -1;
		} else {
			char *path = wb_xstrdup(out->svg.path);
			if (output_put(svg, &out->svg, "</svg>\n", app->db_path) != 0)
				rc = -1;
			else if (!json)
				printf("timeline: %s\n", path);
			free(path);
		}
		if (svg)
			fclose(svg);
	}
	outputs_clear(out);
	return rc;
}

static int lab_run(struct app *app, const struct args *args)
{
	if (args_has(args, "--all") || args_has(args, "--only"))
		return labcmd_run_all(app, args);
	if (args->argc != 1)
		return command_usage_error(&cmd_lab_run, "give one lab ID, or --all");
	const char *id = args->argv[0], *zk = args_value(args, "--zk");
	const struct lab *lab = NULL;
	int rc = find_lab(id, zk, &lab);
	if (rc >= 0)
		return rc;
	const char *hpath = args_value(args, "--history"),
		   *hfmt = args_value(args, "--history-format");
	enum histfile_format fmt = HISTFILE_JSON;
	if ((hfmt && !hpath) || (hfmt && histfile_format_parse(hfmt, &fmt) != 0)) {
		fprintf(stderr,
			"workbench: --history-format is json or edn, with --history FILE\n");
		return EXIT_USAGE;
	}
	const char *tpath = args_value(args, "--timeline");
	if ((hpath && !*hpath) || (tpath && !*tpath))
		return command_usage_error(&cmd_lab_run,
					   "--history and --timeline need a file name");
	if (hpath && tpath && !strcmp(hpath, tpath))
		return command_usage_error(&cmd_lab_run,
					   "--history and --timeline need two different files");
	struct run_out out = {0};
	if ((rc = outputs_open(&out, app, hpath, tpath, args_has(args, "--force"))) >= 0)
		return rc;
	char *title = wb_xasprintf("%s: %s", lab->id, lab_title(lab, app->lang));
	struct labsuper_job job = {
		.lab = lab,
		.what = "lab",
		.id = lab->id,
		.title = title,
		.zk = zk,
		.json = args_has(args, "--json"),
		.record = 1,
		.keep_failed = 1,
		.history = out.hist_scratch,
		.history_format = (int)fmt,
		.timeline_svg = out.svg_scratch,
	};
	int signals = labsuper_signals();
	rc = labsuper_run(app, &job);
	if (outputs_finish(&out, app, labsuper_signals() != signals, job.json) != 0 && rc == 0)
		rc = EXIT_FAIL;
	free(title);
	return rc;
}

const struct command cmd_lab_run = {
	.name = "lab",
	.sub = "run",
	.args = {.opts = "--json --zk= --history= --history-format= --timeline= --force --all "
			 "--only=",
		 .lower = 0,
		 .upper = 1},
	.usage = "ID [--json] [--zk HOST:PORT,...] [--history FILE [--history-format json|edn]] "
		 "[--timeline FILE.svg] [--force] | "
		 "--all [--only ID,ID...] [--json]",
	.help = "run a lab, or every lab in turn (exit 0 pass, 1 fail, 2 could not run)",
	.more = "--history and --timeline never write the progress database in use, replace\n"
		"an existing file only with --force, and appear only when complete; one\n"
		"that cannot be written makes a passed run exit 1.\n",
	.run = lab_run,
};
