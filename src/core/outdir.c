/*
 * outdir.c — one command's ownership of its output directory (see outdir.h).
 *
 * Everything the signal handler touches lives in static storage written before the handler
 * can need it: paths are complete before the flag that publishes them is set, and every
 * change happens with the handled signals blocked, so the handler never sees half a name.
 */
#include "core/outdir.h"

#include "core/safefile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { PATH_CAP = 4096, MAX_TMP = 16 };

static const int handled[] = { SIGINT, SIGTERM, SIGHUP, SIGABRT };

/* the lock */
static char lock_path[PATH_CAP];
static int lock_fd = -1;
static volatile sig_atomic_t lock_held;

/* the directories the claim created: made_path[0, made_top) is the first one created, and
 * every level below it down to made_path itself was created too */
static char made_path[PATH_CAP];
static size_t made_top;
static volatile sig_atomic_t made;

/* registered temporaries */
static struct {
	char path[PATH_CAP];
	volatile sig_atomic_t used;
} tmp[MAX_TMP];

/* stderr is a terminal: a progress line may be half written there (known before any signal) */
static volatile sig_atomic_t stderr_tty;

/* compare's parent: its running children, and the signal that asked it to stop */
static volatile sig_atomic_t *children;
static volatile sig_atomic_t nchildren, deferred, stop_signal;

/* --- what the handler runs: async-signal-safe calls only --- */

static void remove_created(void)
{
	if (!made)
		return;
	char p[PATH_CAP];
	size_t len = strlen(made_path);
	memcpy(p, made_path, len + 1);
	/* deepest level first; rmdir refuses a directory that is not empty, so nothing a user
	 * (or another run) put there is ever removed */
	while (len >= made_top) {
		p[len] = 0;
		if (rmdir(p))
			break;
		while (len > 0 && p[len - 1] != '/')
			len--;
		while (len > 0 && p[len - 1] == '/')
			len--;
		if (len == 0)
			break;
	}
	made = 0;
}

static void cleanup(bool failed)
{
	for (size_t i = 0; i < MAX_TMP; i++)
		if (tmp[i].used) {
			unlink(tmp[i].path);
			tmp[i].used = 0;
		}
	if (lock_held) {
		/* unlink while still holding it: a command that opened the old file sees, once it
		 * gets the lock, that the name no longer leads there and starts over */
		unlink(lock_path);
		lock_held = 0;
	}
	if (failed)
		remove_created();
}

static void put(const char *s)
{
	ssize_t r = write(STDERR_FILENO, s, strlen(s));
	(void)r;
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "SIGABRT";
}

_Noreturn void sb_outdir_die(int sig)
{
	cleanup(true);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(sig, &sa, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig); /* not reached: the default action of every handled signal ends the process */
}

static void on_signal(int sig)
{
	if (deferred) {
		/* compare's parent: its runs clean up after themselves on SIGTERM; it waits for
		 * them (sb_outdir_stopped) before it ends itself */
		if (!stop_signal)
			stop_signal = sig;
		for (sig_atomic_t i = 0; i < nchildren; i++)
			if (children[i] > 0)
				kill((pid_t)children[i], SIGTERM);
		return;
	}
	put(stderr_tty ? "\nsharebuf: stopped by " : "sharebuf: stopped by ");
	put(signal_name(sig));
	put("\n");
	sb_outdir_die(sig);
}

void sb_outdir_signals(void)
{
	stderr_tty = isatty(STDERR_FILENO);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < SB_ARRAY_LEN(handled); i++)
		sigaddset(&sa.sa_mask, handled[i]);
	for (size_t i = 0; i < SB_ARRAY_LEN(handled); i++) {
		struct sigaction old;
		/* a signal ignored by whoever started us (nohup, a shell's background job) stays
		 * ignored, as the shell convention asks */
		if (sigaction(handled[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(handled[i], &sa, NULL);
	}
}

void sb_outdir_block(sigset_t *saved)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < SB_ARRAY_LEN(handled); i++)
		sigaddset(&set, handled[i]);
	sigprocmask(SIG_BLOCK, &set, saved);
}

void sb_outdir_unblock(const sigset_t *saved)
{
	sigprocmask(SIG_SETMASK, saved, NULL);
}

/* --- the claim --- */

/* DIR without trailing slashes (but "/" stays "/"). */
static int copy_dir(char *dst, const char *dir, struct sb_error *err)
{
	if (!*dir)
		return sb_fail(err, "--out: the output directory name is empty");
	size_t len = strlen(dir);
	if (len >= PATH_CAP - 64)
		return sb_fail(err, "--out: the output directory name is longer than %d bytes", PATH_CAP - 65);
	while (len > 1 && dir[len - 1] == '/')
		len--;
	memcpy(dst, dir, len);
	dst[len] = 0;
	return 0;
}

/* mkdir -p, recording the first level it creates. */
static int make_dirs(const char *dir, struct sb_error *err)
{
	char path[PATH_CAP];
	if (copy_dir(path, dir, err))
		return -1;
	size_t len = strlen(path);
	for (size_t i = 1; i <= len; i++) {
		if (i < len && (path[i] != '/' || path[i - 1] == '/'))
			continue;
		char c = path[i];
		path[i] = 0;
		if (mkdir(path, 0777) == 0) {
			if (!made) {
				memcpy(made_path, path, len + 1); /* the whole path: path[i] is restored below */
				made_path[i] = c;
				made_top = i;
				made = 1;
			}
		} else if (errno != EEXIST) {
			int e = errno;
			path[i] = c;
			char shown[PATH_CAP];
			memcpy(shown, path, i);
			shown[i] = 0;
			return sb_fail(err, "cannot create directory %s: %s", shown, strerror(e));
		}
		path[i] = c;
	}
	return 0;
}

/* The pid in a lock file held by another command (0 if it has not written it yet). */
static long lock_holder(int fd)
{
	char buf[32];
	for (int attempt = 0; attempt < 50; attempt++) {
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n > 0) {
			buf[n] = 0;
			long pid = strtol(buf, NULL, 10);
			if (pid > 0)
				return pid;
		}
		/* the holder writes its pid right after taking the lock: give it a moment */
		struct timespec ts = { 0, 2000000 };
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* Our pid into the lock file; a short write is retried so that the error is the real one
 * (ENOSPC, EFBIG). */
static int write_pid(int fd)
{
	char pid[32];
	size_t n = (size_t)snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	for (size_t done = 0; done < n;) {
		ssize_t w = pwrite(fd, pid + done, n - done, (off_t)done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return -1;
		}
		done += (size_t)w;
	}
	return 0;
}

/* Why the lock file could not be opened, in the user's terms. */
static int lock_open_error(int e, struct sb_error *err)
{
	if (e == ELOOP)
		return sb_fail(err, "--out: %s is a symbolic link, not a sharebuf lock: refusing to follow it (remove it)",
			       lock_path);
	if (e == EINVAL)
		return sb_fail(err, "--out: %s is not a regular file, not a sharebuf lock (remove it)", lock_path);
	if (e == EMLINK)
		return sb_fail(err, "--out: %s has another hard link, not a sharebuf lock: refusing to write it (remove it)",
			       lock_path);
	return sb_fail(err, "--out: cannot create %s: %s", lock_path, strerror(e));
}

static int take_lock(const char *dir, struct sb_error *err)
{
	if ((size_t)snprintf(lock_path, sizeof(lock_path), "%s/.sharebuf.lock", dir) >= sizeof(lock_path))
		return sb_fail(err, "--out: the output directory name is too long");
	for (int attempt = 0;; attempt++) {
		/* never through a link or into a FIFO planted under the lock's name (safefile.h) */
		int fd = sb_safe_lock_open(lock_path);
		if (fd < 0)
			return lock_open_error(errno, err);
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			int e = errno;
			if (e == EWOULDBLOCK) {
				long pid = lock_holder(fd);
				close(fd);
				if (pid > 0)
					return sb_fail(err, "--out: %s is in use by another sharebuf run (pid %ld)", dir, pid);
				return sb_fail(err, "--out: %s is in use by another sharebuf run", dir);
			}
			close(fd);
			return sb_fail(err, "--out: cannot lock %s: %s", lock_path, strerror(e));
		}
		/* The holder before us may have removed the file between our open and our flock:
		 * then we hold a lock on a file nobody else will look at. Take the current one
		 * (lstat: the name itself, which a link put there since would not be). */
		struct stat a, b;
		if (fstat(fd, &a) == 0 && lstat(lock_path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
			if (ftruncate(fd, 0) || write_pid(fd)) {
				int e = errno;
				/* ours (we hold it, and the name leads to it): a lock without a pid would
				 * read as a run that has not started writing, so it goes */
				unlink(lock_path);
				close(fd);
				return sb_fail(err, "--out: cannot write %s: %s", lock_path, strerror(e));
			}
			lock_fd = fd;
			lock_held = 1;
			return 0;
		}
		close(fd);
		if (attempt == 100)
			return sb_fail(err, "--out: cannot lock %s: it keeps being replaced", lock_path);
	}
}

/* ".NAME." followed by mkstemp's six characters, or ".NAME.tmp" (the fixed temporaries of
 * earlier versions). */
static bool is_temporary(const char *entry, const char *name)
{
	size_t n = strlen(name);
	if (entry[0] != '.' || strncmp(entry + 1, name, n) || entry[1 + n] != '.')
		return false;
	const char *suffix = entry + n + 2;
	if (!strcmp(suffix, "tmp"))
		return true;
	if (strlen(suffix) != 6)
		return false;
	for (const char *c = suffix; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
			return false;
	return true;
}

/* Holding the lock, no other command can be writing DIR: a temporary of ours found there is
 * what a killed command (SIGKILL, a crash) left. */
static void remove_dead_temporaries(const char *dir, const char *const *names)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));)
		for (const char *const *n = names; n && *n; n++)
			if (is_temporary(e->d_name, *n)) {
				char p[PATH_CAP + 256];
				snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
				unlink(p);
				break;
			}
	closedir(d);
}

int sb_outdir_claim(const char *dir, const char *const *names, struct sb_error *err)
{
	char d[PATH_CAP];
	if (copy_dir(d, dir, err))
		return -1;
	struct stat st;
	if (stat(d, &st) == 0 && !S_ISDIR(st.st_mode))
		return sb_fail(err, "--out: %s exists and is not a directory", dir);
	sigset_t saved;
	sb_outdir_block(&saved);
	int rc = make_dirs(d, err);
	if (rc == 0 && access(d, W_OK | X_OK))
		rc = sb_fail(err, "--out: cannot write into %s: %s", dir, strerror(errno));
	if (rc == 0)
		rc = take_lock(d, err);
	sb_outdir_unblock(&saved);
	if (rc == 0)
		remove_dead_temporaries(d, names);
	return rc;
}

void sb_outdir_release(bool failed)
{
	sigset_t saved;
	sb_outdir_block(&saved);
	cleanup(failed);
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
	made = 0;
	sb_outdir_unblock(&saved);
}

void sb_outdir_forget(void)
{
	if (lock_fd >= 0)
		close(lock_fd); /* not flock(LOCK_UN): the lock is shared with the parent's descriptor */
	lock_fd = -1;
	lock_held = 0;
	made = 0;
	for (size_t i = 0; i < MAX_TMP; i++)
		tmp[i].used = 0;
	deferred = 0;
	nchildren = 0;
	stop_signal = 0;
}

/* --- temporaries --- */

FILE *sb_outdir_tmp_open(const char *dir, const char *name, char *path, size_t n, struct sb_error *err)
{
	size_t slot = 0;
	while (slot < MAX_TMP && tmp[slot].used)
		slot++;
	if (slot == MAX_TMP) {
		sb_fail(err, "cannot write %s/%s: more than %d temporary files at once", dir, name, MAX_TMP);
		return NULL;
	}
	char t[PATH_CAP];
	if (strlen(dir) + strlen(name) + 10 >= SB_MIN(sizeof(t), n)) {
		sb_fail(err, "cannot write %s/%s: the path is too long", dir, name);
		return NULL;
	}
	sigset_t saved;
	sb_outdir_block(&saved);
	int fd = sb_safe_tmp_create(dir, name, t, sizeof(t));
	int e = errno;
	if (fd >= 0) {
		memcpy(tmp[slot].path, t, strlen(t) + 1);
		tmp[slot].used = 1;
	}
	sb_outdir_unblock(&saved);
	if (fd < 0) {
		sb_fail(err, "cannot write %s/%s: %s", dir, name, strerror(e));
		return NULL;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		e = errno;
		close(fd);
		unlink(t);
		sb_outdir_tmp_done(t);
		sb_fail(err, "cannot write %s/%s: %s", dir, name, strerror(e));
		return NULL;
	}
	memcpy(path, t, strlen(t) + 1);
	return f;
}

void sb_outdir_tmp_done(const char *path)
{
	sigset_t saved;
	sb_outdir_block(&saved);
	for (size_t i = 0; i < MAX_TMP; i++)
		if (tmp[i].used && !strcmp(tmp[i].path, path))
			tmp[i].used = 0;
	sb_outdir_unblock(&saved);
}

int sb_outdir_commit(FILE *const *f, char (*tmp_path)[4096], char *const *final, size_t n, int rc,
		     struct sb_error *err)
{
	for (size_t i = 0; i < n; i++) {
		if (!f[i])
			continue;
		/* the message names the output the user asked for, not its temporary */
		if (sb_safe_fclose(f[i]) && rc == 0)
			rc = sb_fail(err, "cannot write %s: %s", final[i], strerror(errno));
	}
	sigset_t saved;
	sb_outdir_block(&saved);
	size_t renamed = 0;
	for (size_t i = 0; i < n; i++) {
		if (!f[i])
			continue;
		if (rc == 0 && rename(tmp_path[i], final[i]))
			rc = sb_fail(err, "cannot replace %s: %s", final[i], strerror(errno));
		else if (rc == 0)
			renamed = i + 1;
		if (rc)
			unlink(tmp_path[i]);
		sb_outdir_tmp_done(tmp_path[i]);
	}
	if (rc) /* never one file of this set beside one of an earlier set */
		for (size_t i = 0; i < renamed; i++)
			unlink(final[i]);
	sb_outdir_unblock(&saved);
	return rc;
}

/* --- compare's children --- */

void sb_outdir_defer(size_t n)
{
	sigset_t saved;
	sb_outdir_block(&saved);
	free((void *)children);
	children = sb_xcalloc(n, sizeof(*children));
	nchildren = (sig_atomic_t)n;
	stop_signal = 0;
	deferred = 1;
	sb_outdir_unblock(&saved);
}

void sb_outdir_undefer(void)
{
	sigset_t saved;
	sb_outdir_block(&saved);
	deferred = 0;
	nchildren = 0;
	free((void *)children);
	children = NULL;
	sb_outdir_unblock(&saved);
}

void sb_outdir_child(size_t i, pid_t pid)
{
	if (children && i < (size_t)nchildren)
		children[i] = (sig_atomic_t)pid;
}

int sb_outdir_stopped(void)
{
	return (int)stop_signal;
}
