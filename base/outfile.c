/*
 * outfile.c - output files that cannot overwrite the progress database
 * (outfile.h).
 *
 * The guard is checked twice: by inode (stat follows every symbolic
 * link, so a link or a hard link to the database is caught) against the
 * guarded file, its real path and the -wal, -shm and -journal files
 * beside both, and, for a target that does not exist yet, by name (the
 * target's folder resolved, compared with the guarded file's): a lab
 * run may create the database after its output file was opened.  At
 * commit the inode check runs again.  Without force the temporary file
 * is put in place with link(), which fails when the name appeared
 * meanwhile, instead of rename(), which would replace it.
 *
 * A new file gets the mode fopen would give it (0666 less the umask); a
 * replaced file keeps its mode.  Not thread-safe (umask is read by
 * setting it).
 */
#include "base/outfile.h"
#include "base/wb.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const guard_suffix[] = {"", "-wal", "-shm", "-journal"};
#define NSUFFIX (sizeof guard_suffix / sizeof guard_suffix[0])

/* The folder part of path ("." when it has none) and its last name. */
static void split(const char *path, char **dir, const char **base)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		*dir = wb_xstrdup(".");
		*base = path;
	} else {
		*dir = slash == path ? wb_xstrdup("/") : wb_xstrndup(path, (size_t)(slash - path));
		*base = slash + 1;
	}
}

/* path with its folder resolved (the last name kept as it is), or NULL
 * when the folder does not exist.  Caller frees. */
static char *resolve_dir(const char *path)
{
	char *dir, buf[PATH_MAX];
	const char *base;
	split(path, &dir, &base);
	char *out = realpath(dir, buf) ? wb_xasprintf("%s/%s", strcmp(buf, "/") ? buf : "", base)
				       : NULL;
	free(dir);
	return out;
}

/* 1 when st is the guarded file or one of its companions. */
static int same_as_guard(const struct stat *st, const char *guard)
{
	char real[PATH_MAX];
	const char *names[2] = {guard, realpath(guard, real) ? real : NULL};
	for (int k = 0; k < 2; k++) {
		if (!names[k])
			continue;
		for (size_t i = 0; i < NSUFFIX; i++) {
			char *p = wb_xasprintf("%s%s", names[k], guard_suffix[i]);
			struct stat g;
			int hit = stat(p, &g) == 0 && g.st_dev == st->st_dev &&
				  g.st_ino == st->st_ino;
			free(p);
			if (hit)
				return 1;
		}
	}
	return 0;
}

/* 1 when the resolved name target (no file there yet) is the guarded
 * file's name or a companion's. */
static int named_as_guard(const char *target, const char *guard)
{
	char real[PATH_MAX];
	char *g = resolve_dir(guard);
	const char *names[2] = {g, realpath(guard, real) ? real : NULL};
	int hit = 0;
	for (int k = 0; k < 2 && !hit; k++) {
		if (!names[k])
			continue;
		for (size_t i = 0; i < NSUFFIX && !hit; i++) {
			char *p = wb_xasprintf("%s%s", names[k], guard_suffix[i]);
			hit = !strcmp(p, target);
			free(p);
		}
	}
	free(g);
	return hit;
}

static int refuse_guard(const char *path, const char *guard, char *err, size_t errlen)
{
	snprintf(err, errlen,
		 "refusing to write %s: it is the progress database %s (or its -wal, -shm or "
		 "-journal file); nothing was written, choose another file",
		 path, guard);
	return WB_EINVAL;
}

static int io_error(int e)
{
	return e == ENOSPC || e == EDQUOT ? WB_ENOSPC : e == ENOENT ? WB_ENOENT : WB_EIO;
}

static void clear(struct wb_outfile *o)
{
	free(o->path);
	free(o->final);
	free(o->tmp);
	memset(o, 0, sizeof *o);
}

/* Opens a FIFO or character device as it is. */
static int open_direct(struct wb_outfile *o, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	o->f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!o->f) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
		clear(o);
		return io_error(e);
	}
	return 0;
}

int wb_outfile_open(struct wb_outfile *o, const char *path, const char *guard, int force, char *err,
		    size_t errlen)
{
	memset(o, 0, sizeof *o);
	o->path = wb_xstrdup(path);
	o->force = force;
	struct stat st, lst;
	int exists = stat(path, &st) == 0;
	if (!exists && errno == ENOENT && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		snprintf(err, errlen, "cannot write %s: it is a symbolic link to a missing file",
			 path);
		clear(o);
		return WB_EINVAL;
	}
	if (exists && guard && same_as_guard(&st, guard)) {
		clear(o);
		return refuse_guard(path, guard, err, errlen);
	}
	if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return open_direct(o, path, err, errlen);
	if (exists && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cannot write %s: it is a folder", path);
		clear(o);
		return WB_EINVAL;
	}
	if (exists && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "cannot write %s: it is not a regular file", path);
		clear(o);
		return WB_EINVAL;
	}
	if (exists && !force) {
		snprintf(err, errlen, "%s exists; add --force to overwrite it", path);
		clear(o);
		return WB_EINVAL;
	}
	char real[PATH_MAX];
	o->final = exists ? (realpath(path, real) ? wb_xstrdup(real) : NULL) : resolve_dir(path);
	if (!o->final) {
		int e = errno;
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
		clear(o);
		return io_error(e);
	}
	if (!exists && guard && named_as_guard(o->final, guard)) {
		clear(o);
		return refuse_guard(path, guard, err, errlen);
	}
	char *dir;
	const char *base;
	split(o->final, &dir, &base);
	o->tmp = wb_xasprintf("%s/.%s.XXXXXX", dir, base);
	free(dir);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
		free(o->tmp);
		o->tmp = NULL;
		clear(o);
		return io_error(e);
	}
	mode_t mask = umask(0);
	umask(mask);
	(void)fchmod(fd, exists ? (st.st_mode & 07777) : (0666 & ~mask));
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;
		close(fd);
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
		wb_outfile_abort(o);
		return io_error(e);
	}
	return 0;
}

int wb_outfile_commit(struct wb_outfile *o, const char *guard, char *err, size_t errlen)
{
	int e = 0;
	errno = 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		e = errno ? errno : EIO;
	if (!e && o->tmp && fsync(fileno(o->f)) != 0)
		e = errno;
	if (fclose(o->f) != 0 && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (e) {
		snprintf(err, errlen, "cannot write %s: %s", o->path, strerror(e));
		wb_outfile_abort(o);
		return io_error(e);
	}
	if (!o->tmp) {
		clear(o);
		return 0;
	}
	struct stat st;
	int exists = stat(o->final, &st) == 0;
	if (exists && guard && same_as_guard(&st, guard)) {
		refuse_guard(o->path, guard, err, errlen);
		wb_outfile_abort(o);
		return WB_EINVAL;
	}
	int rc = 0;
	if (!o->force && link(o->tmp, o->final) == 0) {
		unlink(o->tmp);
	} else if (!o->force && errno == EEXIST) {
		snprintf(err, errlen, "%s exists; add --force to overwrite it", o->path);
		rc = WB_EINVAL;
	} else if (rename(o->tmp, o->final) != 0) {
		/* with force, or where the file system has no hard links */
		e = errno;
		snprintf(err, errlen, "cannot write %s: %s", o->path, strerror(e));
		rc = io_error(e);
	}
	if (rc) {
		wb_outfile_abort(o);
		return rc;
	}
	clear(o);
	return 0;
}

void wb_outfile_abort(struct wb_outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	clear(o);
}
