/*
 * cli/labcmd.h - what `lab list` and `lab run` share about a lab: whether
 * it takes --zk, and the "did you mean" for a mistyped lab id.  Defined in
 * cli/lab_list.c, except labcmd_run_all (cli/lab_run_all.c).  No running
 * of labs here.
 */
#ifndef WB_CLI_LABCMD_H
#define WB_CLI_LABCMD_H

struct lab;

/* True when the lab runs against a ZooKeeper given with --zk: it needs one
 * server and does not start, cut or proxy servers itself.  Cannot fail. */
int labcmd_takes_zk(const struct lab *lab);

/* The lab id of this build closest to a mistyped id, or NULL
 * (cli/suggest.c).  Borrowed from the lab registry. */
const char *labcmd_suggest(const char *id);

struct app;
struct args;

/* `lab run --all [--only ID,ID...] [--json]`: every lab of the catalogue
 * (or the listed ones) in turn under the supervisor, then a summary.
 * Returns the exit code (cli/lab_run_all.c). */
int labcmd_run_all(struct app *app, const struct args *args);

#endif
