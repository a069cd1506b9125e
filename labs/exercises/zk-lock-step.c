/*
 * zk-lock-step.c - the check of exercise zk-lock-step: the learner's
 * wbx_lock_step (exercises/zk-lock-step/api.h) decides, for every
 * contender of a real lock path, whether it holds or which node it
 * watches, and must agree with the recipe's rule (labs/recipes/zklock.c:
 * order by the sequence suffix, watch the node just in front).
 *
 * The lock path is built on a real ZooKeeper (the zk-lock-chain lab's
 * server, or --zk) with protected-mode names whose GUIDs are chosen to
 * sort in the reverse of creation order, so ordering by the whole name
 * gives the wrong holder every time, not by chance; a child that is no
 * lock node sits among them.  The listing the learner gets is the
 * server's own getChildren reply.  No fault here: the step is pure.
 */
#include "base/wb.h"
#include "exercise.h"
#include "harness/report.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zklab.h"
#include "lab.h"
#include "recipes/zklock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONTENDERS 5

typedef int (*step_fn)(const char *own, const char *const *children, size_t n, char *watch,
		       size_t len);

/* The recipe's answer for own: 0 holder, 1 wait on *watch, -1 error. */
static int reference(char *const *names, size_t n, const char *own, const char **watch)
{
	struct zklock_entry *e = NULL;
	size_t ne = 0;
	const char *bad;
	if (zklock_sort(names, n, &e, &ne, &bad) != 0)
		return -1;
	long i = zklock_index(e, ne, own);
	int rc = i < 0 ? -1 : i == 0 ? 0 : 1;
	if (rc == 1)
		*watch = e[i - 1].name;
	free(e);
	return rc;
}

/* Creates the config child and CONTENDERS protected lock nodes with
 * GUIDs f..., e..., d..., in that order.  Returns 0 or a WB_E* code. */
static int build_lock(struct report *r, struct zkc *c, const char *lock)
{
	zhandle_t *zh = zkc_handle(c);
	int zrc = zoo_create(zh, lock, "", 0, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	if (zrc == ZOK) {
		char *cfg = wb_xasprintf("%s/config", lock);
		zrc = zoo_create(zh, cfg, "", 0, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
		free(cfg);
	}
	for (int i = 0; zrc == ZOK && i < CONTENDERS; i++) {
		char guid[ZKLOCK_GUID_LEN + 1];
		snprintf(guid, sizeof guid, "%c0000000-0000-4000-8000-00000000000%d", 'f' - i, i);
		char *prefix = zklock_name_prefix(lock, guid);
		zrc = zoo_create(zh, prefix, "", 0, &ZOO_OPEN_ACL_UNSAFE,
				 ZOO_EPHEMERAL | ZOO_SEQUENCE, NULL, 0);
		free(prefix);
	}
	if (zrc != ZOK) {
		report_cannot(r, "cannot build the lock path %s: %s", lock, zkc_err_name(zrc));
		return zkc_to_wb(zrc);
	}
	report_step(r,
		    "built %s: a child named config and %d protected lock nodes whose GUIDs "
		    "sort in the reverse of their sequence order",
		    lock, CONTENDERS);
	return 0;
}

/* Asks the learner's step for every lock node and checks the answers. */
static void judge(struct report *r, step_fn step, struct String_vector *kids)
{
	struct wb_buf holds = {0}, watches = {0}, skips = {0};
	const char *const *names = (const char *const *)kids->data;
	for (int i = 0; i < kids->count; i++) {
		const char *own = kids->data[i], *want = NULL;
		int ref = reference(kids->data, (size_t)kids->count, own, &want);
		if (ref < 0)
			continue; /* config: not a contender */
		char got[256] = "";
		int rc = step(own, names, (size_t)kids->count, got, sizeof got);
		if ((rc == 0) != (ref == 0))
			wb_buf_printf(&holds, "%s%s says %s", holds.len ? "; " : "", own,
				      rc == 0	? "holder"
				      : rc == 1 ? "wait"
						: "error");
		if (ref == 1 && (rc != 1 || strcmp(got, want)))
			wb_buf_printf(&watches, "%s%s watches %s, not %s", watches.len ? "; " : "",
				      own, rc == 1 ? got : "nothing", want);
		if (rc == 1 && !strcmp(got, "config"))
			wb_buf_printf(&skips, "%s%s watches config", skips.len ? "; " : "", own);
	}
	report_check(r, "lowest-sequence-holds", holds.len == 0,
		     "only the node with the smallest sequence suffix holds",
		     holds.len ? holds.data : "yes");
	report_check(r, "watches-predecessor", watches.len == 0,
		     "every other node watches the lock node just in front of it",
		     watches.len ? watches.data : "yes");
	report_check(r, "skips-non-lock-children", skips.len == 0,
		     "a child without \"lock-\" is no contender", skips.len ? skips.data : "yes");
	char w[256] = "";
	int rc = step("_c_00000000-0000-4000-8000-000000000000-lock-0000000099", names,
		      (size_t)kids->count, w, sizeof w);
	report_checkf(r, "own-missing-is-error", rc == -1,
		      "WBX_ERROR when own is not in the listing", "returned %d", rc);
	wb_buf_free(&holds);
	wb_buf_free(&watches);
	wb_buf_free(&skips);
}

static enum lab_outcome check(struct lab_ctx *ctx, const struct ex_code *code)
{
	struct report *r = ctx->report;
	step_fn step = (step_fn)(uintptr_t)ex_code_sym(code, "wbx_lock_step");
	if (!report_check(r, "defines wbx_lock_step", step != NULL,
			  "the file defines wbx_lock_step", step ? "yes" : "missing"))
		return LAB_RAN;
	struct zklab *z = NULL;
	struct zkc *c = NULL;
	struct String_vector kids = {0, NULL};
	char *lock = NULL;
	int rc = zklab_open(ctx, &z);
	if (rc == 0)
		rc = zklab_client(z, &c);
	if (rc == 0) {
		lock = wb_xasprintf("%s/lock", z->base);
		rc = build_lock(r, c, lock);
	}
	if (rc == 0) {
		int zrc = zoo_get_children(zkc_handle(c), lock, 0, &kids);
		if (zrc != ZOK) {
			report_cannot(r, "cannot list %s: %s", lock, zkc_err_name(zrc));
			rc = zkc_to_wb(zrc);
		}
	}
	if (rc == 0) {
		report_step(r,
			    "asked wbx_lock_step for each of the %d children, in the order "
			    "getChildren returned them",
			    kids.count);
		judge(r, step, &kids);
	}
	deallocate_String_vector(&kids);
	free(lock);
	zkc_close(c);
	zklab_close(z);
	return lab_outcome_of(ctx, rc);
}

const ex_check_fn ex_zk_lock_step = check;
