/*
 * cli/suggest.c - the edit distance behind "did you mean" (suggest.h).
 * Small inputs only (command words, ids): a full table on the stack.  No
 * output, no knowledge of what the words are.
 */
#include "cli/suggest.h"

#include <string.h>

static int min3(int a, int b, int c)
{
	int m = a < b ? a : b;
	return m < c ? m : c;
}

int suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return SUGGEST_FAR;
	int d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[la][lb];
}

/* How many edits still read as a typo of a word of len bytes. */
static int allowed(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

const char *suggest_closest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	int best_d = SUGGEST_FAR;
	int limit = allowed(strlen(word));
	for (size_t i = 0; i < n; i++) {
		if (!cands[i] || !strcmp(cands[i], word))
			continue;
		int d = suggest_distance(word, cands[i]);
		if (d <= limit && d < (int)strlen(cands[i]) && d < best_d) {
			best = cands[i];
			best_d = d;
		}
	}
	return best;
}
