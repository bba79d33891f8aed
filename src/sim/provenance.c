/*
 * provenance.c — a run's provenance (provenance.h).
 */
#include "sim/provenance.h"

#include <errno.h>
#include <nettle/sha2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/lines.h"
#include "core/util.h"
#include "scenario/scenario.h"
#include "workload/cdf.h"

#ifndef SB_VERSION
#define SB_VERSION "0.1.0"
#endif
const char sb_version[] = SB_VERSION;

void sb_sha256_hex(const void *data, size_t len, char out[SB_SHA256_HEX])
{
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];
	sha256_init(&ctx);
	sha256_update(&ctx, len, data);
	sha256_digest(&ctx, sizeof(digest), digest);
	for (size_t i = 0; i < sizeof(digest); i++)
		snprintf(out + 2 * i, 3, "%02x", digest[i]);
}

static void append(char **buf, size_t *len, const char *s, size_t n)
{
	*buf = sb_xrealloc(*buf, *len + n + 1);
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = 0;
}

void sb_shell_quote_append(char **buf, size_t *len, const char *arg)
{
	/* plain words stay as they are; anything else goes in single quotes, a ' as '\'' */
	bool plain = *arg != 0;
	for (const char *c = arg; *c; c++)
		plain &= strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%", *c) != NULL;
	if (plain) {
		append(buf, len, arg, strlen(arg));
		return;
	}
	append(buf, len, "'", 1);
	for (const char *c = arg; *c; c++) {
		if (*c == '\'')
			append(buf, len, "'\\''", 4);
		else
			append(buf, len, c, 1);
	}
	append(buf, len, "'", 1);
}

void sb_provenance_init(struct sb_provenance *p, const char *command, int argc, char **argv,
			const char *const *overrides, size_t noverrides, const char *scenario_text)
{
	memset(p, 0, sizeof(*p));
	p->scenario_text = scenario_text;
	sb_sha256_hex(scenario_text, strlen(scenario_text), p->scenario_sha256);
	size_t len = 0;
	append(&p->command_line, &len, "sharebuf ", 9);
	append(&p->command_line, &len, command, strlen(command));
	for (int i = 0; i < argc; i++) {
		append(&p->command_line, &len, " ", 1);
		sb_shell_quote_append(&p->command_line, &len, argv[i]);
	}
	p->overrides = overrides;
	p->noverrides = noverrides;
}

void sb_provenance_free(struct sb_provenance *p)
{
	free(p->command_line);
	p->command_line = NULL;
	for (size_t i = 0; i < p->ninputs; i++)
		free(p->inputs[i].path);
	free(p->inputs);
	p->inputs = NULL;
	p->ninputs = 0;
}

static void hex_digest(struct sha256_ctx *ctx, char out[SB_SHA256_HEX])
{
	uint8_t digest[SHA256_DIGEST_SIZE];
	sha256_digest(ctx, sizeof(digest), digest);
	for (size_t i = 0; i < sizeof(digest); i++)
		snprintf(out + 2 * i, 3, "%02x", digest[i]);
}

int sb_sha256_file(const char *path, char out[SB_SHA256_HEX], struct sb_error *err)
{
	FILE *f = sb_fopen_regular(path); /* a FIFO would never end */
	if (!f)
		return sb_fail(err, "cannot read %s: %s", path, errno == EINVAL ? "not a regular file" : strerror(errno));
	struct sha256_ctx ctx;
	sha256_init(&ctx);
	uint8_t buf[1 << 16];
	size_t got;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		sha256_update(&ctx, got, buf);
	bool bad = ferror(f) != 0;
	fclose(f);
	if (bad)
		return sb_fail(err, "cannot read %s: read error", path);
	hex_digest(&ctx, out);
	return 0;
}

/* `path` absolute (symbolic links resolved when it exists), malloc'd. */
static char *absolute(const char *path)
{
	char *real = realpath(path, NULL);
	if (real || path[0] == '/')
		return real ? real : sb_xstrdup(path);
	char cwd[4096];
	if (!getcwd(cwd, sizeof(cwd)))
		return sb_xstrdup(path);
	size_t len = strlen(cwd) + strlen(path) + 2;
	char *full = sb_xmalloc(len);
	snprintf(full, len, "%s/%s", cwd, path);
	return full;
}

static void add_file(char ***files, size_t *n, const char *path)
{
	char *full = absolute(path);
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*files)[i], full)) {
			free(full);
			return;
		}
	*files = sb_xrealloc(*files, (*n + 1) * sizeof(**files));
	(*files)[(*n)++] = full;
}

char **sb_provenance_input_files(const struct sb_scenario *sc, size_t *n)
{
	char **files = NULL;
	*n = 0;
	if (sc->source && strcmp(sc->source, "(default)"))
		add_file(&files, n, sc->source);
	for (size_t i = 0; i < sc->norigins; i++) /* the files the keys came from: the @includes */
		if (sc->origins[i].file && strcmp(sc->origins[i].file, "(default)"))
			add_file(&files, n, sc->origins[i].file);
	for (size_t w = 0; w < sc->nworkloads; w++) {
		const struct sb_workload *wl = &sc->workloads[w];
		char key[64];
		const char *which = NULL;
		bool builtin_ok = false;
		const char *name = wl->ops->input_file ? wl->ops->input_file(wl->params, &which, &builtin_ok) : NULL;
		if (name && builtin_ok && sb_cdf_builtin_find(name)) /* a built-in CDF is no file */
			name = NULL;
		if (!name)
			continue;
		snprintf(key, sizeof(key), "workloads.%zu.%s", w, which);
		char *opened = sb_scenario_path(sc, key, name); /* relative to its scenario file */
		add_file(&files, n, opened);
		free(opened);
	}
	return files;
}

void sb_provenance_input_files_free(char **files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

int sb_provenance_add_inputs(struct sb_provenance *p, const struct sb_scenario *sc, struct sb_error *err)
{
	size_t n;
	char **files = sb_provenance_input_files(sc, &n);
	p->inputs = sb_xcalloc(n + 1, sizeof(*p->inputs));
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		p->inputs[p->ninputs].path = files[i];
		files[i] = NULL;
		if (rc == 0 && sb_sha256_file(p->inputs[p->ninputs].path, p->inputs[p->ninputs].sha256, err))
			rc = -1;
		p->ninputs++;
	}
	free(files);
	return rc;
}

json_t *sb_provenance_json(const struct sb_provenance *p)
{
	json_t *o = json_object();
	json_object_set_new(o, "version", json_string(sb_version));
	json_object_set_new(o, "commit", json_string(sb_git_commit));
	json_object_set_new(o, "command_line", json_string(p->command_line ? p->command_line : ""));
	json_t *sets = json_array();
	for (size_t i = 0; i < p->noverrides; i++)
		json_array_append_new(sets, json_string(p->overrides[i] ? p->overrides[i] : ""));
	json_object_set_new(o, "overrides", sets);
	json_object_set_new(o, "scenario_sha256", json_string(p->scenario_sha256));
	json_t *in = json_array();
	for (size_t i = 0; i < p->ninputs; i++) {
		json_t *f = json_object();
		json_object_set_new(f, "path", json_string(p->inputs[i].path));
		json_object_set_new(f, "sha256", json_string(p->inputs[i].sha256));
		json_array_append_new(in, f);
	}
	json_object_set_new(o, "inputs", in);
	return o;
}
