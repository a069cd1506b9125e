/*
 * api.h - the interface of the exercise zk-cas-update: a counter kept as
 * decimal text in one znode, updated by read-modify-write.
 *
 * You write one function, counter_add.  The workbench gives you a
 * connected ZooKeeper handle and the counter's path; it runs your function
 * from two clients at once and forces them to interleave: the first one's
 * read is answered before the second one writes, and arrives after.
 *
 * This header is all you may rely on.  It does not connect, retry or log
 * for you.
 */
#ifndef ZK_CAS_UPDATE_API_H
#define ZK_CAS_UPDATE_API_H

#ifndef THREADED
#define THREADED /* the synchronous zoo_* calls of libzookeeper_mt */
#endif
#include <zookeeper/zookeeper.h>

/* What the workbench passes in.  Everything is borrowed; do not close the
 * handle or free anything. */
struct cas_counter {
	zhandle_t *zh;	  /* connected; use the synchronous calls (zoo_get, zoo_set2) */
	const char *path; /* the counter node; it exists and holds e.g. "41" (no newline) */
};

/* Adds delta to the counter at c->path and stores the result in
 * *new_value.  Read the node and its version (zoo_get fills a struct
 * Stat), compute the new text, and write it with zoo_set or zoo_set2
 * passing the version you read.  When the server answers ZBADVERSION,
 * somebody wrote in between: read again and try again (a bounded number
 * of times: 100 is plenty).
 *
 * Returns ZOK (0) when the update is stored, else the ZooKeeper error that
 * stopped it (a negative ZOO code such as ZBADVERSION after the retries
 * ran out, or ZCONNECTIONLOSS).  Never write with version -1: it means
 * "no check" and overwrites a concurrent update unseen. */
int counter_add(const struct cas_counter *c, long delta, long *new_value);

#endif
