# websearch: Web-search flow sizes from the DCTCP paper (Alizadeh et al., SIGCOMM 2010), as used by
# inet-tub/ns3-datacenter (snapshot 6ddb4a40f4db), file simulator/ns-3.39/examples/Reverie/websearch.txt
# (websearch.csv in the ABM/Credence examples is identical). Used by the Reverie, ABM and
# Credence experiments.
# Mean (midpoint rule, = ns3-datacenter avg_cdf): 1,711,222.5 bytes.
# websearch_hpcc.cdf has the same upper points but 15 % of flows spread over 0-10 KB instead.
# Format: docs/workloads.md. Built into the binary as src/workload/cdf_builtin.c.
# size_bytes cumulative_probability
0 0
2000 0
2100 0.02
2500 0.05
6000 0.1
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
