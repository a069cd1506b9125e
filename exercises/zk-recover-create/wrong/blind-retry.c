// expect-fail: no-second-create
/* recover.c - wrong: after ZCONNECTIONLOSS it creates again "to be
 * sure".  The lost create had happened, so the session now has two
 * candidates: the older one is an orphan that blocks every waiter. */
#include "api.h"

int create_candidate(const struct create_ctx *c, char *path, int path_len)
{
	int zrc = zoo_create(c->zh, c->prefix, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
			     ZOO_EPHEMERAL_SEQUENTIAL, path, path_len);
	if (zrc != ZCONNECTIONLOSS)
		return zrc;
	zrc = c->wait_connected(c, 10000);
	if (zrc != ZOK)
		return zrc;
	return zoo_create(c->zh, c->prefix, NULL, -1, &ZOO_OPEN_ACL_UNSAFE,
			  ZOO_EPHEMERAL_SEQUENTIAL, path, path_len);
}
