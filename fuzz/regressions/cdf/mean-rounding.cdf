# 99.2 % at 0 bytes, the rest up to 1 byte: the flow mean came out one ulp above 1 (fuzz_cdf)
0 0.99201
1 1
