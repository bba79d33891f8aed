# all of the probability at 0 bytes: sampling looped for ever
0 1
100 1
