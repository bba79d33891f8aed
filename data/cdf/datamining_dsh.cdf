# datamining_dsh: Data-mining flow sizes as used for DSH Fig. 15 (Shan et al., ICDCS 2023): public harness
# qizhang2612/ns3-datacenter commit 282d77c, simulator/ns-3.39/examples/DSH/flow-cdf/*.tcl,
# (sizes = packets x 1460 bytes).
# Half of all flows are exactly 1460 bytes (one packet).
# Mean (midpoint rule): 7,470,236 bytes (the DSH harness: 7,470,236).
# Format: docs/workloads.md. Built into the binary as src/workload/cdf_builtin.c.
# size_bytes cumulative_probability
1460 0
1460 0.5
2920 0.6
4380 0.7
10220 0.8
389820 0.9
3076220 0.95
97333820 0.99
973333820 1
