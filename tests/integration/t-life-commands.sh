# The record commands by mail on the real servers: invalid and reopen,
# dup: by Message-ID and undup, each answered in the thread with the new
# status; a stranger cannot change a record (refused, the record as it
# was); commands.allow can.
. tests/integration/life-lib.sh
make_manifest lc-1 003
make_manifest lc-2 002
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
m1=$(sql "SELECT message_id FROM outbox WHERE id = 'lc-1'")
m2=$(sql "SELECT message_id FROM outbox WHERE id = 'lc-2'")
s1=$(sql "SELECT subject FROM outbox WHERE id = 'lc-1'")
s2=$(sql "SELECT subject FROM outbox WHERE id = 'lc-2'")
life_mail alice@example.test c1@example.test "$m1" "$s1" "Not a real one, the base was misconfigured.\n\ninvalid: the base kernel was misconfigured"
life_settle 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "invalid: the record is invalid" [ "$(life_status lc-1)" = invalid ]
check "with the reason" [ "$(sql "SELECT reason FROM records WHERE report_id = 'lc-1'")" = "the base kernel was misconfigured" ]
check "answered" life_wait alice In-Reply-To c1@example.test 1
life_body alice "$W/a1" "status is now" In-Reply-To c1@example.test
check "the answer says invalid" grep -q "^I marked this report as invalid (\"the base kernel was misconfigured\").$" "$W/a1"
check "and the new status" grep -q "^The report's status is now \"invalid\".$" "$W/a1"
life_mail alice@example.test c2@example.test "$m1" "$s1" "#perfbot reopen"
life_settle 2
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "reopen: open again" [ "$(life_status lc-1)" = open ]
check "reopen answered" life_wait alice In-Reply-To c2@example.test 1
life_mail alice@example.test c3@example.test "$m2" "$s2" "dup: <$m1>"
life_settle 3
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "dup: a duplicate" [ "$(life_status lc-2)" = duplicate ]
check "of the report named" [ "$(sql "SELECT dup_of FROM records WHERE report_id = 'lc-2'")" = lc-1 ]
check "dup: answered" life_wait alice In-Reply-To c3@example.test 1
life_body alice "$W/a3" "duplicate of" In-Reply-To c3@example.test
check "the answer names the other report" grep -q "duplicate of \"\[linus:master\] \[iversion\]  c0cef30e4f:  aim7.jobs-per-min -18.0% regression\" (report lc-1)\.$" "$W/a3"
life_mail alice@example.test c4@example.test "$m2" "$s2" "undup"
life_settle 4
"$PERFBOT" run --config "$CONFIG" 2>"$W/e4"
check "undup: open again" [ "$(life_status lc-2)" = open ]
# a stranger: refused, nothing changes
life_mail mallory@example.test c5@example.test "$m1" "$s1" "invalid"
life_settle 5
"$PERFBOT" run --config "$CONFIG" 2>"$W/e5"
check "a stranger's invalid changes nothing" [ "$(life_status lc-1)" = open ]
check "the stranger is refused" grep -q "c5@example.test> from mallory@example.test: refused" "$W/e5"
check "told once, alone" life_wait mallory In-Reply-To c5@example.test 1
life_body mallory "$W/a5" "I take commands only" In-Reply-To c5@example.test
check "the refusal goes to the stranger alone" sh -c "! grep -q '^header Cc:' '$W/a5.check'"
# commands.allow (carol) may
life_mail carol@example.test c6@example.test "$m1" "$s1" "#perfbot invalid noise in the base"
life_settle 6
"$PERFBOT" run --config "$CONFIG" 2>"$W/e6"
check "commands.allow may change it" [ "$(life_status lc-1)" = invalid ]
check "every transition with who and which mail" [ "$(sql_list "SELECT event || ':' || by || ':' || source FROM record_events WHERE report_id = 'lc-1' ORDER BY rowid" ' ')" = "invalid:alice@example.test:c1@example.test reopen:alice@example.test:c2@example.test invalid:carol@example.test:c6@example.test" ]
