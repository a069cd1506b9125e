// expect-fail: syncs-before-listing
/* recover.c - wrong: after reconnecting it lists the folder at once.  The
 * server it came back to may be a follower that has not applied the
 * create yet; without a sync first the listing can miss the node. */
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
		if (st.ephemeralOwner != c->session)
			continue; /* the GUID alone is not proof: another session's node */
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
	return find_own(c, path, path_len);
}
