# Issue 29 item 21: an IMAP LOGIN that never answers is a timeout (75,
# naming imap.timeout), not "login refused" (77, which sends the operator
# to the password); a LOGIN the server refuses is still 77. Either way the
# queued mail goes out.
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
SP=$PORT
F=$(mktemp -d /tmp/perfbot-front.XXXXXX)
mkdir -p "$F/mail"
start_front imap "$F"
fx_setup "$SP" "$PORT"
printf 'hang LOGIN\n' >"$F/script"
make_manifest l-1
t0=$(date +%s)
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
t=$(( $(date +%s) - t0 ))
check "LOGIN unanswered: exit 75 (got $rc)" [ $rc = 75 ]
check "... within imap.timeout and a bit ($t s)" [ $t -le 12 ]
check "... says it timed out, naming imap.timeout" grep -q "perfbot: imap: .*LOGIN.*no answer within 3 s (imap.timeout)" "$W/err"
check "... not 'refused'" sh -c "! grep -qi 'login.*refused' '$W/err'"
check "... the report still went out" [ "$(sql "SELECT status FROM outbox WHERE id = 'l-1'")" = sent ]
printf 'refuse LOGIN\n' >"$F/script"
"$PERFBOT" poll --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "LOGIN refused: exit 77 (got $rc)" [ $rc = 77 ]
check "... says so" grep -q "perfbot: imap: login as 'perfbot' refused" "$W/err"

# issue 29 item 11: a mailbox that cannot be selected names imap.mailbox
printf 'refuse SELECT\n' >"$F/script"
"$PERFBOT" poll --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "SELECT refused: exit 69 (got $rc)" [ $rc = 69 ]
check "... names imap.mailbox" grep -q "perfbot: imap.mailbox: cannot select 'INBOX'" "$W/err"
