# Issue 25 item 16: a poll killed between its commit and \Seen leaves no
# mail unread forever: the mark still to be made is in the state, and the
# next poll makes it.
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
SP=$PORT
F=$(mktemp -d /tmp/perfbot-front.XXXXXX)
mkdir -p "$F/mail"
start_front imap "$F"
fx_setup "$SP" "$PORT"
# killed between the commit and \Seen: the next poll marks it
rm -f "$F/seen"
cp "$TOP/fixtures/mail/alternative.eml" "$F/mail/4.eml"
sed -i 's/^Message-I[Dd]: .*/Message-ID: <killed-4@example.test>/' "$F/mail/4.eml"
printf 'hang STORE\n' >"$F/script"
"$PERFBOT" poll --config "$CONFIG" >"$W/out" 2>"$W/err" &
p=$!
for i in $(seq 1 100); do
	[ "$(sql "SELECT count(*) FROM inbox WHERE uid = 4" 2>/dev/null)" = 1 ] && break
	sleep 0.1
done
sleep 0.2
kill -9 $p
wait $p 2>/dev/null
check "killed: the mail was recorded" [ "$(sql "SELECT count(*) FROM inbox WHERE uid = 4")" = 1 ]
check "killed: not marked yet" sh -c "! grep -qx 4 '$F/seen' 2>/dev/null"
: >"$F/script"
sleep 0.5
"$PERFBOT" poll --config "$CONFIG" >"$W/out" 2>"$W/err"
check "killed: the next poll marks it \\Seen" grep -qx 4 "$F/seen"
check "killed: and handles it once" [ "$(sql "SELECT count(*) FROM inbox WHERE uid = 4")" = 1 ]

