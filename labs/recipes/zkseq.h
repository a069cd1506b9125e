/*
 * zkseq.h - ZooKeeper sequential node names: the server's 10-digit suffix,
 * Apache Curator's protected-mode names, and ordering by suffix.
 *
 * The server appends String.format("%010d", parent.cversion) to the name a
 * client asks for.  cversion is a signed 32-bit int: past 2147483647 it
 * wraps and the "suffix" becomes "-2147483648" (11 characters) or, for
 * small negatives, "-000000001" (10 characters, a minus sign in it).  A
 * lock recipe that took the last ten characters as a number would order a
 * wrapped node first and hand it the lock; the parsers here refuse every
 * suffix that is not exactly ten decimal digits with a value <= INT32_MAX.
 *
 * Curator's protected mode (InterProcessMutex) names a candidate
 * "_c_" + 36-character UUID + "-" + "lock-" + suffix; a recipe using the
 * same form excludes Curator's lock on the same path and vice versa.
 * Ordering must use the suffix, never the whole name: the UUID comes first
 * and sorts the names randomly.
 *
 * Pure functions, no ZooKeeper calls.
 */
#ifndef WB_ZKSEQ_H
#define WB_ZKSEQ_H

#include <stddef.h>
#include <stdint.h>

#define ZKSEQ_DIGITS	       10
#define ZKSEQ_UUID_LEN	       36
#define ZKSEQ_PROTECTED_PREFIX "_c_"
#define ZKSEQ_LOCK_NAME	       "lock-"
/* "_c_" + UUID + "-lock-": the name a protected lock create asks for. */
#define ZKSEQ_PROTECTED_LEN (3 + ZKSEQ_UUID_LEN + 1 + 5)
/* ...and the full node name with its suffix. */
#define ZKSEQ_NODE_LEN (ZKSEQ_PROTECTED_LEN + ZKSEQ_DIGITS)

/* Formats a counter exactly as the server does (%010d of a signed 32-bit
 * int): 7 -> "0000000007", -1 -> "-000000001", INT32_MIN -> "-2147483648".
 * buf needs 12 bytes; returns buf. */
char *zkseq_format(int32_t counter, char buf[12]);

/* Parses the suffix of name after prefix (the name that was passed to
 * create, without the parent path): it must start with prefix and continue
 * with exactly ten decimal digits, value <= 2147483647, and nothing else.
 * Returns 0 with *seq, WB_EINVAL (wrong prefix, sign, length, non-digit)
 * or WB_ERANGE (ten digits above INT32_MAX). */
int zkseq_parse(const char *name, const char *prefix, int32_t *seq);

/* Parses a Curator protected-mode lock name: "_c_" + UUID (8-4-4-4-12
 * lowercase or uppercase hex) + "-lock-" + ten digits.  Returns 0 with
 * *seq and guid (37 bytes, may be NULL) filled, or WB_EINVAL / WB_ERANGE
 * as zkseq_parse. */
int zkseq_parse_protected(const char *name, char guid[ZKSEQ_UUID_LEN + 1], int32_t *seq);

/* Writes "_c_<uuid>-lock-" (the name to create with ZOO_SEQUENCE) into
 * buf (ZKSEQ_PROTECTED_LEN + 1 bytes).  uuid must be 36 characters in the
 * 8-4-4-4-12 hex form.  Returns 0 or WB_EINVAL. */
int zkseq_protected_name(const char *uuid, char buf[ZKSEQ_PROTECTED_LEN + 1]);

/* Whether s is a 36-character 8-4-4-4-12 hex UUID. */
int zkseq_is_uuid(const char *s);

/* Comparator for qsort over an array of const char * protected names:
 * orders by suffix; names that do not parse sort last, by name. */
int zkseq_cmp_protected(const void *a, const void *b);

#endif
