/*
 * timeline_svg.c - draws a timeline layout (core/timeline.h) as SVG.
 *
 * The geometry is the text layout's, scaled: a column is TIMELINE_SVG_COL
 * pixels, a row TIMELINE_SVG_ROW, so the SVG and the terminal show the
 * same lanes, rows, breaks and labels (cut to the same room).  Colours:
 * completed operations blue, failed ones grey with ✗, unknown outcomes
 * amber and dashed, open to the right; the witness red and thicker.  Text
 * is sanitised by the layout (the title here) and escaped here; nothing
 * of the input reaches the file unescaped, and no control byte or
 * invalid UTF-8 reaches it at all.  Written by hand with fprintf: an SVG this
 * small needs no XML library.  It does not embed fonts or scripts.
 */
#include "core/timeline_svg.h"
#include "core/textsafe.h"
#include "core/timeline_events.h"
#include "base/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARGIN	12
#define TITLE_H 28

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(*s, f);
		}
	}
}

struct geom {
	int x0;	 /* pixel x of the lane area's column 0 */
	int top; /* pixel y of the picture's row 0 (the scale) */
};

static int col_x(const struct geom *g, int col)
{
	return g->x0 + col * TIMELINE_SVG_COL;
}

static int row_y(const struct geom *g, int row)
{
	return g->top + row * TIMELINE_SVG_ROW;
}

static void draw_scale(FILE *f, const struct tl_layout *l, const struct geom *g)
{
	int y = row_y(g, 1) + TIMELINE_SVG_ROW / 2;
	fprintf(f, "<text class=\"lane\" x=\"%d\" y=\"%d\">", MARGIN, row_y(g, 0) + 15);
	xml_text(f, l->unit);
	fputs("</text>\n", f);
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", col_x(g, 0),
		y, col_x(g, l->area), y);
	for (size_t i = 0; i < l->nticks; i++) {
		int x = col_x(g, l->ticks[i].x) + TIMELINE_SVG_COL / 2;
		double ms = (double)l->ticks[i].t / 1e6;
		fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", x,
			y - 4, x, y + 4);
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\">%.*f</text>\n", x,
			row_y(g, 0) + 15, ms < 10 && l->ticks[i].t % 1000000 ? 1 : 0, ms);
	}
	for (size_t i = 0; i < l->nbreaks; i++) {
		int x = col_x(g, l->breaks[i].x + 1) + TIMELINE_SVG_COL / 2;
		fprintf(f,
			"<rect class=\"gap\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"8\"/>"
			"<text class=\"brk\" x=\"%d\" y=\"%d\">≈</text>\n",
			x - TIMELINE_SVG_COL, y - 4, 2 * TIMELINE_SVG_COL, x, y + 5);
		fprintf(f, "<line class=\"brk\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", x,
			row_y(g, 2), x, row_y(g, 2 + l->nrows));
	}
}

static void draw_lanes(FILE *f, const struct tl_layout *l, const struct geom *g, int width_px)
{
	for (size_t k = 0; k < l->nlanes; k++) {
		const struct tl_lane *ln = &l->lanes[k];
		int y = row_y(g, 2 + ln->row0);
		fprintf(f, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
			k % 2 ? "band1" : "band0", MARGIN / 2, y, width_px - MARGIN,
			ln->nrows * TIMELINE_SVG_ROW);
		char *name = timeline_fit(ln->name, l->name_cols - 1);
		fprintf(f, "<text class=\"lane\" x=\"%d\" y=\"%d\">", MARGIN, y + 15);
		xml_text(f, name);
		fputs("</text>\n", f);
		free(name);
	}
}

static void draw_bar(FILE *f, const struct tl_layout *l, const struct geom *g, size_t i)
{
	const struct tl_bar *b = &l->bars[i];
	const char *cls = (b->attr & TL_A_WITNESS) ? "wit"
			  : b->open		   ? "info"
			  : (b->attr & TL_A_FAIL)  ? "fail"
						   : "ok";
	int x = col_x(g, b->x0) + 1, y = row_y(g, 2 + b->row) + 3;
	int w = (b->x1 - b->x0 + 1) * TIMELINE_SVG_COL - 2, h = TIMELINE_SVG_ROW - 6;
	if (b->open) {
		/* open to the right: a left edge, top and bottom, no right edge */
		fprintf(f,
			"<rect class=\"%s-fill\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>"
			"<path class=\"%s%s\" d=\"M%d %d H%d M%d %d V%d M%d %d H%d\"/>\n",
			cls, x, y, w, h, cls, (b->attr & TL_A_WITNESS) ? "" : " dash", x + w, y, x,
			x, y, y + h, x, y + h, x + w);
	} else {
		fprintf(f,
			"<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
			"rx=\"3\"/>\n",
			cls, x, y, w, h);
		if (b->attr & TL_A_FAIL) /* as in the text: a failure's bar ends in ✗ */
			fprintf(f, "<text class=\"cross\" x=\"%d\" y=\"%d\">✗</text>\n",
				x + w - TIMELINE_SVG_COL + 1, y + h - 4);
	}
	int lx, cols;
	timeline_label_place(l, i, &lx, &cols);
	char *s = timeline_fit(b->label, cols);
	if (*s) {
		fprintf(f, "<text class=\"label%s\" x=\"%d\" y=\"%d\">",
			(b->attr & TL_A_WITNESS) ? " wl" : "", col_x(g, lx), y + h - 4);
		xml_text(f, s);
		fputs("</text>\n", f);
	}
	free(s);
}

static void draw_marks(FILE *f, const struct tl_layout *l, const struct geom *g)
{
	for (size_t i = 0; i < l->nmarks; i++) {
		const struct tl_markpos *m = &l->marks[i];
		int lx, cols;
		timeline_mark_place(l, i, &lx, &cols);
		int cx = col_x(g, m->x) + TIMELINE_SVG_COL / 2;
		int cy = row_y(g, 2 + m->row) + TIMELINE_SVG_ROW / 2;
		fprintf(f, "<path class=\"mark\" d=\"M%d %d L%d %d L%d %d L%d %d Z\"/>\n", cx,
			cy - 6, cx + 6, cy, cx, cy + 6, cx - 6, cy);
		char *s = timeline_fit(m->label, cols);
		fprintf(f, "<text class=\"mlabel\" x=\"%d\" y=\"%d\">", col_x(g, lx), cy + 4);
		xml_text(f, s);
		fputs("</text>\n", f);
		free(s);
	}
}

static const char svg_style[] =
	"<style>\n"
	"text{font-family:'DejaVu Sans Mono','Noto Sans Mono CJK SC','WenQuanYi Zen Hei Mono',"
	"monospace;font-size:12px;fill:#1a202c}\n"
	".cross{fill:#c53030;font-weight:bold}\n"
	".title{font-size:14px;font-weight:bold}\n"
	".lane{font-weight:bold}\n"
	".tick{font-size:11px;fill:#4a5568}\n"
	".axis{stroke:#4a5568;stroke-width:1}\n"
	".brk{stroke:#a0aec0;stroke-dasharray:3 3;fill:#4a5568;text-anchor:middle}\n"
	".gap{fill:#ffffff}\n"
	".band0{fill:#f7fafc}.band1{fill:#edf2f7}\n"
	".ok{fill:#dbe8fb;stroke:#2b6cb0;stroke-width:1.2}\n"
	".fail{fill:#edf2f7;stroke:#718096;stroke-width:1.2}\n"
	".info-fill{fill:#fdf3d8}.info{stroke:#b7791f;stroke-width:1.2;fill:none}\n"
	".wit{fill:#fed7d7;stroke:#c53030;stroke-width:2.5}\n"
	".wit-fill{fill:#fed7d7}\n"
	".dash{stroke-dasharray:4 3}\n"
	".wl{fill:#9b2c2c;font-weight:bold}\n"
	".mark{fill:#805ad5}\n"
	".mlabel{fill:#553c9a}\n"
	".note{font-size:11px;fill:#2d3748}\n"
	"</style>\n";

int timeline_svg_write(const struct timeline *t, const char *title, const char *lang, FILE *f)
{
	struct tl_layout *l;
	if (timeline_layout(t, TIMELINE_SVG_WIDTH, lang, &l))
		return WB_EIO; /* TIMELINE_SVG_WIDTH is above TL_MIN_WIDTH */
	struct tl_picture *p = timeline_draw(l);
	size_t first_note = 2 + (size_t)l->nrows;
	int width_px = 2 * MARGIN + l->width * TIMELINE_SVG_COL;
	struct geom g = {MARGIN + l->name_cols * TIMELINE_SVG_COL, MARGIN + TITLE_H};
	int height_px = g.top + (int)p->n * TIMELINE_SVG_ROW + MARGIN;
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\">\n",
		width_px, height_px, width_px, height_px);
	fputs(svg_style, f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
		width_px, height_px);
	fprintf(f, "<text class=\"title\" x=\"%d\" y=\"%d\">", MARGIN, MARGIN + 14);
	char *safe = textsafe_str(title && *title ? title : "timeline"); /* a file name */
	xml_text(f, safe);
	free(safe);
	fputs("</text>\n", f);
	draw_lanes(f, l, &g, width_px);
	draw_scale(f, l, &g);
	for (size_t i = 0; i < l->nbars; i++)
		draw_bar(f, l, &g, i);
	draw_marks(f, l, &g);
	for (size_t r = first_note; r < p->n; r++) {
		char *s = timeline_row_text(p, r);
		if (*s) {
			fprintf(f, "<text class=\"note\" x=\"%d\" y=\"%d\">", MARGIN,
				row_y(&g, (int)r) + 15);
			xml_text(f, s);
			fputs("</text>\n", f);
		}
		free(s);
	}
	fputs("</svg>\n", f);
	timeline_picture_free(p);
	timeline_layout_free(l);
	return ferror(f) ? WB_EIO : 0;
}

int timeline_svg_file(const char *events_path, const char *svg_path, const char *title,
		      const char *lang, char *err, size_t errlen)
{
	struct timeline *t = NULL;
	int rc = tl_events_load(events_path, &t, err, errlen);
	if (rc)
		return rc;
	if (!timeline_nops(t) && !timeline_nmarks(t)) { /* never an empty picture */
		snprintf(err, errlen, "%s: nothing to draw (no op or mark event)", events_path);
		rc = WB_EINVAL;
		goto out;
	}
	FILE *f = fopen(svg_path, "w"); /* the caller checked it (base/outfile.h) */
	if (!f) {
		snprintf(err, errlen, "%s: cannot write: %s", svg_path, wb_strerror(WB_EIO));
		rc = WB_EIO;
		goto out;
	}
	rc = timeline_svg_write(t, title, lang, f);
	if (fclose(f) != 0)
		rc = WB_EIO;
	if (rc)
		snprintf(err, errlen, "%s: cannot write: %s", svg_path, wb_strerror(rc));
out:
	timeline_free(t);
	return rc;
}
