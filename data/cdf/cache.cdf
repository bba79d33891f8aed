# cache: Cache (memcached-style) flow sizes used for DSH Fig. 15 (Shan et al., ICDCS 2023, which
# cites its reference [28] for both cache and Hadoop; which trace that is was not checked).
# Taken from the public DSH harness qizhang2612/ns3-datacenter commit 282d77c,
# simulator/ns-3.39/examples/DSH/flow-cdf/*.tcl (sizes are packets x 1460 bytes), from a
# transcription of that file: the .tcl file itself could not be read here.
# The first two points make a point mass: 35 % of flows are exactly 1460 bytes.
# Mean (midpoint rule): 910,689.6 bytes (the DSH harness: 910,690).
# Format: docs/workloads.md. Built into the binary as src/workload/cdf_builtin.c.
# size_bytes cumulative_probability
1460 0
1460 0.35
2920 0.4
10220 0.46
18980 0.5
97820 0.6
194180 0.7
973820 0.78
1946180 0.8
2920000 0.9
3893820 0.99
48666180 1
