# Issue 25 item 12: one error line where one is promised: a reply that
# cannot be answered for a missing template is one line, not two.
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
SP=$PORT
F=$(mktemp -d /tmp/perfbot-front.XXXXXX)
mkdir -p "$F/mail"
start_front imap "$F"
fx_setup "$SP" "$PORT"
mkdir -p "$W/tpl"
cp -r "$TOP"/templates/. "$W/tpl/"
rm "$W/tpl/help.txt"
printf 'templates:\n  dir: %s\n' "$W/tpl" >>"$CONFIG"
make_manifest o-1
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
mid=$(sql "SELECT message_id FROM outbox WHERE id = 'o-1'")
printf 'Return-Path: <alice@example.test>\nFrom: alice@example.test\nTo: perfbot@example.test\nSubject: Re: x\nMessage-ID: <o-1@example.test>\nIn-Reply-To: <%s>\n\nhelp\n' "$mid" >"$F/mail/1.eml"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "a missing template: exit 66 (got $rc)" [ $rc = 66 ]
check "... one line says it" [ "$(grep -c 'help.txt' "$W/err")" = 1 ]
check "... recorded as failed" sql_pipe "SELECT outcome FROM inbox" "grep -q '^failed: .*help.txt'"
