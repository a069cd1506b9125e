/*
 * exthread.h - a learner's function run on a thread of its own, for the
 * ZooKeeper exercise checks (labs/exercises/zk-*.c): the check starts it,
 * drives the scenario around it, and waits for it with a deadline, so a
 * learner's function that blocks or loops forever costs a failed check,
 * not a hung worker.
 *
 * A thread that never returns is detached and left to the worker's exit
 * (the runner kills the worker's process group after its wall limit); the
 * check must then leave alone whatever the thread may still touch (its
 * ZooKeeper handle), which exthread_leaked tells it.  No checks, no
 * output here.
 */
#ifndef WB_EXTHREAD_H
#define WB_EXTHREAD_H

#include <pthread.h>

struct exthread {
	void (*fn)(void *arg); /* calls the learner's function, stores its results in arg */
	void *arg;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv; /* CLOCK_MONOTONIC */
	int started;	   /* th runs or ran */
	int done;	   /* fn returned */
	int joined;	   /* th was joined */
	int leaked;	   /* detached while still running */
};

/* Starts fn(arg) on a new thread.  Returns 0 or WB_EIO (no thread). */
int exthread_start(struct exthread *t, void (*fn)(void *arg), void *arg);

/* Waits up to timeout_ms for fn to return and joins the thread.  Returns
 * 0, or WB_EBUSY while it still runs. */
int exthread_wait(struct exthread *t, int timeout_ms);

/* Whether fn has returned (without waiting). */
int exthread_done(struct exthread *t);

/* Ends the thread's record: joins it when fn returned, else detaches it
 * and marks it leaked.  Returns 1 when the thread was leaked (the caller
 * must not free what it uses), else 0.  Accepts a zeroed, never started
 * struct (returns 0). */
int exthread_end(struct exthread *t);

#endif
