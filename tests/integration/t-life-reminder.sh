# The reminder on the real servers: three regressions mailed, one of
# them fixed; the reminder to the list names the two still open (by
# testcase, numbered) and not the fixed one, once a period; a reply to
# it that names a line acts on that line's report.
. tests/integration/life-lib.sh
make_manifest lr-1 003
make_manifest lr-2 002
make_manifest lr-3 003
life_reminders
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
check "three reports mailed, no reminder of mail not sent yet" [ "$(sql_list "SELECT kind || ':' || status FROM outbox ORDER BY rowid" ' ')" = "report:sent report:sent report:sent" ]
# lr-3 fixed (as a run on its fix would leave it)
sql "UPDATE records SET status = 'fixed' WHERE report_id = 'lr-3'"
wipe_list() {
	curl -s --max-time 20 --cacert "$CA_FILE" --ssl-reqd -u perf-reports:perf-reports-pw \
		"imap://127.0.0.1:$IMAP_PORT/INBOX" -X 'STORE 1:* +FLAGS (\Deleted)' >/dev/null 2>&1
	curl -s --max-time 20 --cacert "$CA_FILE" --ssl-reqd -u perf-reports:perf-reports-pw \
		"imap://127.0.0.1:$IMAP_PORT/INBOX" -X 'EXPUNGE' >/dev/null 2>&1
}
sleep 1
wipe_list
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "the run exits 0" [ $? = 0 ]
check "the log says two are listed" grep -q "reminder: 2 open regressions listed" "$W/e1"
check "the reminder reaches the list" life_wait perf-reports Subject "open performance regressions" 1
life_body perf-reports "$W/rem" "Testcase aim7:" Subject "open performance regressions"
check "its subject" grep -q "^subject: \[perfbot\] 2 open performance regressions$" "$W/rem.check"
check "it lists two" grep -q "^2 of the performance regressions perfbot reported are still open" "$W/rem"
check "line 1" grep -q "^  <1> 0 days old, status \"open\"" "$W/rem"
check "line 2" grep -q "^  <2> 0 days old, status \"open\"" "$W/rem"
check "no line 3" sh -c "! grep -q '^  <3>' '$W/rem'"
lr1=$(sql "SELECT subject FROM outbox WHERE id = 'lr-1'")
check "the open ones by their subjects" grep -qF "      Report: $lr1" "$W/rem"
check "their changes" grep -q "^      Change: aim7.jobs-per-min -18.0%$" "$W/rem"
check "their links" grep -q "^      Link: https://lore.example.test/perf/$(sql "SELECT message_id FROM outbox WHERE id = 'lr-1'")$" "$W/rem"
check "not the fixed one" [ "$(grep -c "      Report: " "$W/rem")" = 2 ]
check "recorded with its lines" [ "$(sql "SELECT lines FROM reminders")" = '["lr-1","lr-2"]' ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "not again within the hour" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'reminder'")" = 1 ]
# alice (the author of both) answers the reminder about line 2
rem=$(sql "SELECT message_id FROM outbox WHERE kind = 'reminder'")
life_mail alice@example.test lr-a@example.test "$rem" "[perfbot] 2 open performance regressions" "#perfbot invalid <2> the base was wrong\n#perfbot set <1> no-reminders"
life_settle 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "the line's report is invalid" [ "$(life_status lr-2)" = invalid ]
check "the other is left out of the reminders" [ "$(sql "SELECT no_reminders FROM records WHERE report_id = 'lr-1'")" = 1 ]
check "lr-1 still open" [ "$(life_status lr-1)" = open ]
check "answered" life_wait alice In-Reply-To lr-a@example.test 1
life_body alice "$W/ra" "About line" In-Reply-To lr-a@example.test
check "the answer names the line and its report" grep -q "^About line <2> of the reminder, the report \"" "$W/ra"
