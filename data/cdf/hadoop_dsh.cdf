# hadoop_dsh: Hadoop flow sizes as used for DSH Figs. 12 and 15 (Shan et al., ICDCS 2023, reference [28]):
# public harness qizhang2612/ns3-datacenter commit 282d77c,
# simulator/ns-3.39/examples/DSH/flow-cdf/*.tcl (sizes = packets x 1460 bytes).
# 10 % of flows are exactly 48180 bytes (33 packets).
# Mean (midpoint rule): 4,135,296.7 bytes (the DSH harness: 4,135,297).
# Format: docs/workloads.md. Built into the binary as src/workload/cdf_builtin.c.
# size_bytes cumulative_probability
1460 0
35040 0.1
43800 0.2
48180 0.3
48180 0.4
73000 0.5
77380 0.6
97820 0.7
175200 0.8
233600 0.9
292000 0.95
973820 0.96
9733820 0.97
97333820 0.99
486666180 1
