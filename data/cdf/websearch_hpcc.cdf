# websearch_hpcc: Web-search flow sizes as used by the HPCC paper (Li et al., SIGCOMM 2019): file
# traffic_gen/WebSearch_distribution.txt of alibaba-edu/High-Precision-Congestion-Control
# (snapshot 9f4be2a9), percentiles divided by 100. Same points as pFabric's CDF_search.
# Mean (midpoint rule): 1,711,250 bytes.
# Format: docs/workloads.md. Built into the binary as src/workload/cdf_builtin.c.
# size_bytes cumulative_probability
0 0
10000 0.15
20000 0.2
30000 0.3
50000 0.4
80000 0.53
200000 0.6
1000000 0.7
2000000 0.8
5000000 0.9
10000000 0.97
30000000 1
