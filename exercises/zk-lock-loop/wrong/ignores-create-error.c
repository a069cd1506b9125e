// expect-fail: errors-returned
/* lockloop.c - wrong: it does not look at the create's answer and goes on
 * listing.  When the server refused the create (ZNOAUTH), it has no node,
 * finds none in the listing and reports ZNONODE instead of the refusal. */
#include "api.h"

#include <stdio.h>
#include <string.h>

/* In the listing, the sequence of the own node and the name of the node
 * just before it (pred empty when the own node is first).  ZOK, or
 * ZNONODE when the own node is not in the listing. */
static int position(const struct lock_ctx *lk, const struct String_vector *kids,
		    const char *own_name, char *pred, size_t pred_len)
{
	long mine = lk->seq(own_name), best = -1;
	int found = 0;
	pred[0] = '\0';
	for (int i = 0; i < kids->count; i++) {
		long s = lk->seq(kids->data[i]);
		if (s < 0)
			continue; /* not a contender */
		if (!strcmp(kids->data[i], own_name))
			found = 1;
		else if (s < mine && s > best) {
			best = s;
			snprintf(pred, pred_len, "%s", kids->data[i]);
		}
	}
	return found ? ZOK : ZNONODE;
}

int lock_acquire(const struct lock_ctx *lk, char *own, int own_len)
{
	char prefix[512];
	snprintf(prefix, sizeof prefix, "%s/lock-", lk->dir);
	int zrc = zoo_create(lk->zh, prefix, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
			     ZOO_EPHEMERAL_SEQUENTIAL, own, own_len);
	const char *own_name = strrchr(own, '/') + 1;
	for (;;) {
		struct String_vector kids = {0};
		if ((zrc = lk->list(lk, &kids)) != ZOK)
			return zrc;
		char pred[256];
		zrc = position(lk, &kids, own_name, pred, sizeof pred);
		deallocate_String_vector(&kids);
		if (zrc != ZOK)
			return zrc; /* our candidate is gone */
		if (!pred[0])
			return ZOK; /* a fresh list shows us first: held */
		char path[512];
		snprintf(path, sizeof path, "%s/%s", lk->dir, pred);
		char buf[1];
		int len = sizeof buf;
		struct Stat st;
		zrc = zoo_wget(lk->zh, path, lk->watcher, lk->watch_ctx, buf, &len, &st);
		if (zrc == ZNONODE)
			continue; /* gone already, no watch left: look again now */
		if (zrc != ZOK)
			return zrc;
		if (lk->wait(lk, 60000) < 0)
			return ZSYSTEMERROR;
		/* Whatever the notification was: look again. */
	}
}
