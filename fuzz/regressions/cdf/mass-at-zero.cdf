# 99.99 % at 0 bytes: flow rates from the curve mean started 10^4 times too many flows
0 0.9999
1000 1
