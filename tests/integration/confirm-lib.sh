# Helpers of the confirmation tests (t-confirm*.sh), sourced by them.
# confirm_roots DIR BASE-SHA HEAD-SHA "BASE VALUES" "HEAD VALUES"
confirm_roots() {
	for side in base head; do
		mkdir -p "$1/$side"
		if [ $side = base ]; then c=$2 v=$4; else c=$3 v=$5; fi
		printf '{"stats_source": [%s], "hackbench.throughput": [%s]}\n' \
			"$(echo $v | sed 's/[^ ][^ ]*/"r"/g; s/ /, /g')" \
			"$(echo $v | sed 's/ /, /g')" >"$1/$side/matrix.json"
		printf 'testcase: hackbench\ntbox_group: lkp-icl-2sp2\ncommit: %s\nhackbench:\n  mode: threads\n' "$c" >"$1/$side/job.yaml"
	done
}
# confirm_manifest ID DIR BASE-SHA HEAD-SHA
confirm_manifest() {
	printf 'id: %s\nbase: { commit: %s, subject: "x: base", result_root: %s/base }\nhead: { commit: %s, subject: "x: head", author: "Dev <alice@example.test>", result_root: %s/head }\n' \
		"$1" "$3" "$2" "$4" "$2" >"$W/manifests/$1.yaml"
}
