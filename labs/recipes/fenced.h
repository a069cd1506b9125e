/*
 * fenced.h - a fenced resource in SQLite: the place where a protected
 * effect commits, and the only place that can refuse a late write from a
 * lock holder that has already been replaced (chapter 02, "Fencing: the
 * resource rejects old writes once it has accepted a new token").
 *
 * One table holds, per lock domain, the high-water mark (the largest
 * token accepted so far) and the data it guards.  A write carries the
 * writer's token and, inside one BEGIN IMMEDIATE transaction, one
 * conditional statement compares and writes:
 *
 *     token <  mark   rejected: data and mark unchanged
 *     token == mark   accepted: the current holder goes on writing
 *     token >  mark   accepted: the mark advances to the token
 *
 * Because the mark and the data live in the same row of the same file and
 * change in the same transaction, a crash can never leave new data with an
 * old mark (or the reverse), and the mark survives close and reopen.
 *
 * The unfenced variant (FENCED_OFF) is the control the lab shows failing:
 * same table, same transaction, but the write never looks at the mark, so
 * a late writer silently overwrites the new holder's data.
 *
 * What it deliberately does not do: issue tokens (the lock does: here the
 * ZooKeeper sequence suffix), compare tokens of different domains (each
 * domain has its own mark; see "Sequence numbers compare only inside a
 * declared lock domain"), authenticate writers (a caller that invents a
 * huge token locks everyone out), or deduplicate retries of one write.
 */
#ifndef WB_FENCED_H
#define WB_FENCED_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

enum fenced_mode {
	FENCED_ON = 0, /* compare the token with the mark (the recipe) */
	FENCED_OFF,    /* accept every write (the control) */
};

struct fenced_opts {
	enum fenced_mode mode; /* FENCED_ON unless set */
	int busy_timeout_ms;   /* how long a write waits for another writer; 0: 5000,
				  negative: do not wait at all */
};

/* What one write did. */
struct fenced_result {
	int accepted;	     /* 1: the value was written */
	int64_t mark_before; /* the mark the comparison saw; -1: no write yet */
	int64_t mark_after;  /* the mark after the transaction */
};

struct fenced;

/* Test hook: called inside the write transaction after the mark has been
 * read and before the conditional write, with the write lock held.  Tests
 * use it to show that nobody else can write in between. */
typedef void (*fenced_hook_fn)(void *arg, struct fenced *f, const char *domain, int64_t token);

/*
 * Opens (creating) the resource database at path: WAL, synchronous=FULL
 * (an accepted write is on disk when fenced_write returns), busy timeout.
 * opts may be NULL (fenced, 5 s).  Returns 0, or WB_ENOENT (cannot open
 * the file) / WB_EIO / WB_EBUSY / WB_ECORRUPT with a message in err (may be NULL); *out is freed
 * with fenced_free.  One object per thread: it holds one connection.
 */
int fenced_open(const char *path, const struct fenced_opts *opts, struct fenced **out, char *err,
		size_t errlen);

/* Closes the database and frees f.  Accepts NULL. */
void fenced_free(struct fenced *f);

/*
 * Writes value (NUL-terminated, stored as data, any bytes) for domain with
 * token, as described at the top.  Rejection is a normal outcome, not an
 * error: it returns 0 with res->accepted = 0.  res may be NULL.
 * Returns 0; WB_EINVAL (token < 0, NULL or empty domain, NULL value);
 * WB_EBUSY (another writer held the lock past the busy timeout: nothing
 * was written); WB_EIO (the database failed: nothing was written).
 */
int fenced_write(struct fenced *f, const char *domain, int64_t token, const char *value,
		 struct fenced_result *res);

/*
 * Reads the mark and the value of domain.  *value (may be NULL) receives a
 * copy the caller frees.  Returns 0, WB_ENOENT (nothing written to that
 * domain yet), WB_EBUSY or WB_EIO.
 */
int fenced_read(struct fenced *f, const char *domain, int64_t *mark, char **value);

/* Sets (or clears, fn NULL) the test hook described above. */
void fenced_set_hook(struct fenced *f, fenced_hook_fn fn, void *arg);

/* Lab hook, called at the start of every fenced_write, outside any
 * transaction (after a replacement write's FENCED_WRITE_BEFORE phase):
 * the moment another writer may act before this write reaches the
 * database.  Labs use it to force an interleaving.  fn NULL clears it. */
void fenced_set_before_hook(struct fenced *f, fenced_hook_fn fn, void *arg);

/* What a replacement write is asked to do (fenced_set_write). */
enum fenced_write_phase {
	FENCED_WRITE_BEFORE, /* outside any transaction: may read; *out = 0
				rejects the write here, 1 goes on */
	FENCED_WRITE_IN,     /* inside BEGIN IMMEDIATE: write; *out = rows changed */
};

/*
 * Replaces the compare-and-write statement (the exercise "fenced-write"
 * puts a learner's statements here; the transaction, the marks reported
 * in fenced_result and the hooks stay this recipe's).  fn gets the
 * connection and returns 0, or a WB_E* code with a message in err.
 * Only for FENCED_ON objects; fn NULL restores the recipe's statement.
 */
typedef int (*fenced_write_fn)(void *arg, sqlite3 *db, enum fenced_write_phase phase,
			       const char *domain, int64_t token, const char *value, int *out,
			       char *err, size_t errlen);
void fenced_set_write(struct fenced *f, fenced_write_fn fn, void *arg);

/* The mode it was opened with. */
enum fenced_mode fenced_get_mode(const struct fenced *f);

/* The last error message ("" if none); owned by f. */
const char *fenced_errmsg(const struct fenced *f);

#endif
