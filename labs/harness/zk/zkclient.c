/*
 * zkclient.c - C client helpers (see zkclient.h).
 *
 * Invariant: the event log only grows while the handle is open; the read
 * cursor only moves forward.  The watcher runs on the C client's completion
 * thread and does nothing but append under the mutex and broadcast, so it
 * can never block the client.  zookeeper_close joins the client's threads,
 * so after it no callback can touch the freed struct.
 *
 * Not here: retries, recipes, reporting.
 */
#include "harness/zk/zkclient.h"
#include "base/mono.h"
#include "base/wb.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct zkc {
	zhandle_t *zh;	      /* the C client handle */
	pthread_mutex_t mu;   /* guards everything below */
	pthread_cond_t cond;  /* broadcast on every new event */
	struct zkc_event *ev; /* every event seen, in order */
	size_t n, cap;	      /* events used / allocated */
	size_t cursor;	      /* next event a wait looks at */
	int (*gone)(void *);  /* zkc_set_gone: non-zero ends every wait */
	void *gone_arg;	      /* its argument */
};

static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_stream; /* process-wide, kept open until exit */

long long zkc_now_ms(void)
{
	return mono_now_ms();
}

void zkc_log_init(const char *dir)
{
	pthread_mutex_lock(&log_mu);
	if (!log_stream && dir) {
		char *path = wb_xasprintf("%s/zkclient.log", dir);
		log_stream = fopen(path, "a");
		free(path);
		if (log_stream) {
			setvbuf(log_stream, NULL, _IOLBF, 0);
			zoo_set_log_stream(log_stream);
			zoo_set_debug_level(ZOO_LOG_LEVEL_INFO);
		}
	}
	if (!log_stream) {
		/* No file: keep the terminal clean rather than interleave the
		 * client's log with the lab's report. */
		zoo_set_debug_level(ZOO_LOG_LEVEL_ERROR);
	}
	pthread_mutex_unlock(&log_mu);
}

static void watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	(void)zh;
	struct zkc *c = ctx;
	pthread_mutex_lock(&c->mu);
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->ev = wb_xrealloc(c->ev, c->cap * sizeof *c->ev);
	}
	struct zkc_event *e = &c->ev[c->n++];
	memset(e, 0, sizeof *e);
	e->type = type;
	e->state = state;
	snprintf(e->path, sizeof e->path, "%s", path ? path : "");
	e->at_ms = zkc_now_ms();
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->mu);
}

int zkc_open(const char *hosts, int session_ms, const char *log_dir, struct zkc **out)
{
	*out = NULL;
	if (!hosts || !*hosts || session_ms <= 0)
		return WB_EINVAL;
	if (log_dir)
		zkc_log_init(log_dir);
	struct zkc *c = wb_xcalloc(1, sizeof *c);
	pthread_mutex_init(&c->mu, NULL);
	mono_cond_init(&c->cond);
	errno = 0;
	c->zh = zookeeper_init(hosts, watcher, session_ms, NULL, c, 0);
	if (!c->zh) {
		int e = errno;
		zkc_close(c);
		return e == EINVAL ? WB_EINVAL : WB_EIO;
	}
	/* Every address here is a numeric 127.0.0.1 one: without this the
	 * client resolves the host list again on every turn of its I/O loop
	 * (about 12k instructions and 7 system calls a turn, 7 turns a lock
	 * cycle).  It still resolves after a connection loss. */
	(void)zoo_set_servers_resolution_delay(c->zh, -1);
	*out = c;
	return 0;
}

int zkc_connect(const char *hosts, int session_ms, int timeout_ms, const char *log_dir,
		struct zkc **out)
{
	struct zkc *c = NULL;
	int rc = zkc_open(hosts, session_ms, log_dir, &c);
	if (rc)
		return rc;
	rc = zkc_wait_state(c, ZOO_CONNECTED_STATE, timeout_ms, NULL);
	if (rc) {
		zkc_close(c);
		return WB_EUNAVAIL;
	}
	*out = c;
	return 0;
}

void zkc_close(struct zkc *c)
{
	if (!c)
		return;
	if (c->zh)
		zookeeper_close(c->zh);
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->mu);
	free(c->ev);
	free(c);
}

void zkc_set_gone(struct zkc *c, int (*gone)(void *arg), void *arg)
{
	pthread_mutex_lock(&c->mu);
	c->gone = gone;
	c->gone_arg = arg;
	pthread_mutex_unlock(&c->mu);
}

/* One "HOST:PORT" of a connect string, [s, e): 0 or WB_EINVAL with why. */
static int check_one_host(const char *s, const char *e, char *why, size_t n)
{
	static const char expected[] =
		"expected HOST:PORT[,HOST:PORT...] with a port from 1 to 65535";
	if (*s == '[') {
		snprintf(why, n,
			 "IPv6 addresses are not supported; give an IPv4 address or "
			 "a host name");
		return WB_EINVAL;
	}
	const char *colon = NULL;
	for (const char *p = s; p < e; p++)
		if (*p == ':')
			colon = p;
	size_t hl = colon ? (size_t)(colon - s) : 0;
	const char *port = colon ? colon + 1 : e;
	size_t pl = (size_t)(e - port);
	int ok = colon && hl > 0 && hl <= 253 && pl > 0 && pl <= 5;
	long pn = 0;
	for (size_t i = 0; ok && i < pl; i++) {
		ok = isdigit((unsigned char)port[i]) != 0;
		pn = pn * 10 + (port[i] - '0');
	}
	ok = ok && pn >= 1 && pn <= 65535;
	int digits_dots = 1;
	for (size_t i = 0; ok && i < hl; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == ':' || !(isalnum(ch) || ch == '.' || ch == '-' || ch == '_'))
			ok = 0;
		if (!isdigit(ch) && ch != '.')
			digits_dots = 0;
	}
	if (ok && (s[0] == '-' || s[0] == '.'))
		ok = 0;
	if (ok && digits_dots) { /* looks like IPv4: must be one */
		char ip[254];
		struct in_addr a;
		memcpy(ip, s, hl);
		ip[hl] = '\0';
		ok = inet_pton(AF_INET, ip, &a) == 1;
	}
	if (!ok) {
		snprintf(why, n, "%s", expected);
		return WB_EINVAL;
	}
	return 0;
}

int zkc_check_hosts(const char *hosts, char *why, size_t n)
{
	if (!hosts || !*hosts)
		return check_one_host("", "", why, n);
	/* A chroot suffix ("/app") follows the last host. */
	const char *end = strchr(hosts, '/');
	if (!end)
		end = hosts + strlen(hosts);
	for (const char *s = hosts;;) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		const char *e = comma ? comma : end;
		int rc = check_one_host(s, e, why, n);
		if (rc)
			return rc;
		if (!comma)
			break;
		s = comma + 1;
	}
	return 0;
}

zhandle_t *zkc_handle(struct zkc *c)
{
	return c->zh;
}

/* The common wait: match() says whether event e ends the wait (1), ends
 * it with WB_ENOENT (-1), or not (0). */
static int wait_for(struct zkc *c, int timeout_ms, struct zkc_event *out,
		    int (*match)(const struct zkc_event *e, const void *arg), const void *arg)
{
	long long end = zkc_now_ms() + timeout_ms;
	int rc = WB_EBUSY;
	pthread_mutex_lock(&c->mu);
	for (;;) {
		while (c->cursor < c->n) {
			const struct zkc_event *e = &c->ev[c->cursor++];
			int m = match(e, arg);
			if (m) {
				if (out)
					*out = *e;
				rc = m > 0 ? 0 : WB_ENOENT;
				goto out;
			}
		}
		if (c->gone && c->gone(c->gone_arg)) {
			rc = WB_EUNAVAIL;
			goto out;
		}
		long long left = end - zkc_now_ms();
		if (left <= 0)
			break;
		/* With a liveness check, wake at least every ZKC_GONE_POLL_MS
		 * to ask it again; without one, sleep until the deadline. */
		if (c->gone && left > ZKC_GONE_POLL_MS)
			left = ZKC_GONE_POLL_MS;
		struct timespec dl;
		mono_deadline(&dl, (int)left);
		pthread_cond_timedwait(&c->cond, &c->mu, &dl);
	}
out:
	pthread_mutex_unlock(&c->mu);
	return rc;
}

static int match_state(const struct zkc_event *e, const void *arg)
{
	int want = *(const int *)arg;
	if (e->type != ZOO_SESSION_EVENT)
		return 0;
	if (e->state == want)
		return 1;
	if (e->state == ZOO_EXPIRED_SESSION_STATE || e->state == ZOO_AUTH_FAILED_STATE)
		return -1;
	return 0;
}

int zkc_wait_state(struct zkc *c, int state, int timeout_ms, struct zkc_event *ev)
{
	return wait_for(c, timeout_ms, ev, match_state, &state);
}

struct event_want {
	int type;
	const char *path;
};

static int match_event(const struct zkc_event *e, const void *arg)
{
	const struct event_want *w = arg;
	return e->type == w->type && (!w->path || !strcmp(w->path, e->path));
}

int zkc_wait_event(struct zkc *c, int type, const char *path, int timeout_ms, struct zkc_event *ev)
{
	struct event_want w = {type, path};
	return wait_for(c, timeout_ms, ev, match_event, &w);
}

size_t zkc_event_count(struct zkc *c)
{
	pthread_mutex_lock(&c->mu);
	size_t n = c->n;
	pthread_mutex_unlock(&c->mu);
	return n;
}

int zkc_event_get(struct zkc *c, size_t i, struct zkc_event *ev)
{
	int rc = WB_ERANGE;
	pthread_mutex_lock(&c->mu);
	if (i < c->n) {
		*ev = c->ev[i];
		rc = 0;
	}
	pthread_mutex_unlock(&c->mu);
	return rc;
}

int64_t zkc_session_id(struct zkc *c)
{
	const clientid_t *id = zoo_client_id(c->zh);
	return id ? id->client_id : 0;
}

int zkc_session_timeout(struct zkc *c)
{
	return zoo_recv_timeout(c->zh);
}

char *zkc_hex(int64_t id, char buf[ZKC_HEX_LEN])
{
	snprintf(buf, ZKC_HEX_LEN, "0x%" PRIx64, (uint64_t)id);
	return buf;
}

const char *zkc_err_name(int zrc)
{
	switch (zrc) {
	case ZOK: return "ZOK";
	case ZSYSTEMERROR: return "ZSYSTEMERROR";
	case ZRUNTIMEINCONSISTENCY: return "ZRUNTIMEINCONSISTENCY";
	case ZDATAINCONSISTENCY: return "ZDATAINCONSISTENCY";
	case ZCONNECTIONLOSS: return "ZCONNECTIONLOSS";
	case ZMARSHALLINGERROR: return "ZMARSHALLINGERROR";
	case ZUNIMPLEMENTED: return "ZUNIMPLEMENTED";
	case ZOPERATIONTIMEOUT: return "ZOPERATIONTIMEOUT";
	case ZBADARGUMENTS: return "ZBADARGUMENTS";
	case ZINVALIDSTATE: return "ZINVALIDSTATE";
	case ZNEWCONFIGNOQUORUM: return "ZNEWCONFIGNOQUORUM";
	case ZRECONFIGINPROGRESS: return "ZRECONFIGINPROGRESS";
	case ZSSLCONNECTIONERROR: return "ZSSLCONNECTIONERROR";
	case ZAPIERROR: return "ZAPIERROR";
	case ZNONODE: return "ZNONODE";
	case ZNOAUTH: return "ZNOAUTH";
	case ZBADVERSION: return "ZBADVERSION";
	case ZNOCHILDRENFOREPHEMERALS: return "ZNOCHILDRENFOREPHEMERALS";
	case ZNODEEXISTS: return "ZNODEEXISTS";
	case ZNOTEMPTY: return "ZNOTEMPTY";
	case ZSESSIONEXPIRED: return "ZSESSIONEXPIRED";
	case ZINVALIDCALLBACK: return "ZINVALIDCALLBACK";
	case ZINVALIDACL: return "ZINVALIDACL";
	case ZAUTHFAILED: return "ZAUTHFAILED";
	case ZCLOSING: return "ZCLOSING";
	case ZNOTHING: return "ZNOTHING";
	case ZSESSIONMOVED: return "ZSESSIONMOVED";
	case ZNOTREADONLY: return "ZNOTREADONLY";
	case ZEPHEMERALONLOCALSESSION: return "ZEPHEMERALONLOCALSESSION";
	case ZNOWATCHER: return "ZNOWATCHER";
	case ZRECONFIGDISABLED: return "ZRECONFIGDISABLED";
	case ZSESSIONCLOSEDREQUIRESASLAUTH: return "ZSESSIONCLOSEDREQUIRESASLAUTH";
	case ZTHROTTLEDOP: return "ZTHROTTLEDOP";
	default: return "?";
	}
}

/* The state and type constants are extern ints, not enumerators, so
 * these are if-chains rather than switches. */
const char *zkc_state_name(int state)
{
	if (state == ZOO_EXPIRED_SESSION_STATE)
		return "ZOO_EXPIRED_SESSION_STATE";
	if (state == ZOO_AUTH_FAILED_STATE)
		return "ZOO_AUTH_FAILED_STATE";
	if (state == ZOO_CONNECTING_STATE)
		return "ZOO_CONNECTING_STATE";
	if (state == ZOO_ASSOCIATING_STATE)
		return "ZOO_ASSOCIATING_STATE";
	if (state == ZOO_CONNECTED_STATE)
		return "ZOO_CONNECTED_STATE";
	if (state == ZOO_READONLY_STATE)
		return "ZOO_READONLY_STATE";
	if (state == ZOO_NOTCONNECTED_STATE)
		return "ZOO_NOTCONNECTED_STATE";
	if (state == 0)
		return "0 (closed)";
	return "?";
}

const char *zkc_type_name(int type)
{
	if (type == ZOO_CREATED_EVENT)
		return "ZOO_CREATED_EVENT";
	if (type == ZOO_DELETED_EVENT)
		return "ZOO_DELETED_EVENT";
	if (type == ZOO_CHANGED_EVENT)
		return "ZOO_CHANGED_EVENT";
	if (type == ZOO_CHILD_EVENT)
		return "ZOO_CHILD_EVENT";
	if (type == ZOO_SESSION_EVENT)
		return "ZOO_SESSION_EVENT";
	if (type == ZOO_NOTWATCHING_EVENT)
		return "ZOO_NOTWATCHING_EVENT";
	return "?";
}

int zkc_to_wb(int zrc)
{
	switch (zrc) {
	case ZOK: return 0;
	case ZNONODE: return WB_ENOENT;
	case ZBADARGUMENTS: return WB_EINVAL;
	case ZCONNECTIONLOSS:
	case ZOPERATIONTIMEOUT:
	case ZSESSIONEXPIRED:
	case ZINVALIDSTATE:
	case ZCLOSING:
	case ZSESSIONMOVED: return WB_EUNAVAIL;
	default: return WB_EIO;
	}
}
