/*
 * dpreport.c — summary.json, queues.csv and occupancy.csv of the software switch.
 */
#include "dataplane/dpreport.h"

#include <errno.h>
#include <jansson.h>
#include <string.h>
#include "core/outdir.h"

const char sb_dp_occupancy_header[] = "time_ns,switch,lossy_bytes,lossless_bytes,mem_bw_util,drops\n";

void sb_dp_write_queues(FILE *f, const struct sb_dp_switch *sw)
{
	fprintf(f, "port,prio,enqueued_pkts,enqueued_bytes,dequeued_pkts,dequeued_bytes,ecn_marked");
	for (int c = 1; c < SB_DROP_NCAUSES; c++)
		fprintf(f, ",drop_%s", sb_drop_cause_name[c]);
	fprintf(f, ",queued_pkts,queued_bytes\n");
	for (uint16_t i = 0; i < sw->nports; i++)
		for (unsigned q = 0; q < SB_MMU_NPRIO; q++) {
			const struct sb_dp_qstats *s = &sw->port[i].qs[q];
			fprintf(f, "%u,%u,%llu,%llu,%llu,%llu,%llu", i, q, (unsigned long long)s->enq_pkts,
				(unsigned long long)s->enq_bytes, (unsigned long long)s->deq_pkts,
				(unsigned long long)s->deq_bytes, (unsigned long long)s->ecn_marked);
			for (int c = 1; c < SB_DROP_NCAUSES; c++)
				fprintf(f, ",%llu", (unsigned long long)s->drops[c]);
			fprintf(f, ",%u,%llu\n", sw->port[i].q[q].pkts, (unsigned long long)sw->port[i].q[q].bytes);
		}
}

static json_t *summary(const struct sb_dp_switch *sw, const struct sb_dp_report_info *info)
{
	json_t *ports = json_array();
	uint64_t ring_drops = 0;
	for (uint16_t i = 0; i < sw->nports; i++) {
		char mac[18];
		const uint8_t *m = sw->mac[i];
		snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
		json_array_append_new(ports, json_pack("{s:i, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I}", "port", i,
						       "interface", info->ifnames[i], "mac", mac, "tx_pkts",
						       (json_int_t)sw->port[i].tx_pkts, "tx_bytes",
						       (json_int_t)sw->port[i].tx_bytes, "control_tx",
						       (json_int_t)sw->port[i].ctrl_tx, "control_enqueued",
						       (json_int_t)sw->port[i].ctrl_enq, "control_dropped",
						       (json_int_t)sw->port[i].ctrl_drops, "rx_ring_dropped",
						       (json_int_t)info->rx_ring_drops[i]));
		ring_drops += info->rx_ring_drops[i];
	}
	json_t *causes = json_object();
	uint64_t ecn = 0;
	for (int c = 1; c < SB_DROP_NCAUSES; c++) {
		uint64_t n = 0;
		for (uint16_t i = 0; i < sw->nports; i++)
			for (unsigned q = 0; q < SB_MMU_NPRIO; q++)
				n += sw->port[i].qs[q].drops[c];
		json_object_set_new(causes, sb_drop_cause_name[c], json_integer((json_int_t)n));
	}
	for (int c = 0; c < SB_DP_NLOCAL; c++)
		json_object_set_new(causes, sb_dp_local_drop_name[c], json_integer((json_int_t)sw->local_drops[c]));
	for (uint16_t i = 0; i < sw->nports; i++)
		for (unsigned q = 0; q < SB_MMU_NPRIO; q++)
			ecn += sw->port[i].qs[q].ecn_marked;
	struct sb_error err = { "" };
	bool conserved = sb_dp_switch_check(sw, &err) == 0;
	uint64_t unit = sw->mmu->cell_bytes ? sw->mmu->cell_bytes : 1;
	json_t *j = json_object();
	json_object_set_new(j, "program", json_string("sharebuf-switch"));
	json_object_set_new(j, "scenario", json_string(info->scenario));
	json_object_set_new(j, "scheme", json_string(sw->scheme));
	json_object_set_new(j, "port_rate_bps", json_integer((json_int_t)sw->rate_bps));
	json_object_set_new(j, "buffer_bytes", json_integer((json_int_t)sw->buffer_bytes));
	json_object_set_new(j, "busy_poll", json_boolean(info->busy_poll));
	json_object_set_new(j, "run_s", json_real((double)info->run_length / (double)SB_SEC));
	json_object_set_new(j, "ports", ports);
	json_object_set_new(j, "received", json_pack("{s:I, s:I}", "pkts", (json_int_t)sw->rx_frames, "bytes",
						     (json_int_t)sw->rx_bytes));
	json_object_set_new(j, "forwarded", json_pack("{s:I, s:I}", "pkts", (json_int_t)sw->fwd_pkts, "bytes",
						      (json_int_t)sw->fwd_bytes));
	json_object_set_new(j, "control", json_pack("{s:I, s:I, s:I, s:I}", "frames", (json_int_t)sw->rx_ctrl,
						    "flooded", (json_int_t)sw->flood_frames, "copies",
						    (json_int_t)sw->ctrl_copies, "lost", (json_int_t)sw->ctrl_lost));
	json_object_set_new(j, "dropped", json_pack("{s:I, s:o}", "pkts", (json_int_t)sb_dp_switch_dropped(sw),
						    "by_cause", causes));
	json_object_set_new(j, "queued_at_exit", json_pack("{s:I, s:I}", "pkts",
							   (json_int_t)sb_dp_switch_queued_pkts(sw), "bytes",
							   (json_int_t)sb_dp_switch_queued_bytes(sw)));
	json_object_set_new(j, "conservation", json_pack("{s:b, s:s}", "ok", conserved, "rule",
							 "received = forwarded + dropped + control + queued"));
	json_object_set_new(j, "peak_occupancy_bytes", json_integer((json_int_t)(sw->mmu->peak_used * unit)));
	json_object_set_new(j, "ecn_marked", json_integer((json_int_t)ecn));
	json_object_set_new(j, "flowtag", json_pack("{s:I, s:I, s:I}", "budget_bytes", (json_int_t)sw->flowtag.budget,
						    "tagged", (json_int_t)sw->flowtag.tagged, "evictions",
						    (json_int_t)sw->flowtag.evictions));
	json_object_set_new(j, "timer_overflow", json_integer((json_int_t)sw->timers.overflow));
	/* frames whose checksum an offload was to fill in: the hosts' tx checksumming is on */
	json_object_set_new(j, "rx_checksum_partial", json_integer((json_int_t)info->rx_csum_partial));
	json_object_set_new(j, "tx_errors", json_integer((json_int_t)info->tx_errors));
	/* lost before "received": the kernel had no free slot in a port's receive ring */
	json_object_set_new(j, "rx_ring_dropped", json_integer((json_int_t)ring_drops));
	return j;
}

/* The header, then the rows the loop streamed (dploop.h), copied as they are; -1 if they
 * cannot be read back. */
static int copy_occupancy(FILE *f, FILE *rows)
{
	fputs(sb_dp_occupancy_header, f);
	if (!rows)
		return 0;
	rewind(rows);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), rows)) > 0)
		fwrite(buf, 1, n, f); /* a write error stays in f's error flag: sb_outdir_commit reports it */
	return ferror(rows) ? -1 : 0;
}

int sb_dp_report_write(const struct sb_dp_switch *sw, const struct sb_dp_report_info *info, const char *dir,
		       struct sb_error *err)
{
	/* as the simulator writes its run directory (docs/outputs.md §1): each file into a new
	 * temporary in DIR, never through a name someone planted, and all three renamed into
	 * place only once all three are complete; on any failure none is */
	enum { SUMMARY, QUEUES, OCCUPANCY, N };
	static const char *const names[N] = { "summary.json", "queues.csv", "occupancy.csv" };
	FILE *f[N] = { NULL };
	char tmp[N][4096], final_buf[N][4096], *final[N];
	int rc = 0;
	for (int i = 0; i < N && rc == 0; i++) {
		final[i] = final_buf[i];
		if ((size_t)snprintf(final[i], sizeof(final_buf[i]), "%s/%s", dir, names[i]) >= sizeof(final_buf[i]))
			rc = sb_fail(err, "cannot write %s/%s: the path is too long", dir, names[i]);
		else if (!(f[i] = sb_outdir_tmp_open(dir, names[i], tmp[i], sizeof(tmp[i]), err)))
			rc = -1;
	}
	if (rc == 0) {
		json_t *j = summary(sw, info);
		if (json_dumpf(j, f[SUMMARY], JSON_INDENT(2) | JSON_PRESERVE_ORDER))
			rc = sb_fail(err, "cannot write %s: %s", final[SUMMARY], strerror(errno ? errno : EIO));
		json_decref(j);
		sb_dp_write_queues(f[QUEUES], sw);
		if (copy_occupancy(f[OCCUPANCY], info->occupancy_rows) && rc == 0)
			rc = sb_fail(err, "cannot read the occupancy samples back from their temporary file: %s",
				     strerror(errno ? errno : EIO));
	}
	return sb_outdir_commit(f, tmp, final, N, rc, err);
}
