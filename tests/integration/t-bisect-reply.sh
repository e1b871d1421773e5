# The 'bisect' reply command on the real servers (issue 33): a range of
# 30 commits of a real git repository is reported as a range (no
# 'bisect' in its manifest); its author answers "bisect" in the thread;
# the next run starts the bisection and answers that it does (in the
# thread); the runs after move it on through the fake farm (the planted
# culprit takes 18% of aim7.jobs-per-min) until the thread is answered
# with the culprit and how it was found; a second "bisect" is refused as
# done already.
. tests/integration/life-lib.sh
life_repo
for i in $(seq 1 30); do
	printf '%s\n' "$i" >"$W/repo/f"
	env $GITENV git -C "$W/repo" add f
	env $GITENV git -C "$W/repo" commit -q -m "change $i"
done
base=$(git -C "$W/repo" rev-parse master~30)
head=$(git -C "$W/repo" rev-parse master)
culprit=$(git -C "$W/repo" rev-parse master~9)
src="$TOP/fixtures/seeds/003"
cat >"$W/manifests/br-1.yaml" <<EOM
id: br-1
base: { commit: $base, subject: "first", result_root: $src/base }
head: { commit: $head, subject: "change 30", author: "Dev <alice@example.test>", result_root: $src/head }
metrics: $src/metrics.yaml
EOM
mkdir -p "$W/results"
printf '%s aim7.jobs-per-min *0.82\n' "$culprit" >"$W/results/fake-lkp-trees"
life_tracking
cat >>"$CONFIG" <<EOC
scheduler:
  backend: exec
  argv: ["$TOP/scripts/fake-lkp-run", "{result_root}", "{commit}", "{runs}", "{request_id}", "{kind}", "{job}", "{repo}", "{ref}", "{patch}"]
  results_dir: $W/results
  timeout: 60
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
check "the range is reported as it is" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'report' AND id = 'br-1'")" = 1 ]
m1=$(sql "SELECT message_id FROM outbox WHERE id = 'br-1'")
s1=$(sql "SELECT subject FROM outbox WHERE id = 'br-1'")
check "it reaches the author" life_wait alice Message-ID "$m1" 1
life_mail alice@example.test bisect-1@example.test "$m1" "$s1" "Which commit was it?\n\nbisect"
life_settle 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "the run with the reply exits 0" [ $? = 0 ]
check "the bisection is started" [ "$(sql "SELECT report_id FROM bisections WHERE bisect_id = 'bisect-br-1'")" = br-1 ]
check "the asker's request holds the thread" [ "$(sql "SELECT count(*) FROM requests WHERE request_id = 'bisect-br-1' AND kind = 'bisect' AND report_id = 'br-1' AND requested_by = 'alice@example.test'")" = 1 ]
check "its first round is asked" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'bisect' AND report_id = 'bisect-br-1'")" -ge 2 ]
check "the ack is answered in the thread" life_wait alice In-Reply-To "<bisect-1@example.test>" 1
life_body alice "$W/ack" "I am bisecting" In-Reply-To "<bisect-1@example.test>"
check "the ack says what is bisected" grep -q "^I am bisecting ${base:0:10}\.\.${head:0:10} for aim7.jobs-per-min through the farm$" "$W/ack"
for i in $(seq 1 14); do
	[ "$(sql "SELECT status FROM requests WHERE request_id = 'bisect-br-1'")" = done ] && break
	"$PERFBOT" run --config "$CONFIG" 2>>"$W/e2"
done
check "the bisection named the culprit" [ "$(sql "SELECT phase FROM bisections WHERE bisect_id = 'bisect-br-1'")" = culprit ]
check "the asker's request is done" [ "$(sql "SELECT status || ' ' || verdict FROM requests WHERE request_id = 'bisect-br-1'")" = "done culprit" ]
check "the result is answered in the thread" life_wait alice In-Reply-To "<bisect-1@example.test>" 2
life_body alice "$W/result" "is over" In-Reply-To "<bisect-1@example.test>"
check "it names the culprit" grep -q "^commit: $culprit$" "$W/result"
check "and how it was found" grep -Eq "^bisected 30 commits in [0-9]+ rounds, [0-9]+ runs; P\(culprit\) [=>] 0\.9[0-9]*$" "$W/result"
life_mail alice@example.test bisect-2@example.test "$m1" "$s1" "bisect"
life_settle 2
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "a second bisect is answered" life_wait alice In-Reply-To "<bisect-2@example.test>" 1
life_body alice "$W/again" "bisected already" In-Reply-To "<bisect-2@example.test>"
check "as done already" grep -q "^This report's range is bisected already (culprit)\.$" "$W/again"
check "and starts nothing" [ "$(sql "SELECT count(*) FROM bisections")" = 1 ]
