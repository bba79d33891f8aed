/*
 * outdir.h — one command's ownership of its output directory (docs/outputs.md §1).
 *
 * `run` and `compare` write into a directory that another command may be writing at the same
 * time, that an earlier command left files in, and that a signal can interrupt at any point.
 * This module gives each of them:
 *
 *   a lock        DIR/.sharebuf.lock, held with flock() for the whole run and holding the
 *                 holder's pid: a second command on DIR fails at once and names the first
 *                 one's pid. flock, not an O_EXCL file, because the kernel drops it when its
 *                 holder dies however it dies (SIGKILL included), so no lock is ever stale;
 *                 opened without following a link (core/safefile.h), and removed again if
 *                 its pid cannot be written;
 *   temporaries   DIR/.NAME.XXXXXX (core/safefile.h): unique, never a planted link, and
 *                 registered so that a signal can remove them; a temporary of a run that was
 *                 killed with SIGKILL is removed by the next command that takes the lock,
 *                 since nobody else can be writing;
 *   the directory every level of DIR that the command created is remembered, and removed
 *                 again (only if empty) when the command fails or is stopped;
 *   signals       SIGINT, SIGTERM, SIGHUP and SIGABRT remove the temporaries, the lock and
 *                 the empty directories created, then end the process by the same signal
 *                 (the shell reports 128 + N). The handler only calls async-signal-safe
 *                 functions (unlink, rmdir, write, kill) on names prepared beforehand.
 *                 In `defer` mode (compare's parent while its runs go on) the handler instead
 *                 forwards SIGTERM to the registered child processes and records the signal;
 *                 the parent then waits for them and ends itself (sb_outdir_die).
 *
 * One claim per process: a forked child (compare's runs) drops its parent's with
 * sb_outdir_forget() and takes its own.
 */
#ifndef SB_OUTDIR_H
#define SB_OUTDIR_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include "core/util.h"

/* Install the signal handlers (once, from the command line). */
void sb_outdir_signals(void);

/* Create DIR with its parents if needed, check it is a writable directory, take its lock, and
 * remove temporaries of the given file names left by a killed earlier command (NULL-terminated
 * list). Fails with "DIR is in use by another sharebuf run (pid N)" when the lock is held. */
int sb_outdir_claim(const char *dir, const char *const *names, struct sb_error *err);

/* Give DIR up: remove the lock file; with `failed`, also the directories the claim created,
 * if they are empty. Safe to call without a claim. */
void sb_outdir_release(bool failed);

/* In a child process after fork(): forget the parent's claim, temporaries and children
 * without touching them (the parent still owns them), and leave defer mode. */
void sb_outdir_forget(void);

/* A new temporary DIR/.NAME.XXXXXX, open for writing, its path copied to `path`. It is
 * removed if a signal stops the process before sb_outdir_tmp_done. */
FILE *sb_outdir_tmp_open(const char *dir, const char *name, char *path, size_t n, struct sb_error *err);
/* The temporary at `path` was renamed or removed: forget it. */
void sb_outdir_tmp_done(const char *path);

/* Put a set of `n` files in place whole: close each open f[i] (a write error is a failure),
 * then, with signals held, rename every tmp_path[i] over final[i]. On any failure (or rc != 0 on
 * entry) the temporaries are removed, and so are the finals this call already renamed, so
 * that a file of this set never sits beside one of an earlier set. Entries whose f[i] is NULL
 * were never opened and are skipped. Returns rc, or -1 with err set. */
int sb_outdir_commit(FILE *const *f, char (*tmp_path)[4096], char *const *final, size_t n, int rc,
		     struct sb_error *err);

/* Hold SIGINT, SIGTERM, SIGHUP and SIGABRT (delivered at sb_outdir_unblock): around renames,
 * so that a set of files is put in place whole, and around fork. */
void sb_outdir_block(sigset_t *saved);
void sb_outdir_unblock(const sigset_t *saved);

/* compare's parent: room for `n` running children; defer mode on or off. */
void sb_outdir_defer(size_t n);
void sb_outdir_undefer(void);
/* Register a started child in slot i (signals blocked by the caller), or clear the slot. */
void sb_outdir_child(size_t i, pid_t pid);
/* The signal that arrived in defer mode, or 0. */
int sb_outdir_stopped(void);

/* Clean up as the handler does (temporaries, lock, empty created directories) and end the
 * process by signal `sig`. */
_Noreturn void sb_outdir_die(int sig);

#endif
