/*
 * zklockrig.c - waiters around the lock recipe for labs, tests and the
 * benchmark (see zklockrig.h).  No checks, no output.
 */
#include "rigs/zklockrig.h"
#include "base/mono.h"
#include "base/wb.h"
#include "harness/zk/zkclient.h"

#include <errno.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void logf_locked(struct zklockrig *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void logf_locked(struct zklockrig *w, const char *fmt, ...)
{
	size_t used = strlen(w->log);
	if (used + 2 >= sizeof w->log)
		return;
	if (used)
		w->log[used++] = ' ';
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->log + used, sizeof w->log - used, fmt, ap);
	va_end(ap);
}

const char *zklockrig_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;
	return s ? s + 1 : (path ? path : "");
}

const char *zklockrig_short(const char *path)
{
	const char *name = zklockrig_name(path);
	const char *last = NULL;
	for (const char *p = name; (p = strstr(p, ZKLOCK_LOCK_NAME)) != NULL; p++)
		last = p;
	return last ? last : name;
}

static void h_create_sent(void *arg, struct zklock *l)
{
	struct zklockrig *w = arg;
	if (w->user.create_sent)
		w->user.create_sent(w->user.arg, l);
}

static void h_create_done(void *arg, struct zklock *l, int zrc)
{
	struct zklockrig *w = arg;
	pthread_mutex_lock(&w->mu);
	logf_locked(w, "create=%s", zkc_err_name(zrc));
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	if (w->user.create_done)
		w->user.create_done(w->user.arg, l, zrc);
}

static void h_listed(void *arg, struct zklock *l, size_t n, long idx)
{
	struct zklockrig *w = arg;
	pthread_mutex_lock(&w->mu);
	w->lists++;
	w->last_index = idx;
	logf_locked(w, "list#%ld/%zu", idx, n);
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	if (w->user.listed)
		w->user.listed(w->user.arg, l, n, idx);
}

static void h_before_watch(void *arg, struct zklock *l, const char *pred)
{
	struct zklockrig *w = arg;
	if (w->user.before_watch)
		w->user.before_watch(w->user.arg, l, pred);
}

static void h_watched(void *arg, struct zklock *l, const char *pred, int zrc)
{
	struct zklockrig *w = arg;
	pthread_mutex_lock(&w->mu);
	if (zrc == ZOK) {
		w->watches++;
		snprintf(w->pred, sizeof w->pred, "%s", pred);
		logf_locked(w, "watch(%s)", zklockrig_short(pred));
	} else {
		if (zrc == ZNONODE)
			w->vanished++;
		logf_locked(w, "watch(%s)=%s", zklockrig_short(pred), zkc_err_name(zrc));
	}
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	if (w->user.watched)
		w->user.watched(w->user.arg, l, pred, zrc);
}

static void h_woken(void *arg, struct zklock *l, int type, const char *path)
{
	struct zklockrig *w = arg;
	pthread_mutex_lock(&w->mu);
	w->wakes++;
	w->wake_type = type;
	logf_locked(w, "wake(%s)", zkc_type_name(type));
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	if (w->user.woken)
		w->user.woken(w->user.arg, l, type, path);
}

static void h_recovered(void *arg, struct zklock *l, size_t matches)
{
	struct zklockrig *w = arg;
	pthread_mutex_lock(&w->mu);
	logf_locked(w, "recovered=%zu", matches);
	snprintf(w->note, sizeof w->note, "%s", zklock_message(l));
	pthread_mutex_unlock(&w->mu);
	if (w->user.recovered)
		w->user.recovered(w->user.arg, l, matches);
}

int zklockrig_open(struct zklockrig *w, const char *name, struct zkc *c, const char *lock_path,
		   const struct zklock_hooks *user, const struct zklock_opts *opts)
{
	memset(w, 0, sizeof *w);
	snprintf(w->name, sizeof w->name, "%s", name);
	w->c = c;
	w->last_index = -1;
	if (user)
		w->user = *user;
	pthread_mutex_init(&w->mu, NULL);
	mono_cond_init(&w->cv);
	struct zklock_opts o = {0};
	if (opts)
		o = *opts;
	o.hooks = (struct zklock_hooks){
		.arg = w,
		.create_sent = h_create_sent,
		.create_done = h_create_done,
		.listed = h_listed,
		.before_watch = h_before_watch,
		.watched = h_watched,
		.woken = h_woken,
		.recovered = h_recovered,
	};
	return zklock_new(zkc_handle(c), lock_path, &o, &w->l);
}

static void *acquire_main(void *arg)
{
	struct zklockrig *w = arg;
	int wait_ms;
	pthread_mutex_lock(&w->mu);
	wait_ms = w->rc; /* passed in rc by zklockrig_start */
	pthread_mutex_unlock(&w->mu);
	int rc = zklock_acquire(w->l, wait_ms);
	pthread_mutex_lock(&w->mu);
	w->rc = rc;
	w->done = 1;
	logf_locked(w, "%s", rc == 0 ? "held" : zklock_status_name(zklock_status(w->l)));
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

int zklockrig_start(struct zklockrig *w, int wait_ms)
{
	pthread_mutex_lock(&w->mu);
	w->done = 0;
	w->rc = wait_ms;
	pthread_mutex_unlock(&w->mu);
	if (pthread_create(&w->th, NULL, acquire_main, w) != 0)
		return WB_EIO;
	w->running = 1;
	return 0;
}

int zklockrig_wait_watches(struct zklockrig *w, unsigned n, int timeout_ms)
{
	struct timespec ts;
	mono_deadline(&ts, timeout_ms);
	int rc = 0;
	pthread_mutex_lock(&w->mu);
	while (w->watches < n && !w->done)
		if (pthread_cond_timedwait(&w->cv, &w->mu, &ts) == ETIMEDOUT) {
			rc = w->watches < n && !w->done ? WB_EBUSY : 0;
			break;
		}
	pthread_mutex_unlock(&w->mu);
	return rc;
}

int zklockrig_wait_done(struct zklockrig *w, int timeout_ms, int *rc)
{
	if (!w->running) {
		*rc = w->rc;
		return 0;
	}
	struct timespec ts;
	mono_deadline(&ts, timeout_ms);
	pthread_mutex_lock(&w->mu);
	while (!w->done)
		if (pthread_cond_timedwait(&w->cv, &w->mu, &ts) == ETIMEDOUT && !w->done) {
			pthread_mutex_unlock(&w->mu);
			return WB_EBUSY;
		}
	*rc = w->rc;
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->th, NULL);
	w->running = 0;
	return 0;
}

void zklockrig_snapshot(struct zklockrig *w, struct zklockrig *out)
{
	pthread_mutex_lock(&w->mu);
	memcpy(out->name, w->name, sizeof out->name);
	out->done = w->done;
	out->rc = w->rc;
	out->lists = w->lists;
	out->watches = w->watches;
	out->vanished = w->vanished;
	out->wakes = w->wakes;
	out->wake_type = w->wake_type;
	out->last_index = w->last_index;
	memcpy(out->pred, w->pred, sizeof out->pred);
	memcpy(out->log, w->log, sizeof out->log);
	memcpy(out->note, w->note, sizeof out->note);
	pthread_mutex_unlock(&w->mu);
}

void zklockrig_close(struct zklockrig *w)
{
	if (!w->l && !w->running)
		return;
	if (w->running) {
		zklock_cancel(w->l);
		pthread_join(w->th, NULL);
		w->running = 0;
	}
	zklock_free(w->l);
	w->l = NULL;
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
}

struct flush_wait {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int done;
	int refs; /* the caller's and the completion's */
};

static void flush_unref(struct flush_wait *f)
{
	pthread_mutex_lock(&f->mu);
	int last = --f->refs == 0;
	pthread_mutex_unlock(&f->mu);
	if (last) {
		pthread_mutex_destroy(&f->mu);
		pthread_cond_destroy(&f->cv);
		free(f);
	}
}

static void flush_cb(int rc, const struct Stat *stat, const void *data)
{
	(void)rc;
	(void)stat;
	struct flush_wait *f = (struct flush_wait *)data;
	pthread_mutex_lock(&f->mu);
	f->done = 1;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
	flush_unref(f);
}

int zklockrig_flush(struct zkc *c, int timeout_ms)
{
	struct flush_wait *f = wb_xcalloc(1, sizeof *f);
	pthread_mutex_init(&f->mu, NULL);
	mono_cond_init(&f->cv);
	f->refs = 2;
	if (zoo_aexists(zkc_handle(c), "/", 0, flush_cb, f) != ZOK) {
		f->refs = 1;
		flush_unref(f);
		return WB_EIO;
	}
	struct timespec ts;
	mono_deadline(&ts, timeout_ms);
	int rc = 0;
	pthread_mutex_lock(&f->mu);
	while (!f->done)
		if (pthread_cond_timedwait(&f->cv, &f->mu, &ts) == ETIMEDOUT && !f->done) {
			rc = WB_EBUSY;
			break;
		}
	pthread_mutex_unlock(&f->mu);
	flush_unref(f);
	return rc;
}
