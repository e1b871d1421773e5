# Nothing leaks: the exec scheduler gets a minimal environment (no
# password), a failing scheduler's output and paths go to the log and the
# state while the thread gets a generic sentence; a failure for now (exit
# 75) is tried again; a password in a URL is masked in every message.
make_manifest lk-1 004
cat >"$W/farm" <<EOS
#!/bin/sh
env >"$W/farm-env"
n=\$(cat "$W/farm-count" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >"$W/farm-count"
if [ -e "$W/farm-busy" ] && [ \$n -lt 3 ]; then echo "busy" >&2; exit 75; fi
[ -e "$W/farm-busy" ] && exit 0
echo "cannot write /srv/secret-farm/results/\$1: Permission denied" >&2
exit 1
EOS
chmod +x "$W/farm"
cat >>"$CONFIG" <<EOC
scheduler:
  backend: exec
  argv: ["$W/farm", "{commit}"]
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'lk-1'")
ask() {	# ask MESSAGE-ID BODY
	printf 'From: Alice <alice@example.test>\nTo: perfbot@example.test\nSubject: Re: report\nMessage-ID: <%s>\nIn-Reply-To: <%s>\nReferences: <%s>\n\n%s\n' "$1" "$rmid" "$rmid" "$2" |
		curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
			-T - "smtp://127.0.0.1:$SMTP_PORT"
	sleep 0.5
}
ask lk-a@example.test "retest 2x"
PERFBOT_EXTRA_SECRET=do-not-pass "$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "the farm ran" [ -s "$W/farm-env" ]
check "no password in the farm's environment" sh -c "! grep -q 'perfbot-pw\|PASSWORD\|do-not-pass' '$W/farm-env'"
check "LANG=C for the farm" grep -qx "LANG=C" "$W/farm-env"
check "PATH for the farm" grep -q "^PATH=" "$W/farm-env"
uid=$(search alice In-Reply-To lk-a@example.test)
fetch alice "$uid" >"$W/a.eml"
"$MAILCHECK" "$W/a.eml" >/dev/null 2>"$W/a.txt"
check "the thread gets a generic sentence" grep -q "the benchmark farm did not take the request" "$W/a.txt"
check "no path in the mail" sh -c "! grep -q 'secret-farm\|Permission' '$W/a.eml'"
check "the path in the log" grep -q "secret-farm/results" "$W/e1"
check "the path in the state" sql_pipe "SELECT detail FROM requests WHERE kind = 'retest'" "grep -q 'exit 1: cannot write /srv/secret-farm'"
# a failure for now is tried again: exit 75 twice, then accepted
touch "$W/farm-busy"
rm -f "$W/farm-count"
ask lk-b@example.test "retest 3x"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "tried 3 times, then queued" [ "$(cat "$W/farm-count")" = 4 ]
check "recorded queued" [ "$(sql "SELECT status FROM requests WHERE kind = 'retest' AND runs = 3")" = queued ]
# a password written in a URL is masked in every message
make_manifest lk-2 003
sed -i "s#^  url: smtp://127.0.0.1:\(.*\)#  url: smtpx://perfbot:pw-in-url@127.0.0.1:1#" "$CONFIG"
sed -i "s#^  url: imap://127.0.0.1:\(.*\)#  url: imap://perfbot:pw-in-url@127.0.0.1:\1#" "$CONFIG"
"$PERFBOT" run --config "$CONFIG" >"$W/o3" 2>"$W/e3"
check "the bad URLs are reported" grep -q "smtp\.url.*'smtpx://perfbot:\*\*\*@127.0.0.1:1'" "$W/e3"
# the config must load for the poll to reach the IMAP URL
sed -i "s#smtpx://perfbot:pw-in-url@127.0.0.1:1#smtp://127.0.0.1:$SUBMISSION_PORT#" "$CONFIG"
"$PERFBOT" poll --config "$CONFIG" >>"$W/o3" 2>>"$W/e3"
check "imap.url reported masked" grep -q "imap.url: .*imap://perfbot:\*\*\*@127.0.0.1" "$W/e3"
check "no password in any message" sh -c "! grep -q 'pw-in-url' '$W/e3' '$W/o3'"
check "no password in the state" state_lacks pw-in-url
