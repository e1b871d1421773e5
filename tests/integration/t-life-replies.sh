# Replies on the real servers that must not fail a mail or reach the
# list (issue 29 items 1-3): a 'test' in a reply to a reminder is
# answered as a retest there is ("answer the report itself") while the
# mail's other command is done and the run exits 0; a reminder's
# recipient who writes 'invalid' without its line is told how to name
# it, no refusal charged; refused record commands (dup: of itself, a
# dup cycle, an ambiguous subject, fix: after the fix landed) are
# answered to their sender alone, never Cc'd to the list.
. tests/integration/life-lib.sh
for m in rp-1:003 rp-2:002 rp-3:003; do make_manifest ${m%:*} ${m#*:}; done
life_reminders
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
sleep 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "the reminder is mailed" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'reminder' AND status = 'sent'")" = 1 ]
rem=$(sql "SELECT message_id FROM outbox WHERE kind = 'reminder'")
rsub="[perfbot] 3 open performance regressions"
# 1: a test in a reply to the reminder, and a valid command after it
life_mail alice@example.test rr-1@example.test "$rem" "$rsub" "test\n\n#perfbot set <1> no-reminders"
life_settle 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "a test in a reminder's thread: the run exits 0" [ $? = 0 ]
check "the mail is answered, not failed" [ "$(sql "SELECT outcome FROM inbox WHERE message_id = 'rr-1@example.test'")" = answered ]
check "the other command is done" [ "$(sql "SELECT no_reminders FROM records WHERE report_id = 'rp-1'")" = 1 ]
check "answered" life_wait alice In-Reply-To rr-1@example.test 1
life_body alice "$W/a1" "answer the report itself" In-Reply-To rr-1@example.test
check "the test is told to answer the report itself" grep -q '^I could not do "test": test: answer the report itself.$' "$W/a1"
check "and the set is said" grep -q "^This report is left out of the reminders from now on.$" "$W/a1"
check "nothing asked of the farm" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'test'")" = 0 ]
# 3: 'invalid' without its line, from the author of the listed reports
life_mail alice@example.test rr-2@example.test "$rem" "$rsub" "invalid"
life_settle 2
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "invalid without <N>: the run exits 0" [ $? = 0 ]
check "recorded as answered, no refusal" [ "$(sql "SELECT outcome FROM inbox WHERE message_id = 'rr-2@example.test'")" = answered ]
check "answered" life_wait alice In-Reply-To rr-2@example.test 1
life_body alice "$W/a2" "name the line" In-Reply-To rr-2@example.test
check "told to name the line" grep -q 'name the line of the reminder it is about, as in "invalid <2>"' "$W/a2"
check "not told it is a stranger" sh -c "! grep -q 'I take commands only' '$W/a2'"
check "nothing changed" [ "$(life_status rp-1)$(life_status rp-2)$(life_status rp-3)" = openopenopen ]
# a stranger in the reminder's thread is still refused
life_mail mallory@example.test rr-3@example.test "$rem" "$rsub" "invalid <1>"
life_settle 3
"$PERFBOT" run --config "$CONFIG" 2>"$W/e4"
check "a stranger is still refused there" [ "$(sql "SELECT outcome FROM inbox WHERE message_id = 'rr-3@example.test'")" = refused ]
check "rp-1 still open" [ "$(life_status rp-1)" = open ]
# 2: refused record commands go to the sender alone
m1=$(sql "SELECT message_id FROM outbox WHERE id = 'rp-1'")
m2=$(sql "SELECT message_id FROM outbox WHERE id = 'rp-2'")
s1=$(sql "SELECT subject FROM outbox WHERE id = 'rp-1'")
s2=$(sql "SELECT subject FROM outbox WHERE id = 'rp-2'")
n=3
refused_alone() {	# refused_alone ID TO SUBJECT BODY PATTERN: what it checks
	n=$((n + 1))
	life_mail alice@example.test "$1@example.test" "$2" "$3" "$4"
	life_settle $n
	"$PERFBOT" run --config "$CONFIG" 2>"$W/e-$1"
	check "$1: answered" life_wait alice In-Reply-To "$1@example.test" 1
	life_body alice "$W/$1" "I could not do" In-Reply-To "$1@example.test"
	check "$1: the refusal says why" grep -q "$5" "$W/$1"
	check "$1: to the sender alone" sh -c "! grep -q '^header Cc:' '$W/$1.check'"
	check "$1: the list has none" [ "$(count perf-reports In-Reply-To "$1@example.test")" = 0 ]
}
refused_alone rr-self "$m1" "$s1" "dup: <$m1>" "a report cannot duplicate itself"
life_mail alice@example.test rr-dup@example.test "$m2" "$s2" "dup: <$m1>"
n=$((n + 1))
life_settle $n
"$PERFBOT" run --config "$CONFIG" 2>"$W/e-dup"
check "a dup done is answered to the list" life_wait perf-reports In-Reply-To rr-dup@example.test 1
refused_alone rr-cycle "$m1" "$s1" "dup: <$m2>" "that report is a duplicate of this one"
refused_alone rr-ambiguous "$m2" "$s2" "dup: $s1" "2 reports have that subject"
sql "UPDATE records SET status = 'fix landed', fix_commit = '0123456789abcdef0123456789abcdef01234567' WHERE report_id = 'rp-3'"
m3=$(sql "SELECT message_id FROM outbox WHERE id = 'rp-3'")
refused_alone rr-landed "$m3" "$s1" "fix: 89abcdef0123" "has landed already"
