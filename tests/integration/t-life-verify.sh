# A landed fix verified by a run (tracking.verify) in a real repository:
# two reports are mailed; a fix of each (Closes: its archive link) lands
# on the tracked branch; the next run finds both, answers "fix landed" in
# each thread and asks the farm (kind verify, the fixing commit, no repo,
# ref or patch); the fake farm brings one back and leaves the other as it
# was (lines of fake-lkp-trees keyed by the commit); the run after answers
# each thread with the three commits' table, the runs, the evidence and
# the verdict: the first 'fixed', the second 'not fixed', as their records
# say ('show --json', 'status --json'); nothing is asked or said twice.
. tests/integration/life-lib.sh
make_manifest lv-1 003
make_manifest lv-2 003
life_repo
life_tracking
printf '  verify: true\n' >>"$CONFIG"
mkdir -p "$W/results"
printf '%s\n' '#!/bin/sh' "printf '%s\\n' \"\$@\" >>'$W/farm-args'" \
	"exec '$TOP/scripts/fake-lkp-run' \"\$@\"" >"$W/farm"
chmod +x "$W/farm"
sed -i 's/^  mails_per_hour: 1000$/  mails_per_hour: 1000\n  default_runs: 6/' "$CONFIG"
cat >>"$CONFIG" <<EOC
scheduler:
  backend: exec
  argv: ["$W/farm", "{result_root}", "{commit}", "{runs}", "{request_id}", "{kind}", "{job}", "{repo}", "{ref}", "{patch}"]
  results_dir: $W/results
  timeout: 60
EOC
"$PERFBOT" check --config "$CONFIG" >"$W/check" 2>&1
check "check accepts tracking.verify" grep -q "each fix is run (tracking.verify)" "$W/check"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
check "the reports are mailed" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'report' AND status = 'sent'")" = 2 ]
m1=$(sql "SELECT message_id FROM outbox WHERE id = 'lv-1'")
m2=$(sql "SELECT message_id FROM outbox WHERE id = 'lv-2'")
life_commit "aim7: restore the jobs-per-min\n\nThe regression was a lock taken twice.\n\nReported-by: perfbot <perfbot@example.test>\nCloses: https://lore.example.test/perf/$m1\nSigned-off-by: Dev <dev@example.test>\n"
s1=$(git -C "$W/repo" rev-parse master)
life_commit "aim7: take the lock once more\n\nCloses: https://lore.example.test/perf/$m2\nSigned-off-by: Dev <dev@example.test>\n"
s2=$(git -C "$W/repo" rev-parse master)
# what the fake farm's builds do: the first fix brings the jobs back
printf '%s aim7.jobs-per-min *1.219\n%s aim7.jobs-per-min *1.0\n' "$s1" "$s2" >"$W/results/fake-lkp-trees"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "the run with the fixes exits 0" [ $? = 0 ]
check "both records are 'fix landed'" [ "$(life_status lv-1) $(life_status lv-2)" = "fix landed fix landed" ]
check "a run is asked on each fix" [ "$(sql_list "SELECT report_id || ' ' || commit_sha || ' ' || runs || ' ' || status FROM requests WHERE kind = 'verify' ORDER BY report_id")" = "lv-1 $s1 6 queued,lv-2 $s2 6 queued" ]
check "the record names its run" [ "$(sql "SELECT count(*) FROM records r JOIN requests v ON v.request_id = r.verify_request")" = 2 ]
check "the farm got kind verify, the fix, the head's job, no repo, ref or patch" grep -qx "verify" "$W/farm-args"
check "the farm's commits are the fixes" [ "$(awk 'NR % 9 == 2' "$W/farm-args" | sort | tr '\n' ' ')" = "$(printf '%s\n' "$s1" "$s2" | sort | tr '\n' ' ')" ]
check "the farm's job is the reported commit's" [ "$(sed -n 6p "$W/farm-args")" = "$TOP/fixtures/seeds/003/head/job.yaml" ]
check "no repo, ref or patch" [ "$(sed -n '7p;8p;9p' "$W/farm-args" | tr '\n' '|')" = "|||" ]
check "the log says the runs were asked" grep -q "2 runs on fixes asked" "$W/e1"
check "the landing is answered in each thread" life_wait alice In-Reply-To "$m1" 1
life_body alice "$W/landed" "has landed in master" In-Reply-To "$m1"
check "the landing says the farm was asked" grep -q "^I asked the benchmark farm to run the job on that commit, and will answer$" "$W/landed"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "the follow-up run exits 0" [ $? = 0 ]
check "the first fix is fixed" [ "$(life_status lv-1)" = fixed ]
check "the second is not fixed" [ "$(life_status lv-2)" = "not fixed" ]
check "each run is done with its verdict" [ "$(sql_list "SELECT status || ' ' || detail FROM requests WHERE kind = 'verify' ORDER BY report_id")" = "done fixed,done not fixed" ]
check "the transition is recorded by verify" [ "$(sql "SELECT event || '/' || from_status || '/' || to_status || '/' || by FROM record_events WHERE report_id = 'lv-1' ORDER BY rowid DESC LIMIT 1")" = "verified/fix landed/fixed/verify" ]
check "the log says so" grep -q "of 'lv-1': fixed (fixed)" "$W/e2"
check "the verdict reaches the author" life_wait alice In-Reply-To "$m1" 2
life_body alice "$W/fixed" "^Verdict:" In-Reply-To "$m1"
check "the answer is the fixed verdict" grep -q "^Verdict: fixed\.$" "$W/fixed"
check "it names the fix and its run" grep -q "^I ran this job 6 times on the fix of this report, commit ${s1:0:12} in master$" "$W/fixed"
check "the table has the three commits" grep -q "^  ${s1:0:10} (\"aim7: restore the jobs-per-min\")$" "$W/fixed"
check "the table's headline line" grep -q "aim7.jobs-per-min$" "$W/fixed"
check "the fix's runs of the headline metric" grep -q "^$s1 (the fix):$" "$W/fixed"
check "the evidence against the parent" grep -q "^evidence: 4 runs of the parent and 6 of the fix, Welch's t-test p = " "$W/fixed"
check "and against the reported commit" grep -q "^evidence: 4 runs of the commit and 6 of the fix, Welch's t-test p = " "$W/fixed"
check "the new status" grep -q "^The report's status is now \"fixed\".$" "$W/fixed"
check "the answer copies the list" grep -q "^header Cc: .*perf-reports@example.test" "$W/fixed.check"
check "the second thread's verdict" life_wait alice In-Reply-To "$m2" 2
life_body alice "$W/notfixed" "^Verdict:" In-Reply-To "$m2"
check "it is not fixed" grep -q "^Verdict: not fixed\.$" "$W/notfixed"
check "its status" grep -q "^The report's status is now \"not fixed\".$" "$W/notfixed"
"$PERFBOT" show lv-1 --json --config "$CONFIG" >"$W/show.json"
check "show --json: fixed, with its run" python3 -c "import json; d=json.load(open('$W/show.json')); r=d['record']; v=[x for x in d['requests'] if x['kind'] == 'verify'][0]; assert r['status'] == 'fixed' and r['verdict'] == 'fixed' and v['status'] == 'done' and v['verdict'] == 'fixed' and v['commit'] == '$s1', d"
"$PERFBOT" show lv-2 --config "$CONFIG" >"$W/show2"
check "show: the run on the fix" grep -q "^  .*: verify verify-[0-9a-f]* (${s2:0:12}), 6x, done: not fixed$" "$W/show2"
check "show: the verdict" grep -q "^  verified: not fixed$" "$W/show2"
"$PERFBOT" status --json --config "$CONFIG" >"$W/status.json"
check "status --json lists the runs" python3 -c "import json; d=json.load(open('$W/status.json')); v=sorted((x['report_id'], x['status'], x['detail']) for x in d['requests'] if x['kind'] == 'verify'); assert v == [('lv-1', 'done', 'fixed'), ('lv-2', 'done', 'not fixed')], v; assert [r['verdict'] for r in d['regressions'] if r['report_id'] == 'lv-2'] == ['not fixed']"
: >"$W/farm-args"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
sleep 1
check "a run after asks nothing" [ ! -s "$W/farm-args" ]
check "and answers nothing twice" [ "$(count alice In-Reply-To "$m1") $(count alice In-Reply-To "$m2")" = "2 2" ]
check "nothing queued twice" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'answer'")" = 4 ]
