# values-fig11.awk: the Fig. 11 numbers of experiments/dsh/REPORT.md, from run.sh's outputs.
# Run by report.sh after experiments/lib/values.awk with -v prefix=f11. and the inputs
#   what=csv fig11.csv what=knees knees.txt [what=knees03 fig11-start0.3/knees.txt]
# fig11.csv: burst_pct,sih_pause_ms,dsh_pause_ms,sih_senders_paused,dsh_senders_paused,
#   sih_bg_pause_ms,dsh_bg_pause_ms,sih_frames,dsh_frames,sih_port_frames,dsh_port_frames,
#   sih_drops,dsh_drops,sih_done,dsh_done
BEGIN { FS = "," }
what == "csv" && FNR > 1 {
	n++; X[n] = $1 + 0; PS[n] = $2; PD[n] = $3; NS[n] = $4; ND[n] = $5; BGS[n] = $6; BGD[n] = $7
	port += $10 + $11; drops += $12 + $13; if ($14 != 16 || $15 != 16) notdone++
	next
}
what == "knees" { split($0, f, " "); K[f[1]] = f[2] / 10; F[f[1]] = f[3] / 10; next }
what == "knees03" { split($0, f, " "); K03[f[1]] = f[2] / 10; F03[f[1]] = f[3] / 10; n03++; next }
END {
	put("knee.sih", fix(K["sih"], 1)); put("knee.dsh", fix(K["dsh"], 1))
	put("first.sih", fix(F["sih"], 1)); put("first.dsh", fix(F["dsh"], 1))
	put("ratio", times(K["dsh"] / K["sih"], 1))
	put("payload.sih", fix(K["sih"] * 1452 / 1500, 1)); put("payload.dsh", fix(K["dsh"] * 1452 / 1500, 1))
	put("kneegap", fix(K["dsh"] - K["sih"], 1))
	check(K["sih"] >= 9 && K["sih"] <= 11 && K["dsh"] >= 39 && K["dsh"] <= 41,
		"the knees (" K["sih"] " %, " K["dsh"] " %) are no longer within 1 % of the paper's 10 % and 40 %")
	check(K["dsh"] / K["sih"] >= 3.8, "DSH's knee is no longer about four times SIH's")
	check(K["dsh"] >= 38.5 && K["dsh"] <= 39.5, "DSH's knee is no longer at the fluid model's 39.0 % (background draining)")
	put("inwithin", (K["sih"] >= 9 && K["sih"] <= 11 && K["dsh"] >= 39 && K["dsh"] <= 41) ? "within 1 %" : "**not** within 1 %")
	# the sweep, transposed
	h = "| burst (% of B) |"; s = "|---|"; a = "| SIH pause (ms) |"; b = "| DSH pause (ms) |"; c = "| fan-in senders paused, SIH / DSH |"
	for (i = 1; i <= n; i++) {
		h = h " " X[i] " |"; s = s "---|"
		a = a " " (PS[i] == 0 ? "0" : fix(PS[i], 3)) " |"; b = b " " (PD[i] == 0 ? "0" : fix(PD[i], 3)) " |"; c = c " " NS[i] " / " ND[i] " |"
	}
	put("table", h "\n" s "\n" a "\n" b "\n" c)
	# first paused grid points, and the slope beyond the knee (ms per 10 % of the buffer)
	for (i = 1; i <= n; i++) { if (!fs && PS[i] > 0) fs = i; if (!fd && PD[i] > 0) fd = i }
	put("grid.sih", X[fs]); put("grid.dsh", X[fd])
	put("grid.dsh.pd", fix(PD[fd], 3)); put("grid.dsh.ps", fix(PS[fd], 1))
	ss = (PS[n] - PS[fs]) / (n - fs); sd = (PD[n] - PD[fd]) / (n - fd)
	put("slope.sih", fix(ss, 2)); put("slope.dsh", fix(sd, 2)); put("slope", fix((ss + sd) / 2, 1))
	# 16 senders, each paused (15/16) dS / C for a burst larger by dS: 15 dS / C in all, in ms
	# for dS = 10 % of 16 MiB at 100 Gb/s
	th = 15 * 0.1 * 16777216 * 8 / 100e9 * 1000
	put("slope.theory", fix(th, 2))
	check(ss > 0.9 * th && ss < 1.1 * th && sd > 0.9 * th && sd < 1.1 * th, "the slopes beyond the knees are no longer 15 dS / C")
	put("end.sih", fix(PS[n], 2)); put("end.dsh", fix(PD[n], 2)); put("end.diff", fix(PS[n] - PD[n], 1))
	put("end.steps", fix((PS[n] - PD[n]) / th, 1)); put("end.pct", fix(10 * (PS[n] - PD[n]) / th, 0))
	lo = 1e9; hi = 0
	for (i = 1; i <= n; i++) { if (BGS[i] < lo) lo = BGS[i]; if (BGD[i] < lo) lo = BGD[i]; if (BGS[i] > hi) hi = BGS[i]; if (BGD[i] > hi) hi = BGD[i] }
	put("bg", range(lo, hi, 2, "ms"))
	put("port", num(port, 0)); put("drops", num(drops, 0))
	check(port == 0, "port-level PAUSE frames were sent in the sweep")
	check(drops == 0, "lossless packets were dropped in the sweep")
	check(!notdone, "fan-in flows did not complete in the sweep")
	if (n03) {
		put("v03.sih", fix(K03["sih"], 1) " % and " fix(F03["sih"], 1) " %"); put("v03.dsh", fix(K03["dsh"], 1) " % and " fix(F03["dsh"], 1) " %")
		check(K03["dsh"] / K03["sih"] >= 3.5, "with the burst at 0.3 ms DSH's knee is no longer about four times SIH's")
	}
	done()
}
