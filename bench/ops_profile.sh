# Sourced by bench/gpt_ops.sh and bench/minilm_ops.sh: the method they share for putting one
# training step's time op by op beside PyTorch's.
#
#   go_ops BINARY SHORT LONG STEPS CPU_MS GROUPS
# prints "goaccel total CPU_MS" and one "goaccel GROUP MS" line per group of GROUPS ("row:Fn,Fn
# row:Fn ..."). SHORT and LONG are CPU profiles of the same benchmark run for fewer and for more
# steps: their difference holds steady steps only (the model's construction, the first steps'
# page faults and the optimizer's state allocation cancel out). Fn is a backend kernel ("Gemm",
# cpu.(*CPU).Gemm) or, with its package, any function ("tensors.Dropout"); a row is the
# cumulative seconds of its functions in that difference, as a share of the difference's total,
# times CPU_MS. Samples under a packaged function count in its row only, never again in a
# kernel's. STEPS is how many more steps LONG ran: when the difference's samples are not about
# STEPS × CPU_MS (a loaded machine can lose profile samples), a line on stderr says the rows are
# unreliable.
#
#   ops_table   (stdin: "goaccel ..." and "torch ..." lines)
# prints the table: a row per group, "rest" (what no row holds), "step", and the ratio.
go_ops() {
	local bin=$1 short=$2 long=$3 steps=$4 cpu=$5 groups=$6 ignore prof sign
	# Functions named with their package: counted in their row and ignored for the kernels' rows.
	ignore=$(tr ' ,' '\n\n' <<<"$groups" | sed 's/^[a-z_0-9]*://' | grep '\.' | sed 's/[.()*]/\\&/g; s/$/$/' | paste -sd'|')
	for prof in "$long" "$short"; do
		sign=1
		[ "$prof" = "$short" ] && sign=-1
		echo "# total $sign"
		go tool pprof -top -cum -unit=ms -nodecount=100000 "$bin" "$prof" 2>/dev/null
		echo "# kernels $sign"
		go tool pprof -top -cum -unit=ms -nodecount=100000 ${ignore:+-ignore="$ignore"} "$bin" "$prof" 2>/dev/null
	done | awk -v cpu="$cpu" -v steps="$steps" -v groups="$groups" '
		function secs(v) { if (v ~ /ms$/) { sub(/ms$/, "", v); return v / 1000 } sub(/s$/, "", v); return v }
		/^# / { part = $2; sign = $3; next }
		part == "total" && /Total samples/ { total += sign * secs($(NF - 1)) }
		part == "total" && NF >= 6 { t[$6] += sign * secs($4) }
		part == "kernels" && $6 ~ /backend\/cpu\.\(\*CPU\)\.[A-Za-z]+$/ { m = $6; sub(/.*\)\./, "", m); k[m] += sign * secs($4) }
		END {
			if (total <= 0) { print "ops_profile: the longer profile holds no more samples than the shorter" > "/dev/stderr"; exit 1 }
			if (total / (steps * cpu / 1000) < 0.8 || total / (steps * cpu / 1000) > 1.25)
				printf "# ops_profile: unreliable rows: the profiles differ by %.2f s of samples, %d steps of %.1f ms make %.2f s\n", total, steps, cpu, steps * cpu / 1000 > "/dev/stderr"
			print "goaccel total " cpu
			n = split(groups, g, " ")
			for (i = 1; i <= n; i++) {
				split(g[i], kv, ":"); nf = split(kv[2], fs, ","); s = 0
				for (j = 1; j <= nf; j++) {
					if (fs[j] !~ /\./) { s += k[fs[j]]; continue }
					for (f in t) if (substr(f, length(f) - length(fs[j]) + 1) == fs[j] && substr(f, length(f) - length(fs[j]), 1) == "/") s += t[f]
				}
				printf "goaccel %s %.2f\n", kv[1], s / total * cpu
			}
		}'
}

ops_table() {
	awk '
		{ v[$1, $2] = $3; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
		END {
			printf "%-16s %9s %9s %7s\n", "op", "goaccel", "PyTorch", "ratio"
			for (i = 1; i <= n; i++) {
				k = order[i]
				if (k == "total") continue
				gs += v["goaccel", k]; ts += v["torch", k]
				row(k, v["goaccel", k], v["torch", k])
			}
			row("rest", v["goaccel", "total"] - gs, v["torch", "total"] - ts)
			row("step", v["goaccel", "total"], v["torch", "total"])
		}
		function row(k, a, b) {
			if (b > 0) printf "%-16s %9.2f %9.2f %6.2fx\n", k, a, b, a / b
			else printf "%-16s %9.2f %9s %7s\n", k, a, "-", "-"
		}'
}
