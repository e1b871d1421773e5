# A mail the bot cannot answer (here: its answer template is missing) is
# recorded as failed and passed over: it blocks neither the later replies
# nor the reports waiting in the outbox.
make_manifest pf-1 004
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'pf-1'")
mkdir -p "$W/tpl"
cp "$TOP"/templates/*.txt "$W/tpl/"
rm "$W/tpl/answer.txt"
printf 'templates:\n  dir: %s/tpl\n' "$W" >>"$CONFIG"
for i in 1 2; do
	printf 'From: Alice <alice@example.test>\nTo: perfbot@example.test\nSubject: Re: x\nMessage-ID: <pf%s@example.test>\nIn-Reply-To: <%s>\nReferences: <%s>\n\nhelp\n' "$i" "$rmid" "$rmid" |
		curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
			-T - "smtp://127.0.0.1:$SMTP_PORT"
done
make_manifest pf-2 000
sleep 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
rc=$?
check "run reports the poll's trouble ($rc)" [ $rc != 0 ]
check "the failure is logged" grep -q "answer.txt" "$W/e1"
check "both mails recorded as failed" [ "$(sql "SELECT count(*) FROM inbox WHERE outcome LIKE 'failed:%'")" = 2 ]
check "the new report still went out" [ "$(count alice X-Perfbot-Report pf-2)" = 1 ]
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e2"
check "the next poll has nothing left" grep -q "poll: 0 fetched" "$W/e2"
