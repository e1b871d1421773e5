# Dovecot dies and restarts in the middle of a poll: nothing is lost, nothing is
# handled twice.
n=300
# one delivery creates the Maildir; the rest go straight into it
printf 'From: Alice <alice@example.test>\nTo: perfbot@example.test\nSubject: thanks 1\nMessage-ID: <thx-1@example.test>\n\nthanks\n' |
	curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
		-T - "smtp://127.0.0.1:$SMTP_PORT"
for i in $(seq 1 100); do
	[ -d "$MAILBOX_DIR/perfbot/Maildir/new" ] &&
		[ -n "$(ls "$MAILBOX_DIR/perfbot/Maildir/new" "$MAILBOX_DIR/perfbot/Maildir/cur")" ] && break
	sleep 0.1
done
md="$MAILBOX_DIR/perfbot/Maildir/new"
awk -v n=$n -v d="$md" 'BEGIN { for (i = 2; i <= n; i++) {
	f = sprintf("%s/%d.M%dP2.it", d, 1700000000 + i, i)
	printf "From: Alice <alice@example.test>\nTo: perfbot@example.test\nSubject: thanks %d\nMessage-ID: <thx-%d@example.test>\n\nthanks, no command here\n", i, i > f
	close(f) } }'
chown -R --reference="$md/.." "$md"
"$PERFBOT" send --config "$CONFIG" >/dev/null 2>&1	# creates the state
"$PERFBOT" poll --quiet --config "$CONFIG" 2>"$W/e1" & p=$!
for i in $(seq 1 500); do
	[ "$(sql "SELECT count(*) FROM inbox" 2>/dev/null)" -ge 3 ] 2>/dev/null && break
	sleep 0.01
done
# a crash of the server: its processes die at once, the connection drops
kill -9 $(bash "$TOP/tests/mail/mailserver" procs "$MAIL_DIR" dovecot) 2>/dev/null
bash "$TOP/tests/mail/mailserver" stop-imap "$MAIL_DIR" >/dev/null 2>&1
wait $p
rc=$?
got=$(sql "SELECT count(*) FROM inbox")
echo "   (dovecot stopped after $got of $n; poll exit $rc)"
check "stopped mid-poll ($got of $n)" [ "$got" -lt $n ]
check "poll says temporary failure (75)" [ $rc = 75 ]
bash "$TOP/tests/mail/mailserver" start-imap "$MAIL_DIR" >/dev/null
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e2"
check "second poll exits 0" [ $? = 0 ]
check "every mail handled once" [ "$(sql "SELECT count(DISTINCT message_id) FROM inbox")" = $n ]
check "no mail handled twice" [ "$(sql "SELECT count(*) FROM inbox")" = $n ]
check "position at the last UID" [ "$(sql "SELECT last_uid FROM mailbox")" -ge $n ]
check "nothing answered (no commands)" [ "$(sql "SELECT count(*) FROM outbox")" = 0 ]
