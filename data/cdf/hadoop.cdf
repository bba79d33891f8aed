# hadoop: Hadoop flow sizes as used by inet-tub/ns3-datacenter (the file carries no citation;
# usually attributed to a Facebook Hadoop cluster - unverified), file
# simulator/ns-3.39/examples/ABM/hadoop.csv (ABM and Credence experiments), with the file's
# full-precision probabilities.
# Mean (midpoint rule): 3,423,728.355 bytes (about 3.42 MB).
# Format: docs/workloads.md. Built into the binary as src/workload/cdf_builtin.c.
# size_bytes cumulative_probability
325 0
1177 0.01728594
4264 0.022426176
15443 0.027658305
28000 0.06
37323 0.104879491
51067 0.335908276
74908 0.515476971
93293 0.641894623
141819 0.772500294
237853 0.889446481
573344 0.957208265
2076744 0.965639401
7521945 0.9687178
27244995 0.974237092
98686787 0.983862831
223092956 1
