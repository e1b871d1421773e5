# Issue 25 items 3, 6, 10, 16 and issue 21 item 7, through a scripted
# IMAP server: whatever the server makes the mail library do (crash, hang,
# lie about a size) the poll reports one error and the delivery still
# runs; imap.processed_mailbox is made when missing (a poll killed between
# its commit and \Seen: t-imap-kill.sh).
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
SP=$PORT
F=$(mktemp -d /tmp/perfbot-front.XXXXXX)
mkdir -p "$F/mail"
start_front imap "$F"
fx_setup "$SP" "$PORT"
i=1
for e in fixtures/mail/alternative.eml fixtures/mail/html-only.eml fixtures/mail/flowed.eml; do
	cp "$e" "$F/mail/$i.eml"
	i=$((i + 1))
done

# a SELECT answer that crashes libetpan 1.9.4 (SIGSEGV)
printf 'select-raw * OK [PERMANENTFLAGS (\\\\)]\n' >"$F/script"
make_manifest i-1
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "crash in SELECT: exit 76 (got $rc)" [ $rc = 76 ]
# signal 11; under ASan its handler makes it exit 1, under TSan 66
check "crash in SELECT: one clear error" [ "$(grep -cE 'perfbot: imap: .*mail library crashed \((signal 11|exit 1|exit 66)\) on the server.s answer to LOGIN and SELECT' "$W/err")" = 1 ]
check "crash in SELECT: the report still went out" [ "$(sql "SELECT status FROM outbox WHERE id = 'i-1'")" = sent ]
check "crash in SELECT: nothing printed bypasses the error format" sh -c "! grep -v 'perfbot: ' '$W/err' | grep -q ."

# a server that stops answering inside a FETCH: bounded by imap.timeout
printf 'hang FETCH\n' >"$F/script"
make_manifest i-2
t0=$(date +%s)
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
t=$(( $(date +%s) - t0 ))
check "hang in FETCH: exit 75 (got $rc)" [ $rc = 75 ]
check "hang in FETCH: over within imap.timeout and a bit ($t s)" [ $t -le 12 ]
check "hang in FETCH: says which answer did not come" grep -Eq "no answer to UID FETCH 1 within 4 s \(imap.timeout\)|imap: UID FETCH 1 failed" "$W/err"
check "hang in FETCH: the report still went out" [ "$(sql "SELECT status FROM outbox WHERE id = 'i-2'")" = sent ]

# RFC822.SIZE 100, 30 MB sent: bounded by imap.max_message_bytes, failed once
printf 'size 2 100\nbig 2 30000000\n' >"$F/script"
"$PERFBOT" poll --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "size lie: exit 65, not 71 (got $rc)" [ $rc = 65 ]
check "size lie: recorded as failed" [ "$(sql "SELECT outcome FROM inbox WHERE uid = 2")" = "failed: larger than imap.max_message_bytes (10485760 bytes): 30000000 bytes" ]
check "size lie: the mails after it handled" [ "$(sql "SELECT count(*) FROM inbox WHERE uid = 3")" = 1 ]
check "size lie: at most max_message_bytes + 1 asked for" grep -q "UID FETCH 2 (BODY.PEEK\[\]<0.10485761>)" "$F/log"
: >"$F/log"
"$PERFBOT" poll --config "$CONFIG" >"$W/out" 2>"$W/err"
check "size lie: once only (exit $?)" sh -c "! grep -q 'UID FETCH 2' '$F/log'"

# imap.processed_mailbox missing: made, and said so
cat >>"$CONFIG" <<EOC
  processed_mailbox: Done
EOC
cp "$F/mail/1.eml" "$F/mail/5.eml"
sed -i 's/^Message-I[Dd]: .*/Message-ID: <moved-5@example.test>/' "$F/mail/5.eml"
"$PERFBOT" poll --config "$CONFIG" >"$W/out" 2>"$W/err"
check "processed_mailbox: created, said so" grep -q "imap.processed_mailbox 'Done' did not exist: created" "$W/err"
check "processed_mailbox: the mail moved" grep -qx 5 "$F/moved"
sed -i 's/  processed_mailbox: Done/  processed_mailbox: Archive/' "$CONFIG"
"$PERFBOT" check --connect --config "$CONFIG" >"$W/out" 2>"$W/err"
check "check --connect: processed_mailbox created, said so" grep -q "imap.processed_mailbox 'Archive': created" "$W/out"

# a mail whose download always breaks the session: passed over after 3
sed -i '/processed_mailbox/d' "$CONFIG"
cp "$F/mail/1.eml" "$F/mail/6.eml"
sed -i 's/^Message-I[Dd]: .*/Message-ID: <stuck-6@example.test>/' "$F/mail/6.eml"
cp "$F/mail/1.eml" "$F/mail/7.eml"
sed -i 's/^Message-I[Dd]: .*/Message-ID: <after-7@example.test>/' "$F/mail/7.eml"
printf 'eof-literal 6\n' >"$F/script"
# libetpan 1.9.4 spins at 99% CPU at an EOF inside a literal (tls: none)
long=0
for i in 1 2 3; do
	timeout 30 "$PERFBOT" poll --config "$CONFIG" >"$W/out" 2>"$W/err.$i"
	[ $? = 124 ] && long=1
done
check "EOF inside a literal: every poll over within its bound" [ $long = 0 ]
check "stuck: failed after 3 tries" sql_pipe "SELECT outcome FROM inbox WHERE uid = 6" "grep -q '^failed: '"
"$PERFBOT" poll --config "$CONFIG" >"$W/out" 2>"$W/err"
check "stuck: the mail after it read" [ "$(sql "SELECT count(*) FROM inbox WHERE uid = 7")" = 1 ]
