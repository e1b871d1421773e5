# bisect.confirmed on the real servers (issue 33): with it every range
# longer than one commit of the tracked tree is bisected instead of
# being reported at once, without 'bisect' in its manifest; a change of
# one commit is reported as ever, and so is a range the tracked tree does
# not hold.
. tests/integration/life-lib.sh
life_repo
for i in $(seq 1 20); do
	printf '%s\n' "$i" >"$W/repo/f"
	env $GITENV git -C "$W/repo" add f
	env $GITENV git -C "$W/repo" commit -q -m "change $i"
done
src="$TOP/fixtures/seeds/003"
one() {	# one ID BASE HEAD: a manifest of seed 003's runs on BASE..HEAD
	cat >"$W/manifests/$1.yaml" <<EOM
id: $1
base: { commit: $2, subject: "base", result_root: $src/base }
head: { commit: $3, subject: "head", author: "Dev <alice@example.test>", result_root: $src/head }
metrics: $src/metrics.yaml
EOM
}
one bp-range "$(git -C "$W/repo" rev-parse master~20)" "$(git -C "$W/repo" rev-parse master)"
one bp-one "$(git -C "$W/repo" rev-parse master~1)" "$(git -C "$W/repo" rev-parse master)"
one bp-away 3da90b159b146672f830bcd2489dd3a1f4e9e089 c0cef30e4ff0dc025f4a1660b8f0ba43ed58426e
mkdir -p "$W/results"
life_tracking
cat >>"$CONFIG" <<EOC
bisect:
  confirmed: true
scheduler:
  backend: exec
  argv: ["$TOP/scripts/fake-lkp-run", "{result_root}", "{commit}", "{runs}", "{request_id}", "{kind}", "{job}", "{repo}", "{ref}", "{patch}"]
  results_dir: $W/results
  timeout: 60
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
check "the run exits 0" [ $? = 0 ]
check "the range of 20 commits is bisected" [ "$(sql "SELECT report_id || ' ' || phase FROM bisections")" = "bp-range search" ]
check "and not reported yet" [ "$(sql "SELECT count(*) FROM outbox WHERE id = 'bp-range'")" = 0 ]
check "the change of one commit is reported as ever" [ "$(sql "SELECT count(*) FROM outbox WHERE id = 'bp-one'")" = 1 ]
check "and so is the range the tree does not hold" [ "$(sql "SELECT count(*) FROM outbox WHERE id = 'bp-away'")" = 1 ]
