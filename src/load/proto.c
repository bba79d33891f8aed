/*
 * proto.c — the request record of proto.h and the transport-name mapping.
 */
#include "load/proto.h"

#include <string.h>

static const uint8_t magic[4] = { 'S', 'B', 'L', '1' };

void sb_load_req_encode(const struct sb_load_req *r, uint8_t buf[SB_LOAD_REQ_BYTES])
{
	memset(buf, 0, SB_LOAD_REQ_BYTES);
	memcpy(buf, magic, sizeof(magic));
	buf[4] = r->prio;
	for (int i = 0; i < 8; i++)
		buf[8 + i] = (uint8_t)(r->size >> (56 - 8 * i));
	size_t n = strnlen(r->cc, SB_LOAD_CC_LEN - 1);
	memcpy(buf + 16, r->cc, n);
}

int sb_load_req_decode(const uint8_t buf[SB_LOAD_REQ_BYTES], struct sb_load_req *r)
{
	if (memcmp(buf, magic, sizeof(magic)) || buf[4] > 7 || buf[5] || buf[6] || buf[7])
		return -1;
	if (!memchr(buf + 16, 0, SB_LOAD_CC_LEN))
		return -1;
	r->prio = buf[4];
	r->size = 0;
	for (int i = 0; i < 8; i++)
		r->size = r->size << 8 | buf[8 + i];
	memcpy(r->cc, buf + 16, SB_LOAD_CC_LEN);
	return 0;
}

/* The simulator's TCPs and the kernel modules that play them (docs/testbed.md). */
static const struct {
	const char *sim, *linux_name;
} cc_map[] = {
	{ "dctcp", "dctcp" },
	{ "newreno", "reno" },
	{ "cubic", "cubic" },
};

const char *sb_load_linux_cc(const char *name)
{
	for (size_t i = 0; name && i < sizeof(cc_map) / sizeof(cc_map[0]); i++)
		if (!strcmp(name, cc_map[i].sim))
			return cc_map[i].linux_name;
	return NULL;
}
