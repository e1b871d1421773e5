# Issue 29 item 10: the tests of a report can be seen without sqlite3:
# 'show REPORT' (text and --json) lists every test asked in its thread,
# in flight and over, and 'status' (text and --json) the tests that are
# over ('finished_tests'); and a test the farm could not build or apply
# (status failed) does not use up one of limits.tests_per_report.
mkdir -p "$W/roots" "$W/results"
cp -r "$TOP/fixtures/seeds/003/base" "$TOP/fixtures/seeds/003/head" "$W/roots/"
make_manifest tl-1 003
sed -i "s#$TOP/fixtures/seeds/003/base#$W/roots/base#; s#$TOP/fixtures/seeds/003/head#$W/roots/head#" "$W/manifests/tl-1.yaml"
sed -i 's/^  mails_per_hour: 1000$/  mails_per_hour: 1000\n  tests_per_report: 1/' "$CONFIG"
cat >>"$CONFIG" <<EOC
scheduler:
  backend: exec
  argv: ["$TOP/scripts/fake-lkp-run", "{result_root}", "{commit}", "{runs}", "{request_id}", "{kind}", "{job}", "{repo}", "{ref}", "{patch}"]
  results_dir: $W/results
  timeout: 60
  deadline: 3600
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'tl-1'")
check "the report is mailed" [ -n "$rmid" ]
ask() {	# ask MESSAGE-ID DIRECTIVE
	{
		printf 'From: Joanna <alice@example.test>\nTo: perfbot@example.test\nSubject: Re: report\n'
		printf 'Message-ID: <%s>\nIn-Reply-To: <%s>\nReferences: <%s>\n\n' "$1" "$rmid" "$rmid"
		printf 'test\n\n'
		printf 'diff --git a/mm/filemap.c b/mm/filemap.c\n--- a/mm/filemap.c\n+++ b/mm/filemap.c\n'
		printf '@@ -2712,2 +2712,3 @@ ssize_t filemap_read(void)\n \tint a;\n+\t/* fake-lkp-run: %s */\n \tint b;\n' "$2"
	} | curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
		-T - "smtp://127.0.0.1:$SMTP_PORT"
	sleep 0.5
}
ask tl-a@example.test "does not apply"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "the first test failed (the patch did not apply)" [ "$(sql "SELECT status FROM requests WHERE kind = 'test'")" = failed ]
ask tl-b@example.test "aim7.jobs-per-min *1.2"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "a failed test is not counted: the second is run (limit 1)" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'test' AND status <> 'failed'")" = 1 ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "the second test is over" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'test' AND status = 'queued'")" = 0 ]
ask tl-c@example.test "aim7.jobs-per-min *1.2"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e4"
check "a third is refused: the report had its one test" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'test'")" = 2 ]
check "and told so" fetch_matching alice "$W/c.eml" "has had its 1 tests already" $(search alice In-Reply-To tl-c@example.test)

"$PERFBOT" show tl-1 --json --config "$CONFIG" >"$W/show.json" 2>"$W/se"
check "show --json: exit 0 (got $?)" [ $? = 0 ]
check "show --json: both tests, with status and detail" python3 -c "
import json, sys
t = [x for x in json.load(open('$W/show.json'))['requests'] if x['kind'] == 'test']
assert [x['status'] for x in t] == ['failed', 'done'], t
assert 'patch does not apply' in t[0]['detail'], t[0]
assert all(x['form'] == 'patch' and x['requested_by'] == 'alice@example.test' for x in t), t
"
"$PERFBOT" show tl-1 --config "$CONFIG" >"$W/show.txt" 2>&1
check "show: 'requests: 2'" grep -q "^requests: 2$" "$W/show.txt"
check "show: the failed one and why" grep -q "^  .*: test test-[0-9a-f]* ([0-9a-f]*), 4x, failed: error: patch failed: mm/filemap.c:2712" "$W/show.txt"
"$PERFBOT" status --json --config "$CONFIG" >"$W/status.json" 2>&1
check "status --json: finished_tests" python3 -c "
import json
s = json.load(open('$W/status.json'))
f = s['finished_tests']
assert sorted(x['status'] for x in f) == ['done', 'failed'], f
assert all(x['report_id'] == 'tl-1' for x in f), f
assert s['tests'] == [], s['tests']
"
"$PERFBOT" status --config "$CONFIG" >"$W/status.txt" 2>&1
check "status: the finished tests listed" sh -c "grep -q '^finished_tests' '$W/status.txt' && [ \$(grep -c 'report_id: tl-1, form: patch' '$W/status.txt') = 2 ]"
