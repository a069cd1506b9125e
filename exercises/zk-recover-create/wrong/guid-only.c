// expect-fail: guid-and-session
/* recover.c - wrong: after the loss it counts the children carrying our
 * GUID, without asking whose session owns them.  Another session's node
 * with the same GUID is counted as ours: it refuses (ZAPIERROR) where its
 * own node was the only candidate. */
#include "api.h"

#include <stdio.h>
#include <string.h>

/* The child of c->dir that our lost create made, by GUID and owner. */
static int find_own(const struct create_ctx *c, char *path, int path_len)
{
	struct String_vector kids = {0};
	int zrc = zoo_get_children(c->zh, c->dir, 0, &kids);
	if (zrc != ZOK)
		return zrc;
	int found = 0;
	for (int i = 0; i < kids.count; i++) {
		if (!strstr(kids.data[i], c->guid))
			continue; /* not this attempt's name */
		char full[512];
		snprintf(full, sizeof full, "%s/%s", c->dir, kids.data[i]);
		struct Stat st;
		if (zoo_exists(c->zh, full, 0, &st) != ZOK)
			continue;
		if (found++ == 0)
			snprintf(path, path_len, "%s", full);
	}
	deallocate_String_vector(&kids);
	if (found == 0)
		return ZNONODE;
	return found == 1 ? ZOK : ZAPIERROR;
}

int create_candidate(const struct create_ctx *c, char *path, int path_len)
{
	int zrc = zoo_create(c->zh, c->prefix, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
			     ZOO_EPHEMERAL_SEQUENTIAL, path, path_len);
	if (zrc != ZCONNECTIONLOSS)
		return zrc;
	/* The create may or may not have happened.  Never create again. */
	zrc = c->wait_connected(c, 10000);
	if (zrc != ZOK)
		return zrc;
	/* The server we came back to may not have applied our create yet. */
	zrc = c->sync_dir(c);
	if (zrc != ZOK)
		return zrc;
	return find_own(c, path, path_len);
}
