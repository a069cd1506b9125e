/*
 * cli/timeline.c - `workbench timeline FILE [--svg OUT.svg [--force]]`:
 * the timeline of a run's event lines (a run's events.jsonl) or of a
 * history written by `lab run --history` (JSON lines or EDN) as text at
 * the layout width (--width, else the terminal's, 80 when stdout is no
 * terminal), or as a standalone SVG file, opened with base/outfile.h:
 * never the progress database, an existing file only with --force, in
 * place only when complete.  A file with nothing to draw is an error.
 * The drawing is core/timeline.h's and core/timeline_svg.h's; this file
 * only reads options and reports errors.
 */
#include "app.h"
#include "cli/commands.h"
#include "core/timeline.h"
#include "core/timeline_events.h"
#include "core/timeline_svg.h"
#include "base/outfile.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int term_width(const struct app *app)
{
	if (app->width)
		return app->width;
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col >= TL_MIN_WIDTH)
		return ws.ws_col;
	return 80;
}

static int print_text(const struct timeline *t, int width, const char *lang)
{
	struct tl_picture *p;
	if (timeline_render(t, width, lang, &p) != 0) {
		fprintf(stderr, "workbench timeline: --width must be at least %d for a timeline\n",
			TL_MIN_WIDTH);
		return EXIT_USAGE;
	}
	for (size_t r = 0; r < p->n; r++) {
		char *s = timeline_row_text(p, r);
		puts(s);
		free(s);
	}
	timeline_picture_free(p);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

/* Writes t as SVG to svg, titled with the base name of path. */
static int write_svg(const struct app *app, struct timeline *t, const char *path, const char *svg,
		     int force)
{
	struct wb_outfile o;
	char why[1024];
	const char *slash = strrchr(path, '/');
	int rc = wb_outfile_open(&o, svg, app->db_path, force, why, sizeof why);
	if (rc == 0) {
		if (timeline_svg_write(t, slash ? slash + 1 : path, app->lang, o.f) != 0) {
			snprintf(why, sizeof why, "cannot write %s: %s", svg, wb_strerror(WB_EIO));
			wb_outfile_abort(&o);
			rc = WB_EIO;
		} else {
			rc = wb_outfile_commit(&o, app->db_path, why, sizeof why);
		}
	}
	timeline_free(t);
	if (rc) {
		fprintf(stderr, "workbench timeline: %s\n", why);
		return EXIT_FAIL;
	}
	printf("wrote %s\n", svg);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

static int timeline_cmd(struct app *app, const struct args *args)
{
	const char *path = args->argv[0];
	const char *svg = args_value(args, "--svg");
	char err[512];
	if (svg && !*svg)
		return command_usage_error(&cmd_timeline, "--svg needs a file name");
	struct timeline *t = NULL;
	if (tl_events_load(path, &t, err, sizeof err) != 0) {
		fprintf(stderr, "workbench timeline: %s\n", err);
		return EXIT_FAIL;
	}
	if (!timeline_nops(t) && !timeline_nmarks(t)) {
		fprintf(stderr,
			"workbench timeline: %s: nothing to draw (no op, mark or checker event, "
			"no history line)\n",
			path);
		timeline_free(t);
		return EXIT_FAIL;
	}
	if (svg)
		return write_svg(app, t, path, svg, args_has(args, "--force"));
	int rc = print_text(t, term_width(app), app->lang);
	timeline_free(t);
	return rc;
}

const struct command cmd_timeline = {
	.name = "timeline",
	.args = {.opts = "--svg= --force", .lower = 1, .upper = 1},
	.usage = "FILE.jsonl [--svg OUT.svg [--force]] [--width N]",
	.help = "draw a run's operation history as a timeline (text, or SVG)",
	.more = "  FILE.jsonl holds a run's event lines (op, mark and checker events;\n"
		"  other events are skipped) or a `lab run --history` file (JSON lines or\n"
		"  EDN); a file with nothing to draw is an error.  An existing OUT.svg is\n"
		"  replaced only with --force, never the progress database.\n",
	.run = timeline_cmd,
};
