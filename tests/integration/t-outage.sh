# Postfix stops in the middle of a batch: after it is back and another run,
# every report has arrived exactly once. "Once" is what perfbot did: the
# submissions Postfix accepted (its cleanup log line per Message-ID); the
# mailboxes must hold every report.
n=150
for i in $(seq 101 $((100 + n))); do make_manifest o-$i 004; done
"$PERFBOT" run --quiet --config "$CONFIG" 2>"$W/e1" & p=$!
for i in $(seq 1 1000); do
	state_exists &&
		[ "$(sql "SELECT count(*) FROM outbox WHERE status = 'sent'" 2>/dev/null)" -ge 2 ] 2>/dev/null && break
	sleep 0.01
done
bash "$TOP/tests/mail/mailserver" stop-smtp "$MAIL_DIR" >/dev/null
wait $p
rc=$?
sent=$(sql "SELECT count(*) FROM outbox WHERE status = 'sent'")
echo "   (postfix stopped after $sent of $n; first run exit $rc)"
check "stopped mid-batch ($sent of $n)" [ "$sent" -lt $n ]
check "first run says temporary failure (75)" [ $rc = 75 ]
check "the rest still queued" [ "$(sql "SELECT count(*) FROM outbox WHERE status = 'queued'")" = $((n - sent)) ]
bash "$TOP/tests/mail/mailserver" start-smtp "$MAIL_DIR" >/dev/null
"$PERFBOT" run --quiet --config "$CONFIG" 2>"$W/e2"
check "too early: backoff holds the retry" [ "$(sql "SELECT count(*) FROM outbox WHERE status = 'queued'")" -ge 1 ]
SOURCE_DATE_EPOCH=$(( $(date +%s) + 7200 )) "$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "later run exits 0" [ $? = 0 ]
check "all recorded sent" [ "$(sql "SELECT count(*) FROM outbox WHERE status = 'sent'")" = $n ]
sql "SELECT message_id FROM outbox WHERE id LIKE 'o-%'" >"$W/ids"
# accepted = a queue id whose cleanup saw the Message-ID and that qmgr
# then took into the active queue (a message cut off mid-way has none)
awk '/cleanup\[.*message-id=</ { q = $0; sub(/.*cleanup\[[0-9]*\]: /, "", q);
	sub(/:.*/, "", q); m = $0; sub(/.*message-id=</, "", m); sub(/>.*/, "", m);
	mid[q] = m }
     /qmgr\[.*from=</ { q = $0; sub(/.*qmgr\[[0-9]*\]: /, "", q); sub(/:.*/, "", q);
	if (q in mid && !(q in seen)) { seen[q] = 1; n[mid[q]]++ } }
     END { for (m in n) print m, n[m] }' "$POSTFIX_LOG" >"$W/accepted"
twice=0 missing=0
while read -r mid; do
	c=$(awk -v m="$mid" '$1 == m { print $2 }' "$W/accepted")
	[ "${c:-0}" -gt 1 ] && twice=$((twice + 1))
	[ "${c:-0}" = 0 ] && missing=$((missing + 1))
done <"$W/ids"
# The one mail in flight when Postfix died may have been queued there
# without its 250 reaching perfbot (SMTP's own duplicate window, RFC
# 1047): it is sent again, with the same Message-ID. Never more than that.
check "every report accepted once, but the one in flight ($twice twice)" [ $twice -le 1 ]
check "none lost on the way ($missing)" [ $missing = 0 ]
# Postfix hands them to Dovecot on its own time: wait for the last ones
for i in $(seq 1 40); do
	inbox=$(imap alice "" -X "UID SEARCH HEADER X-Perfbot-Report \"o-\"" | tr -d '\r' | sed -n 's/^\* SEARCH *//p' | wc -w)
	[ "$inbox" -ge $n ] && break
	sleep 0.25
done
check "every report in the mailbox ($inbox)" [ "$inbox" -ge $n ]
