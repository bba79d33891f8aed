# alistorage: Alibaba storage (2019) flow sizes from alibaba-edu/High-Precision-Congestion-Control,
# file traffic_gen/AliStorage2019.txt (snapshot 9f4be2a9), percentiles divided by 100.
# Mean (midpoint rule): 40,869.8 bytes (about 40.9 KB).
# Format: docs/workloads.md. Built into the binary as src/workload/cdf_builtin.c.
# size_bytes cumulative_probability
0 0
4000 0.2293
8000 0.6921
16000 0.8061
32000 0.9047
64000 0.9353
128000 0.9677
256000 0.9753
2000000 1
