/*
 * provenance.c — a run's provenance (provenance.h).
 */
#include "sim/provenance.h"

#include <nettle/sha2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/util.h"

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
	return o;
}
