# websearch_dsh: Web-search flow sizes as used for DSH Fig. 15 (Shan et al., ICDCS 2023): public harness
# qizhang2612/ns3-datacenter commit 282d77c, simulator/ns-3.39/examples/DSH/flow-cdf/*.tcl,
# (sizes = packets x 1460 bytes).
# 15 % of flows are exactly 8760 bytes (6 packets).
# Mean (midpoint rule): 1,665,830.8 bytes (the DSH harness: 1,665,831).
# Format: docs/workloads.md. Built into the binary as src/workload/cdf_builtin.c.
# size_bytes cumulative_probability
8760 0
8760 0.15
18980 0.2
27740 0.3
48180 0.4
77380 0.53
194180 0.6
973820 0.7
1946180 0.8
4866180 0.9
9733820 0.97
29200000 1
