# A regression followed to its fix in a real repository: the report is
# mailed; a commit with the report's own trailers (Reported-by, Closes:
# its archive link) lands on the tracked branch; the next run finds it,
# the record is 'fix landed' and the thread says so once; 'perfbot show'
# and 'status' show it; a revert of the fix takes it back, said too.
. tests/integration/life-lib.sh
make_manifest lf-1 003
life_repo
life_tracking
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
check "the report is mailed" [ "$(sql "SELECT status FROM outbox WHERE id = 'lf-1'")" = sent ]
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'lf-1'")
check "its record is open" [ "$(life_status lf-1)" = open ]
check "the first walk remembers the tip" [ "$(sql "SELECT count(*) FROM tracking WHERE branch = 'master'")" = 1 ]
life_commit "aim7: restore the jobs-per-min\n\nThe regression was a lock taken twice.\n\nReported-by: perfbot <perfbot@example.test>\nCloses: https://lore.example.test/perf/$rmid\nSigned-off-by: Dev <dev@example.test>\n"
sha=$(git -C "$W/repo" rev-parse master)
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "the run with the fix exits 0" [ $? = 0 ]
check "the record is 'fix landed'" [ "$(life_status lf-1)" = "fix landed" ]
check "with the commit and branch" [ "$(sql "SELECT fix_commit || ' ' || fix_branch FROM records WHERE report_id = 'lf-1'")" = "$sha master" ]
check "the transition is recorded by tracking" [ "$(sql "SELECT event || '/' || by || '/' || source FROM record_events WHERE report_id = 'lf-1'")" = "landed/tracking/$sha" ]
check "the log says so" grep -q "report 'lf-1': fix landed" "$W/e1"
check "the answer reaches the author" life_wait alice In-Reply-To "$rmid" 1
life_body alice "$W/landed" "has landed in master" In-Reply-To "$rmid"
check "it names the commit and how it was found" grep -q "^The fix of this report has landed in master: commit ${sha%????????????????????????????}$" "$W/landed"
check "by its Closes: trailer" grep -q "names this report by its Closes: trailer" "$W/landed"
check "the new status" grep -q "^The report's status is now \"fix landed\".$" "$W/landed"
check "the answer copies the list" grep -q "^header Cc: .*perf-reports@example.test" "$W/landed.check"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
sleep 1
check "a run with nothing new answers nothing" [ "$(count alice In-Reply-To "$rmid")" = 1 ]
check "nothing queued twice" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'answer' AND report_id = 'lf-1'")" = 1 ]
"$PERFBOT" show lf-1 --config "$CONFIG" >"$W/show" 2>"$W/e3"
check "show exits 0" [ $? = 0 ]
check "show: the status" grep -q "^status: fix landed, since " "$W/show"
check "show: the fix" grep -q "^  fix landed: $sha (\"aim7: restore the jobs-per-min\") on master" "$W/show"
check "show: the history" grep -q ": open -> fix landed: landed aim7: restore the jobs-per-min, by tracking ($sha)$" "$W/show"
"$PERFBOT" show "<$rmid>" --json --config "$CONFIG" >"$W/show.json"
check "show --json by Message-ID" python3 -c "import json,sys; d=json.load(open('$W/show.json')); assert d['record']['status'] == 'fix landed' and d['history'][0]['event'] == 'landed' and d['report']['id'] == 'lf-1'"
"$PERFBOT" status --json --config "$CONFIG" >"$W/status.json"
check "status --json lists it open" python3 -c "import json; d=json.load(open('$W/status.json')); assert [r['status'] for r in d['regressions'] if r['report_id'] == 'lf-1'] == ['fix landed'] and d['transitions'][0]['report_id'] == 'lf-1'"
"$PERFBOT" show nonesuch --config "$CONFIG" 2>"$W/e4" >/dev/null
check "show of no report exits 66" [ $? = 66 ]
life_commit "Revert \"aim7: restore the jobs-per-min\"\n\nThis reverts commit $sha.\n\nIt broke the build.\n"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e5"
check "the revert takes the fix back" [ "$(life_status lf-1)" = open ]
check "the revert is answered" life_wait alice In-Reply-To "$rmid" 2
life_body alice "$W/reverted" "was\$" In-Reply-To "$rmid"
check "it says reverted" grep -q "^reverted in master by commit" "$W/reverted"
