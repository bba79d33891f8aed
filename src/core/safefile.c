/*
 * safefile.c — files created without following what someone planted (safefile.h).
 */
#include "core/safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sb_safe_tmp_create(const char *dir, const char *name, char *path, size_t n)
{
	int len = snprintf(path, n, "%s/.%s.XXXXXX", dir, name);
	if (len < 0 || (size_t)len >= n) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* mkostemp opens with O_CREAT | O_EXCL: a name that exists, a link included, is never
	 * opened, and another name is drawn */
	int fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* mkostemp makes the file private (0600); an output gets what fopen would give it */
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask)) {
		/* not fatal: the file is still ours and readable by us */
	}
	return fd;
}

int sb_safe_lock_open(const char *path)
{
	/* O_NOFOLLOW: a planted link fails (ELOOP) instead of leading us to truncate its target;
	 * O_NONBLOCK: a planted FIFO does not hang the open */
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
	if (fd < 0)
		return -1;
	struct stat st;
	int e = 0;
	if (fstat(fd, &st))
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = EINVAL;
	else if (st.st_nlink != 1) /* a hard link: the same inode as a file elsewhere */
		e = EMLINK;
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int sb_safe_fclose(FILE *f)
{
	int failed = ferror(f);
	errno = 0;
	int closed = fclose(f);
	if (!closed && !failed)
		return 0;
	if (!errno) /* the write that failed was an earlier one, its errno gone */
		errno = EIO;
	return -1;
}
