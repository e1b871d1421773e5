# A range to bisect on the real servers (issue 33): a manifest with
# 'bisect: true' whose base and head are 40 commits apart in a real git
# repository (its commits made with git, read by perfbot with libgit2);
# the fake farm answers kind bisect from a planted truth (the culprit
# takes 18% of aim7.jobs-per-min, the commit before it does not build).
# The first run starts the bisection (no report yet), the runs after move
# it on a round each, several commits in flight, until one report is
# mailed: its commit line names the planted culprit, a line says how it
# was found, its chart plots the bisect samples, its table the culprit's
# parent against the culprit; nothing is mailed twice.
. tests/integration/life-lib.sh
life_repo
for i in $(seq 1 40); do
	printf '%s\n' "$i" >"$W/repo/f"
	env $GITENV git -C "$W/repo" add f
	env $GITENV git -C "$W/repo" commit -q -m "change $i"
done
base=$(git -C "$W/repo" rev-parse master~40)
head=$(git -C "$W/repo" rev-parse master)
culprit=$(git -C "$W/repo" rev-parse master~13)
broken=$(git -C "$W/repo" rev-parse master~14)
src="$TOP/fixtures/seeds/003"
cat >"$W/manifests/bs-1.yaml" <<EOM
id: bs-1
bisect: true
base: { commit: $base, subject: "first", result_root: $src/base }
head: { commit: $head, subject: "change 40", author: "Dev <alice@example.test>", result_root: $src/head }
metrics: $src/metrics.yaml
EOM
mkdir -p "$W/results"
printf '%s aim7.jobs-per-min *0.82\n%s build fails\n' "$culprit" "$broken" >"$W/results/fake-lkp-trees"
printf '%s\n' '#!/bin/sh' "printf '%s\\n' \"\$@\" >>'$W/farm-args'" \
	"exec '$TOP/scripts/fake-lkp-run' \"\$@\"" >"$W/farm"
chmod +x "$W/farm"
life_tracking
cat >>"$CONFIG" <<EOC
templates:
  report: report-classic
scheduler:
  backend: exec
  argv: ["$W/farm", "{result_root}", "{commit}", "{runs}", "{request_id}", "{kind}", "{job}", "{repo}", "{ref}", "{patch}"]
  results_dir: $W/results
  timeout: 60
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
check "the first run exits 0" [ $? = 0 ]
check "it starts the bisection" grep -q "bisecting report 'bs-1': aim7.jobs-per-min over ${base:0:12}..${head:0:12}" "$W/e0"
check "and mails nothing yet" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'report'")" = 0 ]
check "its first round is several commits in flight" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'bisect' AND report_id = 'bisect-bs-1'")" -ge 2 ]
check "the farm got kind bisect and the tracked tree" [ "$(sed -n '5p;7p' "$W/farm-args" | tr '\n' '|')" = "bisect|$W/repo|" ]
for i in $(seq 1 14); do
	[ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'report'")" = 0 ] || break
	"$PERFBOT" run --config "$CONFIG" 2>>"$W/e1"
done
check "the bisection named the culprit" [ "$(sql "SELECT phase FROM bisections WHERE bisect_id = 'bisect-bs-1'")" = culprit ]
check "one report is queued" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'report' AND id = 'bs-1'")" = 1 ]
m1=$(sql "SELECT message_id FROM outbox WHERE id = 'bs-1'")
check "it reaches the author" life_wait alice Message-ID "$m1" 1
life_body alice "$W/report" "^commit:" Message-ID "$m1"
check "its commit line names the planted culprit" grep -q "^commit: $culprit (\"commit ${culprit:0:12}\")$" "$W/report"
check "a line says how it was found" grep -Eq "^bisected 40 commits in [0-9]+ rounds, [0-9]+ runs; P\(culprit\) [=>] 0\.9[0-9]*$" "$W/report"
check "the commit before it did not build: lower confidence" grep -q "^lower confidence: the commits just before it did not build (1); the change may be in them$" "$W/report"
check "the table compares the culprit's parent and the culprit" grep -q "^  ${culprit:0:10} (\"commit ${culprit:0:12}\")$" "$W/report"
check "the chart's legend" grep -q "^\[O\] bisect-bad  sample$" "$W/report"
o=$(awk '/^ +aim7.jobs-per-min$/ {p = 1; next} p && /^$/ {exit} p' "$W/report" | tr -cd 'O' | wc -c)
check "the chart plots more bisect-bad samples than the culprit has runs" [ "$o" -gt 4 ]
"$PERFBOT" show bs-1 --json --config "$CONFIG" >"$W/show.json"
check "show --json: the bisection, its culprit, its likeliest candidates" python3 -c "import json; d=json.load(open('$W/show.json')); b=d['bisections'][0]; assert b['phase'] == 'culprit' and b['culprit'] == '$culprit' and b['top'][0]['sha'] == '$culprit' and b['top'][0]['p'] >= 0.999 and b['runs'] <= b['max_runs'], b"
"$PERFBOT" show bs-1 --config "$CONFIG" >"$W/show"
check "show prints its rounds, runs and candidates" grep -Eq "^  bisect-bs-1: culprit, round [0-9]+ of 12, [0-9]+ runs of 80, 40 candidates, aim7.jobs-per-min; culprit ${culprit:0:12}$" "$W/show"
check "and the culprit's posterior" grep -Eq "^    ${culprit:0:12} P = (0\.99[0-9]*|1\.0000), [0-9]+ runs$" "$W/show"
"$PERFBOT" status --json --config "$CONFIG" >"$W/status.json"
check "status --json: the bisection with its culprit" python3 -c "import json; b=json.load(open('$W/status.json'))['bisections']; assert len(b) == 1 and b[0]['report_id'] == 'bs-1' and b[0]['phase'] == 'culprit' and b[0]['culprit'] == '$culprit' and b[0]['candidates'] == 40 and 0 < b[0]['runs'] <= b[0]['max_runs'] and b[0]['rounds'] > 0, b"
"$PERFBOT" status --config "$CONFIG" >"$W/status"
check "status lists it" grep -Eq "^  id: bisect-bs-1, report_id: bs-1, phase: culprit, metric: aim7.jobs-per-min, candidates: 40, rounds: [0-9]+, runs: [0-9]+, max_runs: 80, top: $culprit, top_p: [0-9.e-]+, culprit: $culprit, why: -, updated: " "$W/status"
check "every bisect request ended" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'bisect' AND status NOT IN ('done', 'failed')")" = 0 ]
check "the broken commit was a skip" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'bisect' AND status = 'done' AND commit_sha = '$broken'")" = 0 ]
: >"$W/farm-args"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "a run after asks nothing" [ ! -s "$W/farm-args" ]
check "and mails nothing twice" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'report'")" = 1 ]
