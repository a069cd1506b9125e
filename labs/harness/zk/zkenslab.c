/*
 * zkenslab.c - the ensemble labs' shared steps (see zkenslab.h).  It does
 * not choose roles beyond leader/followers or hold links, and makes no
 * check of its own: zkenslab_checkf only keeps a lab from making a failed
 * check out of its servers' death (the death is ours to notice: the JVMs
 * are our children, zkensemble_died).
 */
#include "harness/zk/zkenslab.h"
#include "base/mono.h"
#include "base/wb.h"
#include "harness/report.h"
#include "harness/zk/zkasync.h"
#include "harness/zk/zkclient.h"
#include "harness/zk/zkensemble.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int zkenslab_start(struct report *r, const char *run_dir, const struct zkensemble_opts *opts,
		   struct zkensemble **out)
{
	char *why = NULL;
	/* The labs never crash one member, so every member can share one
	 * JVM: the ensemble's start costs one JVM's start, not N. */
	struct zkensemble_opts o = {0};
	if (opts)
		o = *opts;
	o.shared_jvm = 1;
	int rc = zkensemble_new(run_dir, &o, out, &why);
	if (rc) {
		report_cannot(r, "%s", why ? why : "cannot set up the ensemble");
		goto out;
	}
	long long t0 = mono_now_ms();
	rc = zkensemble_start(*out);
	report_server_time(r, (long)(mono_now_ms() - t0));
	if (rc) {
		report_cannot(r, "%s", zkensemble_error(*out));
		goto out;
	}
	report_evidence(r, "ensemble_start_ms", "%lld", mono_now_ms() - t0);
	report_evidence(r, "ensemble_jvm", "%s", zkensemble_shared(*out) ? "shared" : "per member");
	if (*zkensemble_note(*out))
		report_step(r, "%s", zkensemble_note(*out));
out:
	free(why);
	return rc;
}

int zkenslab_gone(struct report *r, struct zkensemble *e)
{
	char why[512];
	int first = 0;
	if (!e || !zkensemble_died(e, ZKENSLAB_DEATH_GRACE_MS, why, sizeof why, &first))
		return 0;
	if (first)
		report_cannot(r, "%s; the lab cannot go on", why);
	return 1;
}

int zkenslab_checkf(struct report *r, struct zkensemble *e, const char *name, int ok,
		    const char *expected, const char *observed_fmt, ...)
{
	if (!ok && zkenslab_gone(r, e))
		return 0;
	va_list ap;
	va_start(ap, observed_fmt);
	char *s = wb_xvasprintf(observed_fmt, ap);
	va_end(ap);
	int rc = report_check(r, name, ok, expected, s ? s : "?");
	free(s);
	return rc;
}

static int ensemble_died(void *arg)
{
	return zkensemble_died(arg, 0, NULL, 0, NULL);
}

void zkenslab_watch(struct zkensemble *e, struct zkc *c)
{
	if (e && c)
		zkc_set_gone(c, ensemble_died, e);
}

void zkenslab_stop(struct report *r, struct zkensemble *e)
{
	if (!e)
		return;
	long long t1 = mono_now_ms();
	zkensemble_free(e);
	report_server_time(r, (long)(mono_now_ms() - t1));
	report_evidence(r, "ensemble_stop_ms", "%lld", mono_now_ms() - t1);
}

int zkenslab_roles(struct zkensemble *e, int *followers, int cap, int *n)
{
	int leader = zkensemble_leader(e);
	*n = 0;
	for (int id = 1; id <= zkensemble_size(e); id++)
		if (id != leader && *n < cap)
			followers[(*n)++] = id;
	return leader;
}

int zkenslab_sync(struct zkc *c, const char *path, int timeout_ms, long long *at_ms)
{
	struct zkasync o;
	zkasync_init(&o);
	int rc = zoo_async(zkc_handle(c), path, zkasync_string_done, &o);
	if (rc == ZOK && zkasync_wait(&o, timeout_ms, &rc) != 0)
		rc = ZOPERATIONTIMEOUT;
	if (at_ms)
		*at_ms = o.at_ms;
	/* The completion may still come after a timeout: it must not find
	 * freed memory. */
	if (!zkasync_finished(&o))
		zkasync_wait(&o, 2 * timeout_ms, NULL);
	zkasync_destroy(&o);
	return rc;
}

int zkenslab_read(struct zkc *c, const char *path, char *buf, int cap, struct Stat *st)
{
	int len = cap - 1;
	int rc = zoo_get(zkc_handle(c), path, 0, buf, &len, st);
	buf[rc == ZOK && len > 0 ? len : 0] = '\0';
	return rc;
}

char *zkenslab_modes(struct zkensemble *e)
{
	struct wb_buf b = {0};
	for (int id = 1; id <= zkensemble_size(e); id++) {
		int64_t z = -1;
		enum zkensemble_mode md = zkensemble_mode(e, id, &z);
		wb_buf_printf(&b, "%s%d:%s", id > 1 ? ", " : "", id, zkensemble_mode_name(md));
		if (z >= 0)
			wb_buf_printf(&b, " (zxid 0x%" PRIx64 ")", (uint64_t)z);
	}
	return wb_buf_steal(&b);
}

char *zkenslab_hex(int64_t v, char buf[24])
{
	snprintf(buf, 24, "0x%" PRIx64, (uint64_t)v);
	return buf;
}
