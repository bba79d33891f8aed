# gen_bursts.awk: the lognormal ON/OFF micro-bursts of the EDT paper's §5.2.1 (Fig. 17)
# as a sharebuf flow list.
#
#   awk -v seed=1 -v end_ms=10000 -v list=bursts.txt -f gen_bursts.awk > bursts.csv
#
# For each output port d = 0..15: the first OFF period starts at a uniformly random phase of
# [0, 58 ms); then ON and OFF alternate, ON ~ lognormal(mean 2 ms, std 2 ms), OFF ~
# lognormal(mean 58 ms, std 58 ms), i.e. sigma^2 = ln 2, mu = ln(mean) - sigma^2/2. An ON period
# of length t is a 2 Gb/s burst: two 1 Gb/s CBR flows of ceil(t / 12 us) packets of 1500 B
# (1452 B payload), from the port's own senders 16+2d and 17+2d. Bursts that would end after
# end_ms are not generated.
#
# The random numbers come from a Park-Miller generator written out here (every product is
# below 2^53, so it is exact in any awk's doubles): the same seed gives the same file with
# mawk, gawk or busybox awk.
#
# stdout: the flow list. `list`: one line per burst, "port start_ns dur_ms packets srcA srcB".
function u() { rng = (rng * 16807) % 2147483647; return rng / 2147483647 }
function gauss() { return sqrt(-2 * log(u())) * cos(2 * 3.141592653589793 * u()) }
BEGIN {
	rng = 1 + (seed * 7919) % 2147483646
	for (i = 0; i < 10; i++) u()
	s2 = log(2); sigma = sqrt(s2)
	pkt_ms = 1500 * 8 / 1e9 * 1e3          # 12 us per packet at 1 Gb/s
	print "start_us,src,dst,size_bytes,priority,transport,class"
	for (d = 0; d < 16; d++) {
		t = 58 * u()
		for (;;) {
			on = exp(log(2) - s2 / 2 + sigma * gauss())
			n = int(on / pkt_ms); if (n * pkt_ms < on) n++
			if (t + n * pkt_ms > end_ms) break
			start_us = sprintf("%.3f", t * 1000)
			a = 16 + 2 * d; b = a + 1
			printf "%s,%d,%d,%d,2,cbr,lossless\n", start_us, a, d, n * 1452
			printf "%s,%d,%d,%d,2,cbr,lossless\n", start_us, b, d, n * 1452
			printf "%d %.0f %.6f %d %d %d\n", d, start_us * 1000, n * pkt_ms, n, a, b > list
			t += n * pkt_ms + exp(log(58) - s2 / 2 + sigma * gauss())
		}
	}
}
