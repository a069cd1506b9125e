/*
 * timeline.h - a lab run's operation history as a picture: one lane per
 * client and server (in order of first appearance), time across, each
 * operation a bar from its invocation to its completion labelled
 * "f value->result", operations whose outcome is unknown (info) as a bar
 * open to the right, marks (a dropped reply, a session expiry) as a glyph
 * with a label on their lane, and the checker's witness highlighted.
 *
 * The picture fits a given width: idle time (a gap in which no operation
 * runs and nothing is marked) becomes a short break, time inside busy
 * stretches is spread by the square root of each gap between two events
 * (so a 1 ms read next to a 200 ms write stays readable), and the scale
 * row says the real milliseconds at its ticks.
 *
 * The layout is computed once (struct tl_layout: lanes, bars, marks,
 * ticks, breaks in columns and rows) and drawn two ways from it: as rows of
 * cells here (text and an attribute each, for the TUI and `workbench
 * timeline`) and as SVG (core/timeline_svg.h).  Pure model: no I/O, no
 * curses, no JSON (core/timeline_events.h reads event lines).  It does not
 * check histories; it draws the witness a checker gave.
 */
#ifndef WB_TIMELINE_H
#define WB_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

/* How an operation ended. */
enum tl_outcome {
	TL_OK,	    /* completed and took effect */
	TL_FAIL,    /* completed and certainly did not take effect */
	TL_INFO,    /* outcome unknown (a lost reply): open-ended */
	TL_PENDING, /* never completed in the history: drawn as info */
};

/* One operation as the caller gives it (strings are copied). */
struct tl_op {
	int index;	     /* the history's id for it (witness refers to it) */
	const char *process; /* lane name */
	const char *f;	     /* "read", "write", "acquire" */
	const char *value;   /* argument, or NULL/"" */
	const char *result;  /* what an ok completion returned, or NULL/"" */
	enum tl_outcome outcome;
	int64_t t_invoke;   /* ns since the run started */
	int64_t t_complete; /* ns; ignored for TL_INFO and TL_PENDING */
};

/* Cell attributes (bit flags). */
enum {
	TL_A_BAR = 1 << 0,     /* part of an operation's bar */
	TL_A_LABEL = 1 << 1,   /* an operation's or mark's label text */
	TL_A_WITNESS = 1 << 2, /* belongs to an operation of the witness */
	TL_A_INFO = 1 << 3,    /* an operation with unknown outcome */
	TL_A_FAIL = 1 << 4,    /* a failed operation */
	TL_A_MARK = 1 << 5,    /* a mark's glyph or label */
	TL_A_SCALE = 1 << 6,   /* the time scale */
	TL_A_BREAK = 1 << 7,   /* a break: idle time left out */
	TL_A_LANE = 1 << 8,    /* a lane's name */
	TL_A_NOTE = 1 << 9,    /* the legend and the checker's verdict */
};

/* One column of a row: the UTF-8 text drawn there (one character, "" for
 * the right half of a double-width character) and its attributes. */
struct tl_cell {
	char text[8];
	unsigned attr;
};

/* One row of exactly `width` cells. */
struct tl_row {
	struct tl_cell *cells;
};

/* The rows of a drawn timeline: rows[0..nhead) are the scale (a screen
 * keeps them in view), rows[nhead..n) the lanes and the legend. */
struct tl_picture {
	int width;
	size_t n;
	size_t nhead;
	struct tl_row *rows;
};

/* The geometry both drawings share (columns of the lane area, rows from
 * 0 below the scale).  Read-only for callers. */
struct tl_bar {
	int op;		 /* index into the timeline's ops (not the history id) */
	int row, x0, x1; /* x1 >= x0; for open bars the right edge */
	int open;	 /* info or pending */
	unsigned attr;	 /* TL_A_* of the bar */
	char *label;	 /* "f value->result", sanitised, untruncated */
	int next_x0;	 /* x0 of the next bar in its row, area + 1 when none */
};
struct tl_markpos {
	int row, x;
	char *label; /* sanitised */
	int next_x;  /* x of the next mark in its row, area + 1 when none */
	int first;   /* the leftmost mark of its row */
};
struct tl_tick {
	int x;
	int64_t t; /* ns */
};
struct tl_break {
	int x;		  /* the break's first column (it is TL_BREAK_COLS wide) */
	int64_t from, to; /* the idle time left out, ns */
};
struct tl_lane {
	char *name; /* sanitised */
	int row0;   /* first row */
	int nrows;  /* rows it takes (>= 1) */
};

#define TL_BREAK_COLS 3

struct tl_layout {
	int width;	  /* the whole picture's width, as asked */
	const char *unit; /* the scale's unit in the layout's language (static) */
	int name_cols;	  /* lane-name column before the lane area (with its gap) */
	int area;	  /* columns of the lane area: width - name_cols */
	int nrows;	  /* lane rows */
	struct tl_lane *lanes;
	size_t nlanes;
	struct tl_bar *bars;
	size_t nbars;
	struct tl_markpos *marks;
	size_t nmarks;
	struct tl_tick *ticks;
	size_t nticks;
	struct tl_break *breaks;
	size_t nbreaks;
	char **notes; /* legend and checker lines, sanitised */
	size_t nnotes;
};

struct timeline;

/* The narrowest width timeline_layout accepts. */
#define TL_MIN_WIDTH 24

/* A new, empty timeline; timeline_free frees it.  Aborts on allocation
 * failure (wb_x*). */
struct timeline *timeline_new(void);

/* Frees t and everything it copied; accepts NULL. */
void timeline_free(struct timeline *t);

/* Adds an operation (strings copied).  A lane is made for a process the
 * first time it appears.  Returns 0, or WB_EINVAL when process or f is
 * NULL or empty, a time is negative, or an ok/fail completion precedes
 * its invocation. */
int timeline_add_op(struct timeline *t, const struct tl_op *op);

/* Adds a mark at time ns on lane (made when new).  Returns 0 or
 * WB_EINVAL (empty lane, negative time). */
int timeline_add_mark(struct timeline *t, const char *lane, int64_t ns, const char *text);

/* Records a checker's verdict (a legend line "name: result - text") and
 * adds the history ids in witness[0..n) to the highlighted set.  Ids that
 * match no operation are ignored.  Cannot fail. */
void timeline_add_checker(struct timeline *t, const char *name, const char *result,
			  const char *text, const int *witness, size_t n);

/* Number of operations and marks added so far. */
size_t timeline_nops(const struct timeline *t);
size_t timeline_nmarks(const struct timeline *t);

/* Lays t out at width columns, the legend in lang ("en", "zh").
 * Returns 0 with *out (free with timeline_layout_free), or WB_ERANGE when
 * width < TL_MIN_WIDTH. */
int timeline_layout(const struct timeline *t, int width, const char *lang, struct tl_layout **out);

/* Where bar b's label goes: from column *x of the lane area, at most
 * *cols columns (inside the bar, or right after it when there is more
 * room there before the next bar of its row).  Cannot fail. */
void timeline_label_place(const struct tl_layout *l, size_t b, int *x, int *cols);

/* Where mark i's label goes: from column *x, at most *cols columns (right
 * of its glyph, or left of it when it is the first mark of its row and
 * there is more room there).  Cannot fail. */
void timeline_mark_place(const struct tl_layout *l, size_t i, int *x, int *cols);

/* s cut to at most cols display columns, ending in "…" when cut.  Caller
 * frees. */
char *timeline_fit(const char *s, int cols);

/* Frees a layout; accepts NULL. */
void timeline_layout_free(struct tl_layout *l);

/* Draws a layout as rows of cells.  Returns the picture (free with
 * timeline_picture_free); aborts on allocation failure. */
struct tl_picture *timeline_draw(const struct tl_layout *l);

/* timeline_layout then timeline_draw.  Returns 0 with *out, or WB_ERANGE. */
int timeline_render(const struct timeline *t, int width, const char *lang, struct tl_picture **out);

/* Frees a picture; accepts NULL. */
void timeline_picture_free(struct tl_picture *p);

/* Row r of p as one NUL-terminated UTF-8 string with trailing blanks
 * removed.  Caller frees. */
char *timeline_row_text(const struct tl_picture *p, size_t r);

/* The label of op k as drawn ("f value->result", "f value->?" for
 * unknown outcomes, "f value" for failures, whose bar ends in ✗).
 * Caller frees. */
char *timeline_op_label(const struct timeline *t, size_t k);

/* Op k's data (strings owned by t), or NULL when k is out of range. */
const struct tl_op *timeline_op(const struct timeline *t, size_t k);

/* True when op k is in the witness. */
int timeline_is_witness(const struct timeline *t, size_t k);

/* Total span of the history in ns (the latest time of any event). */
int64_t timeline_span(const struct timeline *t);

#endif
