// expect-fail: guid-and-session ignores-earlier-attempt several-refused
/* recover.c - wrong: after the loss it takes the lowest child whose name
 * looks like a protected lock node ("_c_...-lock-"), ignoring both the
 * GUID and the owner: it takes another session's candidate for its own. */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int create_candidate(const struct create_ctx *c, char *path, int path_len)
{
	int zrc = zoo_create(c->zh, c->prefix, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
			     ZOO_EPHEMERAL_SEQUENTIAL, path, path_len);
	if (zrc != ZCONNECTIONLOSS)
		return zrc;
	zrc = c->wait_connected(c, 10000);
	if (zrc != ZOK)
		return zrc;
	if ((zrc = c->sync_dir(c)) != ZOK)
		return zrc;
	struct String_vector kids = {0};
	if ((zrc = zoo_get_children(c->zh, c->dir, 0, &kids)) != ZOK)
		return zrc;
	long best = -1;
	for (int i = 0; i < kids.count; i++) {
		size_t n = strlen(kids.data[i]);
		if (strncmp(kids.data[i], "_c_", 3) != 0 || !strstr(kids.data[i], "-lock-") ||
		    n < 10)
			continue;
		long seq = strtol(kids.data[i] + n - 10, NULL, 10);
		if (best < 0 || seq < best) {
			best = seq;
			snprintf(path, path_len, "%s/%s", c->dir, kids.data[i]);
		}
	}
	deallocate_String_vector(&kids);
	return best < 0 ? ZNONODE : ZOK;
}
