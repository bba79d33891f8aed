#include "testlib.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cfgfile.h"

void tl_scenario(struct sb_scenario *sc, const char *text, const char *const *sets, size_t nsets)
{
	struct sb_error err = { "" };
	sb_scenario_defaults(sc);
	if (sb_cfg_load(sc, NULL, text, sets, nsets, &err) || sb_scenario_validate(sc, &err))
		fail_msg("scenario: %s", err.msg);
	sc->run.check_invariants = true;
}

void tl_run_checked(struct sb_sim *sim, const struct sb_scenario *sc)
{
	struct sb_error err = { "" };
	if (sb_sim_build(sim, sc, &err))
		fail_msg("build: %s", err.msg);
	sb_sim_run(sim);
	if (sb_sim_check(sim, &err))
		fail_msg("invariants: %s", err.msg);
}

char *tl_tmpdir(void)
{
	char *t = strdup("/tmp/sbtest.XXXXXX");
	if (!t || !mkdtemp(t))
		fail_msg("mkdtemp failed");
	return t;
}

void tl_rmtree(const char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", dir);
}

char *tl_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = 0;
	fclose(f);
	return s;
}
