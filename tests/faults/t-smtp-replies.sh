# The SMTP reply rule (issue 25 items 1, 2; issue 21 item 1): a reply
# about the session, the sender or the account keeps every mail queued,
# stops the batch and exits with the code of its cause, naming the
# setting; only a 5xx for the message or for one recipient is final; a 4xx
# recipient is tried again alone.
F=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$F"
fx_setup "$PORT"
make_manifest s-1
make_manifest s-2 bob@example.test

# session_case NAME SCRIPT EXIT GREP: queued, attempts kept, exit, message
session_case() {
	printf '%s\n' "$2" >"$F/script"
	: >"$F/log"
	"$PERFBOT" send --now --config "$CONFIG" 2>"$W/err"
	rc=$?
	check "$1: exit $3 (got $rc)" [ $rc = "$3" ]
	check "$1: every mail still queued" [ "$(sql "SELECT count(*) FROM outbox WHERE status = 'queued'")" = 2 ]
	check "$1: one error line naming it" grep -q "$4" "$W/err"
	check "$1: the batch stopped at the first" [ "$(grep -c '^MAIL FROM' "$F/log")" -le 1 ]
}
echo 'greeting 554 5.7.1 no service' >"$F/script"
"$PERFBOT" run --config "$CONFIG" 2>"$W/err0"
rc=$?
check "554 greeting: exit 69 (got $rc)" [ $rc = 69 ]
check "554 greeting: both queued" [ "$(sql "SELECT count(*) FROM outbox WHERE status = 'queued'")" = 2 ]
check "554 greeting: no attempt burnt" [ "$(sql "SELECT max(attempts) FROM outbox")" = 0 ]
check "554 greeting: the server's words" grep -q "refuses the session: 554 5.7.1 no service" "$W/err0"
check "554 greeting: one error line" [ "$(grep -c 'perfbot: smtp' "$W/err0")" = 1 ]
session_case "554 EHLO" "ehlo 554 5.7.1 not you" 69 "554 5.7.1 not you"
session_case "550 MAIL FROM" "mail 550 5.7.1 sender not owned" 78 "identity.from: .*550 5.7.1 sender not owned"
session_case "530 at MAIL (tls: none)" "mail 530 5.7.0 Must issue a STARTTLS command first" 78 "smtp.tls: .*530 5.7.0 Must issue"
session_case "535 AUTH" "auth 535 5.7.8 bad credentials" 77 "smtp.user: .*535 5.7.8"
session_case "538 AUTH" "auth 538 5.7.11 Encryption required" 78 "smtp.tls: .*538"
session_case "554 client host at RCPT" "rcpt 554 5.7.1 <unknown[127.0.0.1]>: Client host rejected: Access denied" 69 "Client host rejected"
session_case "5.7.1 for every RCPT" "rcpt 554 5.7.1 <x>: Relay access denied" 77 "smtp.user: .*Relay access denied"
printf 'auth 454 4.7.0 Temporary authentication failure\n' >"$F/script"
"$PERFBOT" send --now --config "$CONFIG" 2>"$W/err"
rc=$?
check "454 AUTH: exit 75 (got $rc)" [ $rc = 75 ]
check "454 AUTH: queued" [ "$(sql "SELECT count(*) FROM outbox WHERE status = 'queued'")" = 2 ]
check "454 AUTH: the server's reply kept" [ "$(sql "SELECT last_error FROM outbox WHERE id = 's-1'")" = "454 4.7.0 Temporary authentication failure" ]
check "454 AUTH: not 'Login denied'" sh -c "! grep -qi 'login denied' '$W/err'"

# the server heals: both go
: >"$F/script"
"$PERFBOT" send --now --config "$CONFIG" 2>"$W/err"
check "healed: exit 0" [ $? = 0 ]
check "healed: both sent" [ "$(sql "SELECT count(*) FROM outbox WHERE status = 'sent'")" = 2 ]
check "log names the recipients and the reply" grep -q "sent report 's-1' <[^>]*> to alice@example.test, perf-reports@example.test: 250 2.0.0 Ok: queued as Q" "$W/err"

# greylisting: one recipient 451, the other 250; then only it is retried
make_manifest s-3 carol@example.test
printf 'rcpt:carol@example.test 451 4.7.1 greylisted\n' >"$F/script"
: >"$F/log"
"$PERFBOT" run --config "$CONFIG" 2>"$W/err"
check "451 one rcpt: mail still queued" [ "$(sql "SELECT status FROM outbox WHERE id = 's-3'")" = queued ]
check "451 one rcpt: deferred recorded" [ "$(sql "SELECT r.status FROM outbox_recipients r JOIN outbox o ON o.rowid = r.mail WHERE o.id = 's-3' AND address = 'carol@example.test'")" = deferred ]
check "451 one rcpt: the other got it" [ "$(sql "SELECT r.status FROM outbox_recipients r JOIN outbox o ON o.rowid = r.mail WHERE o.id = 's-3' AND address = 'perf-reports@example.test'")" = accepted ]
: >"$F/script"
: >"$F/log"
"$PERFBOT" send --now --config "$CONFIG" 2>"$W/err"
check "retry: only the deferred recipient" [ "$(grep -c '^RCPT TO' "$F/log")" = 1 ] && grep -q '^RCPT TO:<carol@example.test>' "$F/log"
check "retry: now sent" [ "$(sql "SELECT status FROM outbox WHERE id = 's-3'")" = sent ]

# 452 for one, 550 for the other: not failed, the 452 one retried
make_manifest s-4 dave@example.test
printf 'rcpt:dave@example.test 452 4.5.3 too many\nrcpt:perf-reports@example.test 550 5.1.1 no such user\n' >"$F/script"
"$PERFBOT" run --config "$CONFIG" 2>"$W/err"
check "452+550: still queued" [ "$(sql "SELECT status FROM outbox WHERE id = 's-4'")" = queued ]
check "452+550: the 550 final" [ "$(sql "SELECT r.status FROM outbox_recipients r JOIN outbox o ON o.rowid = r.mail WHERE o.id = 's-4' AND address = 'perf-reports@example.test'")" = rejected ]
printf 'rcpt:dave@example.test 550 5.1.1 gone\n' >"$F/script"
"$PERFBOT" send --now --config "$CONFIG" 2>"$W/err"
check "452 then 550: failed, every answer final" [ "$(sql "SELECT status FROM outbox WHERE id = 's-4'")" = failed ]

# a 5xx for the message itself is final
make_manifest s-5
printf 'eod 554 5.6.0 message content rejected\n' >"$F/script"
"$PERFBOT" run --config "$CONFIG" 2>"$W/err"
check "554 end of data: failed" [ "$(sql "SELECT status FROM outbox WHERE id = 's-5'")" = failed ]
check "554 end of data: the server's reply" [ "$(sql "SELECT last_error FROM outbox WHERE id = 's-5'")" = "554 5.6.0 message content rejected" ]
