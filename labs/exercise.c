/*
 * exercise.c - the exercises in this build, built from labs/exercises.def
 * (the check function comes from the symbol labs/exercises/<id>.c
 * exports), and the pieces every check shares: finding a learner's
 * function, reading a learner's file, and building C into a shared object.
 *
 * Building shells out to the system compiler rather than embedding one:
 * the learner sees the same diagnostics they would see at their own
 * prompt.  Loading (dlopen) is the supervisor's worker's job, so a crash in
 * learner code ends only the worker.
 */
#include "exercise.h"
#include "base/spawn.h"
#include "base/wb.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXERCISE(sym, id, chapter, lab, lang, file, en, zh) extern const ex_check_fn sym;
#include "exercises.def"
#undef EXERCISE

enum {
#define EXERCISE(sym, id, chapter, lab, lang, file, en, zh) row_##sym,
#include "exercises.def"
#undef EXERCISE
	row_count
};

/* One spare slot so an empty catalogue is still a valid array. */
static const struct exercise exercises[row_count + 1] __attribute__((unused)) = {
#define EXERCISE(sym, id, chapter, lab, lang, file, en, zh)                                        \
	[row_##sym] = {id, chapter, lab, lang, file, en, zh, &sym},
#include "exercises.def"
#undef EXERCISE
	[row_count] = {NULL, NULL, NULL, EX_LANG_C, NULL, NULL, NULL, NULL},
};

static const struct exercise *const all[row_count + 1] = {
#define EXERCISE(sym, id, chapter, lab, lang, file, en, zh) [row_##sym] = &exercises[row_##sym],
#include "exercises.def"
#undef EXERCISE
	[row_count] = NULL,
};

const struct exercise *const *ex_all(size_t *n)
{
	*n = row_count;
	return all;
}

const struct exercise *ex_find(const char *id)
{
	for (size_t i = 0; id && all[i]; i++)
		if (!strcmp(all[i]->id, id))
			return all[i];
	return NULL;
}

const char *ex_title(const struct exercise *ex, const char *lang)
{
	return lang && !strcmp(lang, "zh") ? ex->title_zh : ex->title_en;
}

const char *ex_lang_name(enum ex_lang lang)
{
	switch (lang) {
	case EX_LANG_C: return "c";
	case EX_LANG_SQL: return "sql";
	case EX_LANG_LUA: return "lua";
	}
	return "?";
}

void *ex_code_sym(const struct ex_code *code, const char *name)
{
	if (!code || !code->dl || !name)
		return NULL;
	dlerror();
	return dlsym(code->dl, name);
}

int ex_code_text(const struct ex_code *code, char **out, size_t *len)
{
	return wb_read_file(code->path, out, len);
}

int ex_build_c(const struct exercise *ex, const char *src, const char *ex_dir, const char *so_path,
	       int diag_fd)
{
	(void)ex;
	const char *cc = getenv("CC");
	if (!cc || !*cc)
		cc = "cc";
	char *inc = wb_xasprintf("-I%s", ex_dir);
	char *const argv[] = {(char *)cc,
			      "-std=c11",
			      "-Wall",
			      "-Wextra",
			      "-fPIC",
			      "-shared",
			      "-O1",
			      inc,
			      "-I/usr/include/zookeeper",
			      "-o",
			      (char *)so_path,
			      (char *)src,
			      NULL};
	struct spawn_opts so = {.new_group = 0, .death_signal = SIGKILL, .out_fd = -1};
	pid_t pid;
	int rc = spawn_fork(&so, &pid);
	if (rc != 0) {
		free(inc);
		return WB_EIO;
	}
	if (pid == 0) {
		if (diag_fd >= 0) {
			dup2(diag_fd, 1);
			dup2(diag_fd, 2);
		}
		execvp(cc, argv);
		_exit(127);
	}
	free(inc);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return WB_EIO;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return WB_EIO;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : WB_EINVAL;
}
