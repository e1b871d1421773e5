# A recipient the server refuses is recorded; the others still get it. A
# mail no recipient accepts is failed with the server's reason.
make_manifest r-1 004 nobody-here@example.test
"$PERFBOT" run --config "$CONFIG" 2>"$W/err"
check "list still gets it" [ "$(count perf-reports X-Perfbot-Report r-1)" = 1 ]
check "recipient rejected and recorded" [ "$(sql "SELECT status FROM outbox_recipients WHERE address = 'nobody-here@example.test'")" = rejected ]
check "reply kept" sql_pipe "SELECT reply FROM outbox_recipients WHERE address = 'nobody-here@example.test'" "grep -q '^5'"
sed -i 's/^  cc: .*/  cc: []/' "$CONFIG"
make_manifest r-2 004 nobody-either@example.test
"$PERFBOT" run --config "$CONFIG" 2>"$W/err2"
check "failed permanently" [ "$(sql "SELECT status FROM outbox WHERE id = 'r-2'")" = failed ]
check "reason recorded" sql_pipe "SELECT last_error FROM outbox WHERE id = 'r-2'" "grep -q '^5'"
check "summary counts the failure" grep -q "1 failed" "$W/err2"
