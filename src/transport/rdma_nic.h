/*
 * rdma_nic.h — the RDMA NIC's queue-pair scheduler: which QP sends next, and when.
 *
 * A host has one scheduler per priority, made by its first RDMA flow, which registers it as the
 * pull source of the host's NIC port (net/port.h). Each scheduler holds its active QPs in two
 * places:
 *
 *   the ready ring   QPs whose rate allows a packet by the time the link is free, served
 *                    round robin, one packet per turn;
 *   the paced heap   QPs held back by their rate, ordered by the start time of their next
 *                    packet (ties by flow id, so the order is deterministic).
 *
 * When the port selects the priority, it pulls: the scheduler moves every due QP from the heap
 * to the ring, takes the ring's head, builds its packet (sb_rdma_next_packet) and puts the QP
 * back at the tail, or in the heap when its rate makes it wait, or nowhere when it has nothing
 * left to send (window full, or everything sent and waiting for ACKs). The port's
 * "transmission done" event is what brings the next pull, so QPs that together fill the link
 * cost no event of their own. Only when every active QP waits for its rate does the scheduler
 * arm one timer, for the earliest of them; when it fires the priority becomes ready again.
 * A paused priority is not pulled: QPs wait in the scheduler, not in a NIC queue.
 *
 * Removal is lazy: a QP that completes or runs out of window stays where it is until the
 * scheduler meets it and finds it has nothing to send.
 */
#ifndef SB_RDMA_NIC_H
#define SB_RDMA_NIC_H

struct sb_flows;
struct sb_flow;
struct sb_rdma_qp;
struct sb_rdma_nic;

/* The QP may have something to send (it started, its window opened, it went back): put an
 * idle QP in its scheduler and wake the NIC. Does nothing for a QP already scheduled. */
void sb_rdma_nic_activate(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp);
/* The QP's next_send moved (its rate changed): re-order it and re-time the scheduler. */
void sb_rdma_nic_repace(struct sb_flows *fl, struct sb_flow *f, struct sb_rdma_qp *qp);
void sb_rdma_nic_free(struct sb_rdma_nic *nic);

#endif
