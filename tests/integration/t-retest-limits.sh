# Retest caps and deadlines: a second retest while one is open gets its
# status; a passed deadline gets "did not finish"; the per-report cap; a
# request the farm rejects is answered (its reason kept in the state).
make_manifest rl-1 004
mkdir -p "$W/spool"
cat >>"$CONFIG" <<EOC
scheduler:
  backend: spool
  spool_dir: $W/spool
  deadline: 3600
EOC
sed -i 's/^  mails_per_hour: 1000$/  mails_per_hour: 1000\n  retests_per_report: 1/' "$CONFIG"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'rl-1'")
ask() {	# ask MESSAGE-ID BODY
	printf 'From: Alice <alice@example.test>\nTo: perfbot@example.test\nSubject: Re: report\nMessage-ID: <%s>\nIn-Reply-To: <%s>\nReferences: <%s>\n\n%s\n' "$1" "$rmid" "$rmid" "$2" |
		curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
			-T - "smtp://127.0.0.1:$SMTP_PORT"
	sleep 0.5
}
body_of() {	# body_of MESSAGE-ID: the text of the bot's answer to it
	set -- $(search alice In-Reply-To "$1")
	[ $# -ge 1 ] || return 0
	fetch alice "${!#}" >"$W/a.eml"
	"$MAILCHECK" "$W/a.eml" 2>&1 >/dev/null
}
ask rl-a@example.test "retest 3x"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "queued on the spool" [ "$(ls "$W/spool" | wc -l)" = 2 ]
ask rl-b@example.test "retest"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
body_of rl-b@example.test >"$W/b.txt"
check "busy answer" grep -q "already queued" "$W/b.txt"
check "not queued twice" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'retest'")" = 1 ]
SOURCE_DATE_EPOCH=$(( $(date +%s) + 7200 )) "$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "expired after the deadline" [ "$(sql "SELECT status FROM requests WHERE kind = 'retest'")" = expired ]
check "did not finish answer" fetch_matching alice "$W/a.eml" "did not finish" $(search alice In-Reply-To rl-a@example.test)
ask rl-c@example.test "retest 2x"
SOURCE_DATE_EPOCH=$(( $(date +%s) + 7300 )) "$PERFBOT" run --config "$CONFIG" 2>"$W/e4"
body_of rl-c@example.test >"$W/c.txt"
check "per-report cap answered" grep -q "retests already" "$W/c.txt"
ask rl-d@example.test "retest 50x"
SOURCE_DATE_EPOCH=$(( $(date +%s) + 7400 )) "$PERFBOT" run --config "$CONFIG" 2>"$W/e5"
body_of rl-d@example.test >"$W/d.txt"
check "N above max_runs refused" grep -q "between 2 and 20" "$W/d.txt"
sed -i 's/^  retests_per_report: 1$/  retests_per_report: 5/' "$CONFIG"
sed -i "s#^  backend: spool#  backend: exec\n  argv: [/bin/false]#" "$CONFIG"
ask rl-e@example.test "retest 2x"
SOURCE_DATE_EPOCH=$(( $(date +%s) + 7500 )) "$PERFBOT" run --config "$CONFIG" 2>"$W/e6"
body_of rl-e@example.test >"$W/e.txt"
check "rejected request answered generically" grep -q "could not queue the retest: the benchmark farm did not take" "$W/e.txt"
check "the reason kept for the operator" [ "$(sql "SELECT detail FROM requests WHERE kind = 'retest' AND status = 'rejected'")" = "exit 1" ]
check "recorded rejected" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'retest' AND status = 'rejected'")" = 1 ]
