/*
 * pfc.h — Priority Flow Control (IEEE 802.1Qbb) between a switch and its neighbours.
 *
 * A lossless scheme in a switch's MMU decides *when* an ingress queue must stop its upstream
 * (sb_mmu_send_pfc / sb_mmu_send_port_pfc); this module carries that decision over the wire
 * and applies it at the other end:
 *
 *   - the frame is 64 bytes in the control queue of the ingress port's transmitter, so it
 *     waits for the packet being serialised and arrives after serialisation + propagation;
 *   - at the upstream (a switch egress port or a host NIC), after an optional processing
 *     delay, the priorities stop being served; the packet already on the wire completes;
 *   - ON/OFF semantics by default (paused until RESUME, as the artifacts of both papers do);
 *     `pfc.mode = quanta` models 802.1Qbb timers instead: a PAUSE holds for quanta × 512 bit
 *     times, the sender refreshes it while the queue stays over its threshold, and RESUME is
 *     a PAUSE with zero quanta;
 *   - port-level frames (DSH) set a port state of their own, which pauses every priority and
 *     never mixes with per-priority state.
 *
 * What it measures (for pfc.csv and summary.json, see docs/pfc.md): every PAUSE/RESUME a
 * switch sends, and at every paused port the time each priority spent paused (per episode
 * and in total). Hosts obey PFC but never send it: they have no MMU.
 */
#ifndef SB_PFC_H
#define SB_PFC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/reclog.h"
#include "core/spill.h"
#include "core/time.h"

struct sb_net;
struct sb_port;
struct sb_packet;

enum { SB_PFC_ONOFF = 0, SB_PFC_QUANTA };

#define SB_PFC_PORT_LEVEL_PRIO 0xFF /* the prio of a port-level event in the log */

/* One frame sent, as logged for pfc.csv. */
struct sb_pfc_event {
	sb_time t;
	uint32_t node;  /* the switch that sent it */
	uint16_t port;  /* its ingress port (the frame goes out of it) */
	uint8_t prio;   /* 0..7, or SB_PFC_PORT_LEVEL_PRIO */
	uint8_t pause;  /* 1 PAUSE, 0 RESUME */
};

/* The run's PFC record: frames logged and closed pause episodes. */
/* Both logs live on disk past a small buffer (core/reclog.h, core/spill.h), so a long lossless
 * run's memory does not grow with its frames. */
struct sb_pfc_record {
	struct sb_reclog *events;   /* struct sb_pfc_event, in sending order (NULL until the first) */
	struct sb_spill *episodes;  /* durations in ps of finished pause episodes (NULL until the first) */
	sb_time episode_max;        /* the longest of them */
	uint64_t refresh_frames;    /* quanta mode: PAUSE frames re-sent to keep a pause alive */
};

/* Send a PAUSE or RESUME for `mask` (or the whole port) out of `port` (the ingress port of the
 * congested queue): logs, counts, and in quanta mode keeps the pause refreshed. */
void sb_pfc_send(struct sb_net *net, struct sb_port *port, uint8_t mask, bool pause, bool port_level);
/* A PFC frame arrived at `port` (which transmits towards the frame's sender). Frees it. */
void sb_pfc_receive(struct sb_net *net, struct sb_port *port, struct sb_packet *frame);
/* Apply a PAUSE/RESUME to a port now: change its pause state and account paused time. */
void sb_port_pfc(struct sb_net *net, struct sb_port *port, uint8_t mask, bool pause, bool port_level);

/* Priorities of `port` that are paused right now, per priority or port-wide. */
uint8_t sb_pfc_paused_mask(const struct sb_net *net, const struct sb_port *port);
/* Total time priority `prio` of `port` has been paused up to now (open episode included). */
sb_time sb_pfc_paused_time(const struct sb_net *net, const struct sb_port *port, unsigned prio);

void sb_pfc_record_free(struct sb_pfc_record *r);

#endif
