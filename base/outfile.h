/*
 * outfile.h - an output file a command writes for the user (an export,
 * an operation history, an SVG timeline), opened so that it can never
 * destroy what the user keeps: the progress database in use above all.
 *
 * wb_outfile_open refuses, before anything is written:
 *   - a target that is the guarded file (the database in use) or its
 *     -wal, -shm or -journal file: the same inode through any path, hard
 *     link or symbolic link, or, when the target does not exist yet, the
 *     same name in the same folder;
 *   - an existing regular file, unless force (the command's --force);
 *   - a folder, a block device, a dangling symbolic link.
 * A regular target is written to a temporary file in its own folder and
 * renamed onto it by wb_outfile_commit, so a failed or cancelled write
 * never leaves a half file and an old file stays whole until the new one
 * is complete.  A symbolic link is followed: the file it names is
 * replaced, the link stays.  A character device or a FIFO (/dev/stdout,
 * /dev/null, a pipe) is written directly: it holds no file to lose.
 *
 * It does not choose names, make folders or know what is written.
 */
#ifndef WB_OUTFILE_H
#define WB_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/* An output file being written.  Fields are read-only for callers but f. */
struct wb_outfile {
	FILE *f;     /* write here */
	char *path;  /* the target as the user named it (for messages) */
	char *final; /* the file the rename replaces; NULL when direct */
	char *tmp;   /* the temporary file beside final; NULL when direct */
	int force;   /* an existing file may be replaced */
};

/* Opens path for writing as described above.  guard is the file that
 * must never be written (the progress database path), or NULL.  Returns
 * 0 with *o filled (finish with wb_outfile_commit or wb_outfile_abort);
 * WB_EINVAL when path is refused (the guarded file, an existing file
 * without force, not a file), WB_EIO or WB_ENOENT when it cannot be
 * created; err (errlen bytes) then holds a whole sentence naming path.
 * Nothing has been written or created on failure. */
int wb_outfile_open(struct wb_outfile *o, const char *path, const char *guard, int force, char *err,
		    size_t errlen);

/* Flushes and closes o->f and puts the file in place: renames the
 * temporary file onto the target, after checking again that the target
 * has not become the guarded file (or, without force, appeared).
 * Returns 0, or WB_EIO/WB_ENOSPC/WB_EINVAL with err saying why; the
 * target is then as it was before wb_outfile_open.  Frees what o holds
 * either way. */
int wb_outfile_commit(struct wb_outfile *o, const char *guard, char *err, size_t errlen);

/* Closes o->f and removes the temporary file: the target stays as it
 * was.  Frees what o holds.  Accepts an o never opened (zeroed). */
void wb_outfile_abort(struct wb_outfile *o);

#endif
