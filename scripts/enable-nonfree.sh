#!/usr/bin/env bash
# Adds the contrib and non-free components to Debian's apt sources (the CUDA toolkit,
# nvidia-cuda-toolkit, is in non-free), in the one-line format of /etc/apt/sources.list and in
# the deb822 format of /etc/apt/sources.list.d/*.sources. It changes only Debian entries that
# have the main component, and leaves the others alone; it is idempotent.
# Usage: enable-nonfree.sh [FILE...]   (default: the system's source files)
set -euo pipefail
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && files+=("$f")
	done
fi
# archive matches the URI of a Debian archive or mirror: …/debian or …/debian-security.
archive='://[^ ]*/debian(-security)?/?( |$)'
# add LINE: appends the components missing from a one-line entry that has main.
add() {
	local have=" $1 " out="$1"
	for c in contrib non-free; do
		[[ $have == *" $c "* ]] || out="$out $c"
	done
	printf '%s' "$out"
}
for f in "${files[@]}"; do
	tmp=$(mktemp)
	if [[ $f == *.sources ]]; then
		# deb822: the "Components:" field of a stanza whose URIs are a Debian archive.
		awk '
			function addc(s,   out) {
				out = s
				if ((" " s " ") !~ / contrib /) out = out " contrib"
				if ((" " s " ") !~ / non-free /) out = out " non-free"
				return out
			}
			function flush(   i, l) {
				for (i = 1; i <= n; i++) {
					l = st[i]
					if (debian && l ~ /^Components:/ && (" " l " ") ~ / main /) {
						sub(/^Components:[ \t]*/, "", l)
						l = "Components: " addc(l)
					}
					print l
				}
				n = 0; debian = 0
			}
			/^[ \t]*$/ { flush(); print; next }
			{ st[++n] = $0 }
			/^URIs:/ && $0 ~ archive { debian = 1 }
			END { flush() }
		' archive="$archive" "$f" >"$tmp"
	else
		while IFS= read -r line || [ -n "$line" ]; do
			if [[ $line =~ ^(deb|deb-src)[[:space:]] && $line =~ $archive && " $line " == *" main "* ]]; then
				line=$(add "$line")
			fi
			printf '%s\n' "$line"
		done <"$f" >"$tmp"
	fi
	if ! cmp -s "$f" "$tmp"; then
		cat "$tmp" >"$f"
		echo "enabled contrib non-free in $f"
	fi
	rm -f "$tmp"
done
