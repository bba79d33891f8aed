# datamining: Data-mining flow sizes as used by inet-tub/ns3-datacenter (the file carries no citation;
# usually attributed to the VL2 measurement, Greenberg et al. SIGCOMM 2009 - unverified),
# file simulator/ns-3.39/examples/ABM/datamining.csv (ABM and Credence experiments).
# Mean (midpoint rule): 5,036,535.175 bytes (about 5.04 MB).
# Format: docs/workloads.md. Built into the binary as src/workload/cdf_builtin.c.
# size_bytes cumulative_probability
100 0
180 0.085
250 0.14
560 0.33
900 0.47
1100 0.55
1870 0.65
3160 0.7
10000 0.8
100001 0.874
400000 0.9
1850000 0.95
10000000 0.97
30000000 0.98
100000000 0.99
250000000 0.995
1000000000 1
