/*
 * fuzz_scenario.c — the scenario reader (src/scenario/cfgfile.c, cfg_override.c) and the checks
 * after it (sb_scenario_validate, the memory estimate). See fuzz.h.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scenario/cfgfile.h"
#include "fuzz.h"
#include "sim/estimate.h"
#include "workload/cdf.h"
#include "workload/types.h"

/* The estimate reads the CDFs and flow lists a scenario names: only when it names none but
 * built-in CDFs does the harness run it, so that no input makes it open a file. */
static bool names_no_file(const struct sb_scenario *sc)
{
	for (size_t i = 0; i < sc->nworkloads; i++) {
		const struct sb_workload *w = &sc->workloads[i];
		if (w->ops == &sb_workload_file) /* even without a path: it would scan "" */
			return false;
		const char *key;
		bool builtin_ok;
		const char *name = w->ops->input_file ? w->ops->input_file(w->params, &key, &builtin_ok) : NULL;
		if (name && !(builtin_ok && sb_cdf_builtin_find(name)))
			return false;
	}
	return true;
}

static void check_message(const struct sb_error *err)
{
	size_t n = strnlen(err->msg, sizeof(err->msg));
	SB_FUZZ_CHECK(n > 0 && n < sizeof(err->msg), "an error without a message");
	for (size_t i = 0; i < n; i++)
		SB_FUZZ_CHECK((unsigned char)err->msg[i] >= 0x20 && err->msg[i] != 0x7f,
			      "a message of more than one line: %s", err->msg);
}

int sb_fuzz_scenario(const uint8_t *data, size_t size, struct sb_error *why)
{
	/* text only: the reader takes a C string (a file's NUL bytes are refused before it) */
	if (size > 1 << 16 || memchr(data, 0, size))
		return 0;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	if (strstr(text, "@include")) { /* would open files */
		free(text);
		return 0;
	}
	/* --set lines become overrides; the text keeps an empty line in their place */
	size_t nsets = 0;
	for (const char *p = text; (p = strstr(p, "--set ")); p++)
		nsets++;
	char **sets = calloc(nsets + 1, sizeof(*sets));
	nsets = 0;
	for (char *line = text; line && *line;) {
		char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		if (len >= 6 && strncmp(line, "--set ", 6) == 0) {
			sets[nsets] = malloc(len - 5);
			memcpy(sets[nsets], line + 6, len - 6);
			sets[nsets++][len - 6] = 0;
			memset(line, ' ', len);
		}
		line = end ? end + 1 : NULL;
	}

	struct sb_scenario sc;
	struct sb_error err = { "" };
	sb_scenario_defaults(&sc);
	int rc = sb_cfg_load(&sc, NULL, text, (const char *const *)sets, nsets, &err);
	if (rc == 0)
		rc = sb_scenario_validate(&sc, &err);
	if (rc == 0 && names_no_file(&sc)) {
		struct sb_mem_estimate e;
		sb_estimate_memory(&sc, &e);
		SB_FUZZ_CHECK(e.total >= 0 && e.limit > 0, "an estimate of %g bytes", e.total);
		err.msg[0] = 0;
		rc = sb_check_memory(&sc, &err);
		if (rc)
			check_message(&err);
	} else if (rc) {
		check_message(&err);
	}
	if (rc && why)
		*why = err;
	sb_scenario_free(&sc);
	for (size_t i = 0; i < nsets; i++)
		free(sets[i]);
	free(sets);
	free(text);
	return rc ? 1 : 0;
}

#ifdef SB_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sb_fuzz_scenario(data, size, NULL);
	return 0;
}
#endif
