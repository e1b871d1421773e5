# Several comparisons of one commit in one mail (issue 31 item 2): seven
# manifests of one commit pair and one of another pair are two mails, the
# first the largest change's with the six others "in addition", each
# with its box and its table; they are recorded as seen in it, so the
# next run sends nothing. A 'retest' of the grouped report reruns every
# comparison (the fake farm adds runs to all fourteen roots) and answers
# with all of them, in the report's thread.
mkdir -p "$W/roots"
OTHERS="aim7 will-it-scale unixbench-score fio-write lmbench3-bandwidth netperf-tcp-stream"
for t in $OTHERS stress-ng-switch hackbench; do
	cp -r "$TOP/fixtures/headline/$t" "$W/roots/"
done
H="$W/roots"
cat >>"$CONFIG" <<EOC
scheduler:
  backend: exec
  argv: ["$TOP/scripts/fake-lkp-run", "{result_root}", "{commit}", "{runs}", "{request_id}"]
  timeout: 60
EOC
group_manifest() {	# group_manifest ID CASE HEAD-SHA
	cat >"$W/manifests/$1.yaml" <<EOM
id: $1
base: { commit: 1111111111111111111111111111111111111111, subject: "mm: the parent", result_root: $H/$2/base }
head: { commit: $3, subject: "mm: the commit", author: "Dev <alice@example.test>", repo: "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git", branch: master, result_root: $H/$2/head }
EOM
}
B=2222222222222222222222222222222222222222
group_manifest g-aim7 aim7 $B
group_manifest g-stress-ng stress-ng-switch $B
group_manifest g-will-it-scale will-it-scale $B
group_manifest g-unixbench unixbench-score $B
group_manifest g-fio fio-write $B
group_manifest g-lmbench3 lmbench3-bandwidth $B
group_manifest g-netperf netperf-tcp-stream $B
group_manifest g-hackbench hackbench 3333333333333333333333333333333333333333
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "run exits 0" [ $? = 0 ]
check "two reports queued" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'report'")" = 2 ]
check "the largest change is the report" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'report' AND id = 'g-stress-ng'")" = 1 ]
for id in g-aim7 g-will-it-scale g-unixbench g-fio g-lmbench3 g-netperf; do
	check "$id seen in the mail of g-stress-ng" [ "$(sql "SELECT outcome FROM manifests WHERE id = '$id'")" = "in the mail of report 'g-stress-ng'" ]
done
set -- $(search alice X-Perfbot-Report g-stress-ng)
check "the grouped mail arrived" [ $# = 1 ]
fetch alice "$1" >"$W/group.eml"
"$MAILCHECK" "$W/group.eml" >/dev/null 2>"$W/group.body"
check "the sentence once" [ "$(grep -c '^In addition to that, the commit also has significant impact on the following tests:$' "$W/group.body")" = 1 ]
check "six comparisons in the box" [ "$(grep -c '^| testcase: change | ' "$W/group.body")" = 6 ]
check "six tables after the report's own" [ "$(grep -c '^\*\{99\}$' "$W/group.body")" = 6 ]
check "seven tables in all" [ "$(grep -c '^=\{89\}$' "$W/group.body")" = 7 ]
for t in will-it-scale aim7 unixbench fio-basic lmbench3 netperf; do
	check "$t in the box" grep -q "^| testcase: change | $t: " "$W/group.body"
done
check "the box in the robot's order" sh -c "grep '^| testcase: change' '$W/group.body' | head -n 1 | grep -q 'will-it-scale.per_process_ops  20.4% regression'"
check "the subject is the report's own" grep -q "stress-ng.switch.ops_per_sec" "$W/group.eml"
set -- $(search alice X-Perfbot-Report g-hackbench)
check "the other pair's mail arrived alone" [ $# = 1 ]
fetch alice "$1" >"$W/alone.eml"
check "no 'In addition' in it" sh -c "! grep -q 'In addition to that' '$W/alone.eml'"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "second run exits 0" [ $? = 0 ]
check "nothing more queued" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'report'")" = 2 ]

# the retest of the grouped report: every comparison rerun, one answer
runs_of() {	# runs_of ROOT: the runs of a result root
	"$PERFBOT" compare "$1" "$1" --json | sed -n 's/^ *"base_runs": \([0-9]*\),/\1/p'
}
before=$(runs_of "$H/aim7/head")
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'g-stress-ng'")
subject=$(sql "SELECT subject FROM outbox WHERE id = 'g-stress-ng'")
{
	printf 'From: Dev <alice@example.test>\nTo: perfbot@example.test\n'
	printf 'Subject: Re: %s\nMessage-ID: <gr-ask-1@example.test>\n' "$subject"
	printf 'In-Reply-To: <%s>\nReferences: <%s>\n\n' "$rmid" "$rmid"
	printf 'retest 4x\n'
} >"$W/rq1"
curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
	-T "$W/rq1" "smtp://127.0.0.1:$SMTP_PORT"
sleep 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "the run with the retest exits 0" [ $? = 0 ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/e4"
check "one retest asked" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'retest'")" = 1 ]
check "the retest done" [ "$(sql "SELECT status FROM requests WHERE kind = 'retest'")" = done ]
for t in $OTHERS stress-ng-switch; do
	for s in base head; do
		n=$(runs_of "$H/$t/$s")
		check "4 runs added to $t's $s ($n)" [ "$n" = $((before + 4)) ]
	done
done
check "the other pair's roots untouched" [ "$(runs_of "$H/hackbench/head")" = "$before" ]
set -- $(search alice In-Reply-To gr-ask-1@example.test)
check "two answers in the thread (ack, follow-up)" [ $# = 2 ]
fetch_matching alice "$W/ack.eml" "will answer in this thread" "$@"
"$MAILCHECK" "$W/ack.eml" >/dev/null 2>"$W/ack.body"
check "the ack says the 6 others are rerun" grep -q "The report's 6 other tests get as many runs" "$W/ack.body"
fetch_matching alice "$W/fu.eml" "^Verdict:" "$@"
"$MAILCHECK" "$W/fu.eml" >/dev/null 2>"$W/fu.body"
check "the follow-up has the 6 others' box" [ "$(grep -c '^| testcase: change | ' "$W/fu.body")" = 6 ]
check "and their tables" [ "$(grep -c '^\*\{99\}$' "$W/fu.body")" = 6 ]
check "the verdict is the report's own test's" grep -q "stress-ng.switch.ops_per_sec changed by" "$W/fu.body"
