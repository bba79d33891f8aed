/*
 * deadlock.h — PFC deadlock detection.
 *
 * PFC can deadlock: when paused queues wait on each other in a cycle (a cyclic buffer
 * dependency, e.g. after link failures break up-down routing), no queue on the cycle can
 * ever drain. The detector builds the wait-for graph of switch egress queues (node, port,
 * priority) that are paused and backlogged: queue A waits on queue B when A's downstream
 * neighbour is B's switch, A's packets would enter that switch through ingress port y, and B
 * holds packets that came in through y (so B draining is what would let the neighbour
 * RESUME A). A cycle in which every queue has stayed paused for `pfc.deadlock_persist_us`
 * is a deadlock (a rule of ours, docs/pfc.md §4). Its onset is when the last queue of the cycle
 * paused.
 *
 * The check runs every `pfc.deadlock_check_us` while any port is paused, so a run without
 * pauses never pays for it and a run does not outlive its traffic because of it.
 */
#ifndef SB_DEADLOCK_H
#define SB_DEADLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/time.h"

struct sb_net;

/* One queue on a deadlocked cycle. */
struct sb_deadlock_member {
	uint32_t node;
	uint16_t port;
	uint8_t prio;
};

struct sb_deadlock {
	sb_time onset;    /* the cycle closed: the last of its queues paused */
	sb_time detected; /* the check that found it */
	size_t first, count; /* its members: detector->members[first .. first+count) */
};

struct sb_deadlock_detector {
	sb_time interval, persist;
	bool armed;                        /* a check is scheduled */
	struct sb_deadlock *found;
	size_t nfound, found_cap;
	struct sb_deadlock_member *members;
	size_t nmembers, members_cap;
	/* scratch for the graph search, one slot per switch egress queue */
	uint32_t *port_base;               /* per switch: index of its first queue */
	uint8_t *state;                    /* search colour per queue */
	int32_t *parent;
};

/* Create the detector (NULL when pfc.deadlock_check_us = 0). */
struct sb_deadlock_detector *sb_deadlock_new(struct sb_net *net);
void sb_deadlock_free(struct sb_deadlock_detector *d);
/* A port began a pause: make sure a check is scheduled. */
void sb_deadlock_pause_started(struct sb_net *net);

#endif
