/*
 * report.h — what a run measures and writes: buffer occupancy sampling, the progress line,
 * and the output directory (flows.csv, summary.json, occupancy.csv, drops.csv; docs/outputs.md
 * documents every column and key).
 *
 * Every file is first written as a unique hidden temporary file inside the output directory
 * (core/outdir.h) and renamed to its name only once all of them are complete, so a failed or
 * interrupted run leaves no partial file under a real name; output names this run does not
 * write are then removed, so the directory never mixes two runs' files. The command line
 * claims the directory (creates, checks and locks it, sb_outdir_claim) before the simulation
 * starts, so a bad or busy --out fails at once, not after a long run.
 */
#ifndef SB_REPORT_H
#define SB_REPORT_H

#include <stdbool.h>
#include "sim/provenance.h"
#include "sim/sim.h"

struct sb_summary_group {
	uint64_t count;
	double mean, p50, p95, p99;
};

/* Headline metrics, computed from a finished run (also what `sharebuf compare` tabulates). */
struct sb_summary {
	struct sb_summary_group all, small, large, incast; /* FCT slowdown: all, <100 KB, >1 MB, incast */
	struct sb_summary_group qct;                       /* query completion slowdown */
	uint64_t drops_total, drops_lossy, drops_lossless;
	uint64_t p99_occupancy_bytes, max_occupancy_bytes; /* over the samples of sampled switches */
	uint64_t peak_mmu_occupancy_bytes;  /* exact high-water mark of any MMU of those switches */
	uint64_t queries_started, queries_completed;
	double sim_time_s;
	/* memory-bandwidth utilisation of sampled switches (Occamy Fig. 6(b)): mean over samples,
	 * and over drops, each drop weighted with its sampling interval's utilisation */
	double mem_bw_mean, mem_bw_at_drop_mean, mem_bw_at_drop_p50, mem_bw_at_drop_p99;
	uint64_t mem_bw_drops;
};

void sb_report_run_start(struct sb_sim *sim);
void sb_report_progress(struct sb_sim *sim, sb_time now);
void sb_report_run_end(struct sb_sim *sim);
void sb_report_free(struct sb_sim *sim);
/* Flow f was created (flows.c): throughput sampling follows it if it goes to a sampled host. */
void sb_report_flow_created(struct sb_sim *sim, const struct sb_flow *f);
/* Flow f is about to be released (flows.c): throughput sampling takes its received bytes. */
void sb_report_flow_released(struct sb_sim *sim, const struct sb_flow *f);

/* A sample of switch `sw`'s buffer measured outside the engine (the testbed's software switch,
 * docs/testbed.md), kept as the engine's own samples are: a row of occupancy.csv, and in the
 * summary's buffer and memory-bandwidth statistics. For a simulation that is not run. */
void sb_report_add_sample(struct sb_sim *sim, uint32_t sw, sb_time t, uint64_t lossy, uint64_t lossless,
			  double mem_bw_util, uint64_t drops);

void sb_report_summarize(const struct sb_sim *sim, struct sb_summary *out);

/* Print the human summary (stdout of `sharebuf run`). */
void sb_report_print(FILE *f, const struct sb_sim *sim, const struct sb_summary *s, double wall_s);

/* An output file being written: its unique temporary (core/outdir.h) and its final name. */
struct sb_out_file {
	char final[4096], tmp[4096];
	FILE *f;
};

/* The outputs written while the run goes (flows.csv as flows complete, occupancy.csv as
 * samples are taken), so that their rows need no memory. */
enum { SB_STREAM_FLOWS, SB_STREAM_OCCUPANCY, SB_STREAM_N };
struct sb_report_streams {
	struct sb_out_file file[SB_STREAM_N];
};

/* Open flows.csv's and occupancy.csv's temporaries in `dir` (claimed with sb_outdir_claim)
 * and write their headers; call it after sb_sim_build and before sb_sim_run, then
 * sb_report_write with the same `dir` puts them in place with the other files. A run that is
 * not written removes them (sb_sim_free), as a signal does (outdir.h): never a partial file.
 * Without it, sb_report_write writes flows.csv from sim->records (sim->flows.keep_finished) and
 * occupancy.csv from the samples kept in memory. */
int sb_report_stream(struct sb_sim *sim, const char *dir, struct sb_error *err);

/* summary.json's "tcp" keys (struct sb_tcp_counters, sim.h) in their output order, each with
 * the Linux nstat counter it stands for (and a second one summed into it, or NULL): the
 * simulator writes them, and sharebuf-load reads a testbed's hosts into them (load/nstat.h). */
struct sb_tcp_counter_key {
	const char *key;
	const char *linux_name, *linux_also;
	size_t offset; /* in struct sb_tcp_counters */
};
extern const struct sb_tcp_counter_key sb_tcp_counter_keys[];
extern const size_t sb_tcp_ncounter_keys;

/* Every file name sb_report_write may write, NULL-terminated. */
extern const char *const *const sb_report_file_names;

/* The names of the files sb_report_write writes for this run, comma-separated. */
void sb_report_output_list(const struct sb_sim *sim, char *buf, size_t len);

/* Write every output file into `dir` (each replaced atomically), then remove the files of
 * sb_report_file_names that this run does not write. Fails when flows.csv was neither streamed
 * nor kept (sim->flows.keep_finished): its rows are gone. */
int sb_report_write(const struct sb_sim *sim, const char *dir, double wall_s, struct sb_error *err);
/* The same, and with `prov` (NULL: none) also DIR/scenario.cfg (its resolved scenario) and
 * summary.json's "provenance" object, as `sharebuf run` writes them. */
int sb_report_write_provenance(const struct sb_sim *sim, const char *dir, double wall_s,
			       const struct sb_provenance *prov, struct sb_error *err);

/* Nearest-rank percentile of a sorted array: the value at index ceil(p/100·n) − 1. */
double sb_percentile_sorted(const double *v, size_t n, double p);

/* Progress line on stderr (only when it is a terminal and not disabled). */
extern bool sb_report_progress_enabled;

#endif
