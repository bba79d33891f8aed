/*
 * filefeed.h — the `file` workload: a flow list fed to the simulation as the run goes.
 *
 * A flow list can hold tens of millions of flows; creating them all at build time (a flow
 * slot and a pending start event each) made such a file abort at the event queue's 2^24
 * pending events, or be refused by the memory estimate. Instead:
 *
 *   at build  one streaming pass reads and checks the whole file (every message keeps its
 *             FILE:LINE), without holding it: it counts the records, notes the priorities of
 *             lossless lines (the MMUs need them before the run), the queries of a `query`
 *             column, and whether the file is in start order;
 *   the run   reads the file again, a few records ahead of time: when a flow of the file
 *             starts, the records that start within 2 wheel spans (8.4 us, core/event.h) of
 *             the next pending one are read, created and scheduled. So only the flows of that
 *             window exist before they start.
 *
 * The run is the same as if every flow had been created at build time, to the bit: the
 * records' flow ids are reserved at build (sb_flow_table_reserve), and so are the sequence
 * numbers their start events would have taken (sb_eventq_reserve); a record is always read
 * before its start enters the event wheel, where only the sequence orders ties. The records
 * that start within the wheel at build time are scheduled then, as before.
 *
 * A file not in start order is sorted, which needs it whole: it is read into memory (as every
 * file was before) and fed from there the same way. The lines of a `query` column are held
 * during the check (24 bytes each) to group the queries; the run keeps one entry per query.
 *
 * The file must not change during the run: a line that no longer reads as it did aborts the
 * run with its FILE:LINE (the output directory is cleaned as for any abort).
 */
#ifndef SB_FILEFEED_H
#define SB_FILEFEED_H

#include <stddef.h>
#include "core/time.h"

struct sb_error;
struct sb_filefeed;
struct sb_wl_env;
struct sb_wl_world;

/* Check the flow list of workload env->index, `path` as its key `path` says it (NULL = ""),
 * opened where env->path resolves it, and schedule its first records, its flows starting at
 * `start`; sets the lossless priorities' bits of the network (w->flows->net). *out is the feed
 * to free with the workloads; -1 with err set through env->fail ("workloads.N.path:
 * FILE:LINE: ..."). */
int sb_filefeed_start(struct sb_wl_world *w, const struct sb_wl_env *env, const char *path, sb_time start,
		      struct sb_filefeed **out, struct sb_error *err);
void sb_filefeed_free(struct sb_filefeed *feed);

#endif
