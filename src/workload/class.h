/*
 * class.h — the traffic class of a workload's flows: lossy or lossless.
 *
 * A lossless flow's data travels in a PFC-protected priority (docs/pfc.md); a lossy one may be
 * dropped by a switch's MMU. A scenario workload names its class (`class = "lossless"`, or
 * AUTO: the transport's default, sb_transport_ops.lossless_by_default), and each line of a
 * flow file names one (workload/flowfile.h). It is defined here, in the workload layer that
 * reads it, so that the flow-file reader needs nothing from the scenario (scenario/scenario.h).
 */
#ifndef SB_WORKLOAD_CLASS_H
#define SB_WORKLOAD_CLASS_H

enum { SB_CLASS_LOSSY = 0, SB_CLASS_LOSSLESS, SB_CLASS_AUTO };

#endif
