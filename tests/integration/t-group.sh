# Several comparisons of one commit in one mail (issue 31 item 2): four
# manifests of one commit pair and one of another pair are two mails, the
# first the largest change's with the three others "in addition", each
# with its box and its table; they are recorded as seen in it, so the
# next run sends nothing.
H="$TOP/fixtures/headline"
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
group_manifest g-hackbench hackbench 3333333333333333333333333333333333333333
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "run exits 0" [ $? = 0 ]
check "two reports queued" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'report'")" = 2 ]
check "the largest change is the report" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'report' AND id = 'g-stress-ng'")" = 1 ]
for id in g-aim7 g-will-it-scale g-unixbench; do
	check "$id seen in the mail of g-stress-ng" [ "$(sql "SELECT outcome FROM manifests WHERE id = '$id'")" = "in the mail of report 'g-stress-ng'" ]
done
set -- $(search alice X-Perfbot-Report g-stress-ng)
check "the grouped mail arrived" [ $# = 1 ]
fetch alice "$1" >"$W/group.eml"
"$MAILCHECK" "$W/group.eml" >/dev/null 2>"$W/group.body"
check "the sentence once" [ "$(grep -c '^In addition to that, the commit also has significant impact on the following tests:$' "$W/group.body")" = 1 ]
check "three comparisons in the box" [ "$(grep -c '^| testcase: change | ' "$W/group.body")" = 3 ]
check "three tables after the report's own" [ "$(grep -c '^\*\{99\}$' "$W/group.body")" = 3 ]
check "four tables in all" [ "$(grep -c '^=\{89\}$' "$W/group.body")" = 4 ]
for t in will-it-scale aim7 unixbench; do
	check "$t in the box" grep -q "^| testcase: change | $t: " "$W/group.body"
done
check "the box in the robot's order" sh -c "grep '^| testcase: change' '$W/group.body' | head -n 1 | grep -q 'will-it-scale.per_process_ops -20.4%'"
check "the subject is the report's own" grep -q "stress-ng.switch.ops_per_sec" "$W/group.eml"
set -- $(search alice X-Perfbot-Report g-hackbench)
check "the other pair's mail arrived alone" [ $# = 1 ]
fetch alice "$1" >"$W/alone.eml"
check "no 'In addition' in it" sh -c "! grep -q 'In addition to that' '$W/alone.eml'"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "second run exits 0" [ $? = 0 ]
check "nothing more queued" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'report'")" = 2 ]
