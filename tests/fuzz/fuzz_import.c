/*
 * fuzz_import.c - libFuzzer target for `progress import`'s readers
 * (core/exchange.c): CSV through libcsv and JSON through jansson, into a
 * real progress database in a temp folder (":memory:" would skip the
 * store's file handling).  Aborts when an import reports success with an
 * error message, or adds and skips more rows than the input could hold.
 * Inputs that import are kept in the database; later ones then meet
 * their uids as duplicates, which is a path worth covering too.
 */
#include "core/exchange.h"
#include "core/store.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/wb-fuzz-import.XXXXXX";

/* The database and its folder go when the fuzzer exits normally. */
static void remove_dir(void)
{
	static const char *const names[] = {"progress.db", "progress.db-wal", "progress.db-shm"};
	char path[96];
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		remove(path);
	}
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct store *st;
	if (!st) {
		char err[256], path[64];
		if (!mkdtemp(dir))
			abort();
		atexit(remove_dir);
		snprintf(path, sizeof path, "%s/progress.db", dir);
		if (store_open(path, &st, err, sizeof err) != 0)
			abort();
	}
	if (size > (1u << 16))
		return 0;
	size_t added = 0, skipped = 0;
	char err[512] = "";
	int rc = answers_import(st, (const char *)data, size, &added, &skipped, err, sizeof err);
	if (rc == 0 && added + skipped > size)
		abort();
	if (rc != 0 && !err[0])
		abort();
	return 0;
}
