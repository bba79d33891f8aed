/*
 * batch.c — the child-process runner of `compare` and `sweep` (cli/batch.h).
 */
#include "cli/batch.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "core/util.h"
#include "core/outdir.h"

struct child {
	size_t job;
	pid_t pid; /* 0: the slot is free */
	FILE *log;
};

/* Start job i in pool slot `slot`. Returns its pid, 0 when a signal already asked to stop, -1
 * when fork failed (reported). */
static pid_t start(const struct sb_batch *b, size_t i, size_t slot, FILE **log)
{
	int argc;
	char **args = b->args(b->ctx, i, &argc);
	*log = tmpfile(); /* NULL: the child writes to our stderr directly */
	fflush(NULL);
	/* Signals wait until the child is registered (the parent's handler stops registered
	 * children) and until the child has dropped the parent's claim on its directory (the
	 * child's own handler must clean up only what it wrote). */
	sigset_t saved;
	sb_outdir_block(&saved);
	if (sb_outdir_stopped()) {
		sb_outdir_unblock(&saved);
		b->free_args(args);
		return 0;
	}
	pid_t parent = getpid(), pid = fork();
	if (pid == 0) {
		/* a parent killed outright (SIGKILL) stops its runs too, which then clean up as for
		 * any SIGTERM */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(128 + SIGTERM);
		sb_outdir_forget();
		sb_outdir_unblock(&saved);
		if (*log) {
			dup2(fileno(*log), STDOUT_FILENO);
			dup2(fileno(*log), STDERR_FILENO);
		}
		int rc = sb_cmd_run(b->run, argc, args);
		fflush(NULL);
		_exit(rc);
	}
	int e = errno;
	if (pid > 0)
		sb_outdir_child(slot, pid);
	sb_outdir_unblock(&saved);
	b->free_args(args);
	if (pid < 0)
		fprintf(stderr, "sharebuf: %s: cannot start a run: %s\n", b->who, strerror(e));
	return pid;
}

size_t sb_batch_run(const struct sb_batch *b)
{
	size_t slots = (size_t)(b->parallel > 0 ? b->parallel : 1);
	struct child *kids = sb_xcalloc(slots, sizeof(*kids));
	size_t next = 0, running = 0, ended = 0, failed = 0;
	bool broken = false;
	sb_outdir_defer(slots);
	while (!broken && (running || (next < b->n && !sb_outdir_stopped()))) {
		for (size_t s = 0; s < slots && next < b->n && !sb_outdir_stopped(); s++) {
			if (kids[s].pid)
				continue;
			size_t i = next++;
			FILE *log = NULL;
			pid_t pid = start(b, i, s, &log);
			if (pid <= 0) {
				if (log)
					fclose(log);
				failed += pid < 0;
				continue;
			}
			kids[s] = (struct child){ i, pid, log };
			running++;
		}
		/* once a signal asked to stop, the handler has already sent SIGTERM to every
		 * registered child (outdir.c); the loop only waits for them */
		if (b->progress)
			b->progress(b->ctx, ended, running);
		if (!running)
			continue;
		/* Learn which child ended without reaping it: until it is reaped its pid cannot be
		 * reused, so the handler, which may still signal it, never hits another process. */
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOWAIT) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "sharebuf: %s: waiting for the runs failed: %s\n", b->who, strerror(errno));
			broken = true;
			break;
		}
		sigset_t saved;
		sb_outdir_block(&saved);
		for (size_t s = 0; s < slots; s++) {
			if (!kids[s].pid || kids[s].pid != si.si_pid)
				continue;
			int st = 0;
			sb_outdir_child(s, 0);
			while (waitpid(kids[s].pid, &st, 0) < 0 && errno == EINTR)
				;
			running--;
			ended++;
			failed += !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
			b->done(b->ctx, kids[s].job, st, kids[s].log);
			kids[s] = (struct child){ 0, 0, NULL };
		}
		sb_outdir_unblock(&saved);
	}
	sb_outdir_undefer();
	for (size_t s = 0; s < slots; s++) /* only after a failed wait: stop and count the rest */
		if (kids[s].pid) {
			kill(kids[s].pid, SIGTERM);
			int st = 0;
			while (waitpid(kids[s].pid, &st, 0) < 0 && errno == EINTR)
				;
			failed++;
			b->done(b->ctx, kids[s].job, st, kids[s].log);
		}
	free(kids);
	return failed + (b->n - next);
}
