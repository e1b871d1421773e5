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
# retest_spool ID "BASE VALUES" "HEAD VALUES": a report ID of those runs
# (commits $B and $H, roots in $W/roots) sent, the farm a spool in
# $W/spool; 'rmid' is the report's Message-ID
retest_spool() {
	confirm_roots "$W/roots" $B $H "$2" "$3"
	confirm_manifest "$1" "$W/roots" $B $H
	mkdir -p "$W/spool"
	printf 'scheduler:\n  backend: spool\n  spool_dir: %s/spool\n' "$W" >>"$CONFIG"
	"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
	rmid=$(sql "SELECT message_id FROM outbox WHERE id = '$1'")
}
# retest_ask MSGID TEXT: Alice replies TEXT to the report 'rmid'
retest_ask() {
	printf 'From: Alice <alice@example.test>\nTo: perfbot@example.test\nSubject: Re: the report\nMessage-ID: <%s@example.test>\nIn-Reply-To: <%s>\nReferences: <%s>\n\n%s\n' "$1" "$rmid" "$rmid" "$2" |
		curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
			-T - "smtp://127.0.0.1:$SMTP_PORT"
	sleep 1
}
