/*
 * safefile.h — creating a file in a directory that someone else may also write (we run as
 * root: docs/outputs.md §1 "How files are written").
 *
 * A name in an output directory may have been planted before we open it: a symbolic link to
 * /etc/passwd, a hard link to it, a FIFO that blocks open(). Each primitive here creates or
 * opens only what it can prove is its own:
 *
 *   sb_safe_tmp_create   a new file DIR/.NAME.XXXXXX, created with O_EXCL (which never follows
 *                        a symbolic link: POSIX open(), "O_CREAT and O_EXCL are set ... if the
 *                        path names a symbolic link, fail with EEXIST"), to be renamed over
 *                        DIR/NAME once complete; rename(2) replaces a link at NAME, never its
 *                        target;
 *   sb_safe_lock_open    DIR/.sharebuf.lock, opened or created with O_NOFOLLOW and O_NONBLOCK,
 *                        accepted only if it is a regular file with one link;
 *   sb_safe_fclose       fclose with every write error counted (ferror, the flush of fclose).
 *
 * All three return -1 with errno set on failure, so that the caller's message names the file
 * the user knows (the final output, not a temporary) with strerror(errno).
 */
#ifndef SB_SAFEFILE_H
#define SB_SAFEFILE_H

#include <stddef.h>
#include <stdio.h>

/* A new DIR/.NAME.XXXXXX open for writing, with the permissions fopen would give (0666 less
 * the umask), its path in path[0, n). The fd, or -1 with errno (ENAMETOOLONG if the path does
 * not fit). */
int sb_safe_tmp_create(const char *dir, const char *name, char *path, size_t n);

/* Open PATH read-write, creating it (0666 less the umask) if it is missing, for a lock. -1 with
 * errno ELOOP if PATH is a symbolic link, EINVAL if it is not a regular file (a FIFO, a device,
 * a directory), EMLINK if it has more than one link (a hard link to another file). */
int sb_safe_lock_open(const char *path);

/* Close f: 0, or -1 with errno (EIO if only the stream's error flag says a write failed). */
int sb_safe_fclose(FILE *f);

#endif
