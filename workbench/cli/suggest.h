/*
 * cli/suggest.h - "did you mean": the closest of a list of words to a
 * mistyped one (a command, a subcommand, an option, a chapter or lab id).
 *
 * The distance is the optimal string alignment distance (Levenshtein with
 * adjacent transpositions: "lsit" is one edit from "list"), in bytes.  It
 * prints nothing and knows no commands; callers word the message.
 */
#ifndef WB_CLI_SUGGEST_H
#define WB_CLI_SUGGEST_H

#include <stddef.h>

/* Edits (insert, delete, substitute, swap two neighbours) from a to b.
 * Words longer than SUGGEST_MAX_LEN bytes count as far from everything
 * (returns SUGGEST_FAR).  Cannot fail. */
#define SUGGEST_MAX_LEN 64
#define SUGGEST_FAR	1000
int suggest_distance(const char *a, const char *b);

/* The candidate closest to word that is close enough to be a typo: at most
 * 1 edit for words of up to 4 bytes, 2 up to 8, else 3, and fewer edits
 * than the candidate's length.  A candidate equal to word is not
 * suggested.  The first wins a tie.  Returns one of cands (borrowed), or
 * NULL when none is close.  cands may hold NULLs (skipped). */
const char *suggest_closest(const char *word, const char *const *cands, size_t n);

#endif
