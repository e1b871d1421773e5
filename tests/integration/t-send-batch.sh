# A batch of reports arrives once each, with the right headers and
# decodable attachments; a second run sends nothing new.
make_manifest b-000 000
make_manifest b-003 003
make_manifest b-004 004
"$PERFBOT" run --config "$CONFIG" 2>"$W/err"
check "run exits 0" [ $? = 0 ]
check "summary line" grep -q "run: 3 sent, 0 queued, 0 failed" "$W/err"
for id in b-000 b-003 b-004; do
	check "$id arrives once for the author" [ "$(count alice X-Perfbot-Report $id)" = 1 ]
	check "$id arrives once on the list" [ "$(count perf-reports X-Perfbot-Report $id)" = 1 ]
done
uid=$(search alice X-Perfbot-Report b-003)
fetch alice "$uid" >"$W/b-003.eml"
"$MAILCHECK" "$W/b-003.eml" >"$W/b-003.check" 2>"$W/b-003.body"
mid=$(sql "SELECT message_id FROM outbox WHERE id = 'b-003'")
check "message id as recorded" grep -q "^header Message-Id: <$mid>" "$W/b-003.check"
check "message id form" expr "$mid" : '[0-9]\{12\}\.[0-9a-f]\{16\}-perfbot@example.test$'
check "auto-generated" grep -q "^header Auto-Submitted: auto-generated" "$W/b-003.check"
check "suppress auto responses" grep -q "^header X-Auto-Response-Suppress: All" "$W/b-003.check"
check "regression subject" grep -q "^subject: .*aim7.jobs-per-min -18.0% regression" "$W/b-003.check"
jobsize=$(wc -c <"$TOP/fixtures/seeds/003/head/job.yaml")
check "job.yaml attachment decodes" grep -q "^part text/plain attachment job.yaml $jobsize$" "$W/b-003.check"
check "reproduce attachment" grep -q "^part text/plain attachment reproduce " "$W/b-003.check"
check "Reported-by trailer" grep -q "^| Reported-by: perfbot <perfbot@example.test>" "$W/b-003.body"
check "Closes trailer" grep -q "^| Closes: https://lore.example.test/perf/$mid" "$W/b-003.body"
check "recorded sent" [ "$(sql "SELECT count(*) FROM reports WHERE status = 'sent'")" = 3 ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/err2"
check "second run exits 0" [ $? = 0 ]
check "second run sends nothing" grep -q "run: 0 sent, 0 queued, 0 failed" "$W/err2"
check "still once" [ "$(count alice X-Perfbot-Report b-004)" = 1 ]
