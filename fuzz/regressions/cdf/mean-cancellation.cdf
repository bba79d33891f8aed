# 0 bytes up to 1 - 9e-15, then 1 byte: 1 - p0 cancelled to 2 digits and the flow mean came out 1.0125 bytes of a curve that ends at 1 (fuzz_cdf)
0   0.999999999999991
1 1
