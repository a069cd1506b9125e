/*
 * sqlfile.h - a file of named SQL statements, as a learner writes them for
 * the SQL exercises (docs/exercises.md §3):
 *
 *     -- expect-fail: ...        (comments and blank lines may come first)
 *     -- name: claim
 *     UPDATE task SET ... WHERE task_id = :task_id ...;
 *     -- name: complete
 *     ...
 *
 * A line "-- name: <ident>" starts a statement; its SQL is the text up to
 * the next name line.  Parsing reports, with file:line, SQL before the
 * first name line, a bad or duplicate name and an empty statement.  The
 * check then prepares a statement by name (one statement per name: a
 * second one under the same name is refused) and binds its named
 * parameters from a small table, refusing a parameter the table does not
 * offer and a required one the statement does not use.
 *
 * It deliberately does not split statements itself (SQLite's prepare
 * does, and knows strings, quoted names and comments), run anything, or
 * open databases.  Messages quote learner text: whoever prints them runs
 * them through the content sanitiser (core/textsafe) first.
 */
#ifndef WB_SQLFILE_H
#define WB_SQLFILE_H

#include <sqlite3.h>
#include <stddef.h>

#define SQLFILE_NAME_MAX  64	     /* a name is 1..63 of [A-Za-z0-9_], not a digit first */
#define SQLFILE_TEXT_MAX  (1u << 20) /* a larger file is refused */
#define SQLFILE_ERROR_MAX 512	     /* enough for any message here */

/* One named statement. */
struct sqlfile_stmt {
	char name[SQLFILE_NAME_MAX];
	char *sql; /* the text after the name line, up to the next one */
	int line;  /* line of the "-- name:" line (1-based) */
};

/* A parsed file: statements in file order. */
struct sqlfile {
	char *path; /* the name used in messages */
	struct sqlfile_stmt *st;
	size_t n;
};

/* Parses text (len bytes, need not be NUL-terminated) named path in
 * messages.  Returns 0 with *out (free with sqlfile_free), or WB_EINVAL
 * with "path:LINE: message" in err (errlen bytes, may be 0).  A file
 * without any statement is WB_EINVAL too. */
int sqlfile_parse(const char *path, const char *text, size_t len, struct sqlfile **out, char *err,
		  size_t errlen);

/* Reads and parses the file at path.  Returns as sqlfile_parse, or
 * WB_ENOENT / WB_EIO ("path: cannot read") when it cannot be read. */
int sqlfile_load(const char *path, struct sqlfile **out, char *err, size_t errlen);

/* Frees f; accepts NULL. */
void sqlfile_free(struct sqlfile *f);

/* The statement called name, or NULL (borrowed from f). */
const struct sqlfile_stmt *sqlfile_find(const struct sqlfile *f, const char *name);

/* Prepares the statement name of f on db.  Returns 0 with *st (the caller
 * finalizes); WB_ENOENT with "path: no statement named 'name' (has: ...)"
 * in err; WB_EINVAL with "path:LINE: name: <SQLite's message>" when
 * SQLite refuses it, or when the text holds a second statement. */
int sqlfile_prepare(sqlite3 *db, const struct sqlfile *f, const char *name, sqlite3_stmt **st,
		    char *err, size_t errlen);

enum sqlfile_type { SQLFILE_INT, SQLFILE_TEXT, SQLFILE_NULL };

/* One parameter a check offers: name with its ':' (":task_id"). */
struct sqlfile_param {
	const char *name;
	enum sqlfile_type type;
	long long i;	  /* SQLFILE_INT */
	const char *text; /* SQLFILE_TEXT (copied by SQLite) */
	int required;	  /* 1: a statement that does not use it is refused */
};

/* Binds every parameter of st from params (n rows).  Returns 0, or
 * WB_EINVAL with a message in err naming the statement (what): an
 * unnamed parameter ("?"), one the table does not offer (the message
 * lists what it offers), or a required one the statement does not use. */
int sqlfile_bind(sqlite3_stmt *st, const char *what, const struct sqlfile_param *params, size_t n,
		 char *err, size_t errlen);

#endif
