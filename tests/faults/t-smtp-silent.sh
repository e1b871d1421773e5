# Issue 29 item 20: a server that goes silent after the data costs
# smtp.timeout, not smtp.timeout + 120 s (libcurl's wait for the QUIT
# reply); a server that answers 421 to one RCPT but 250 to the data has
# delivered the mail to the recipients it took: they never get it again,
# the other is tried alone.
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
fx_setup "$PORT"
sed -i 's/^  timeout: 10$/  timeout: 3/' "$CONFIG"
make_manifest q-1
printf 'hang eod\n' >"$S/script"
t0=$(date +%s)
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
t=$(($(date +%s) - t0))
check "silent after the data: exit 75 (got $rc)" [ $rc = 75 ]
check "... within smtp.timeout and a little (took $t s of 3)" [ $t -le 8 ]
check "... the mail stays queued" [ "$(sql "SELECT status FROM outbox WHERE id = 'q-1'")" = queued ]
check "... said in the log" grep -q "deferred: no connection or no answer" "$W/err"

printf 'rcpt:perf-reports@example.test 421 4.3.2 Service shutting down\n' >"$S/script"
: >"$S/accepted"
for i in 1 2 3; do
	"$PERFBOT" send --now --config "$CONFIG" >"$W/out" 2>"$W/err$i"
done
check "421 to one RCPT, 250 to the data: one copy in three runs" [ "$(wc -l <"$S/accepted")" = 1 ]
check "... to the recipient it took" grep -q "to alice@example.test$" "$S/accepted"
check "... recorded accepted" [ "$(sql "SELECT r.status FROM outbox_recipients r JOIN outbox o ON o.rowid = r.mail WHERE address = 'alice@example.test'")" = accepted ]
check "... the other deferred" [ "$(sql "SELECT r.status FROM outbox_recipients r JOIN outbox o ON o.rowid = r.mail WHERE address = 'perf-reports@example.test'")" = deferred ]
check "... the mail still queued for it" [ "$(sql "SELECT status FROM outbox WHERE id = 'q-1'")" = queued ]
check "... the log names the recipient and the reply" grep -q "recipient perf-reports@example.test: 421 4.3.2 Service shutting down" "$W/err1"
: >"$S/script"
"$PERFBOT" send --now --config "$CONFIG" >"$W/out" 2>"$W/err4"
check "healed: the other recipient alone" [ "$(wc -l <"$S/accepted")" = 2 ] && [ "$(tail -n1 "$S/accepted" | sed 's/.* to //')" = perf-reports@example.test ]
check "... the mail sent" [ "$(sql "SELECT status FROM outbox WHERE id = 'q-1'")" = sent ]

# send --now counts what it tries, and only what goes now is "sent"
check "a retry the server defers again is not counted sent" grep -q "send: 0 sent, 1 queued" "$W/err2"
make_manifest q-2
printf 'greeting 554 5.7.1 no service\n' >"$S/script"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err5"
: >"$S/script"
"$PERFBOT" send --now --config "$CONFIG" >"$W/out" 2>"$W/err6"
check "send --now: says it tries the one queued mail" grep -q "send: 1 queued mail tried now" "$W/err6"
check "send --now: and sends it" grep -q "send: 1 sent, 0 queued, 0 failed" "$W/err6"

# A greeting 3 s late has the port tried with a TLS handshake of its own
# (issue 29 item 11: smtp:// on an implicit-TLS port fails fast): a port
# that says nothing at all fails that too and costs no more than
# smtp.connect_timeout and a little, with no word of smtps://.
make_manifest q-3
sed -i 's/^  connect_timeout: 3$/  connect_timeout: 6/' "$CONFIG"
printf 'hang greeting\n' >"$S/script"
t0=$(date +%s)
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err7"
rc=$?
t=$(($(date +%s) - t0))
check "silent greeting: exit 75 (got $rc)" [ $rc = 75 ]
check "... within smtp.connect_timeout and a little (took $t s of 6)" [ $t -le 9 ]
check "... no connection or no answer, not TLS advice" sh -c "grep -q 'no connection or no answer' '$W/err7' && ! grep -q 'smtps://' '$W/err7'"
