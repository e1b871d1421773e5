# Issue 29 item 12: README "A first report", step by step, as written:
# 'make install', the installed example config and the installed sample
# manifest copied to ~/.config/perfbot, the config's edits (the servers,
# their CA, sources: [{dir: sample}], staging to oneself), then 'check
# --connect', 'run --dry-run' and 'run' with the passwords in the
# environment: the first report is in the operator's mailbox. PREFIX is
# the test's own directory rather than /usr/local, HOME a fresh one.
t0=$(date +%s)
P="$W/usr"
make --no-print-directory -C "$TOP" install PREFIX="$P" >"$W/install.log" 2>&1
check "make install" [ $? = 0 ]
home_was=${HOME-}
export HOME="$W/home"
mkdir -p "$HOME"
( cd "$HOME" &&
	mkdir -p ~/.config/perfbot &&
	cp "$P/share/perfbot/config/perfbot.yaml" ~/.config/perfbot/ &&
	cp -r "$P/share/doc/perfbot/examples/sample" ~/.config/perfbot/ )
check "the example config and the sample copied" [ -f "$HOME/.config/perfbot/sample/manifest.yaml" ]
C="$HOME/.config/perfbot/perfbot.yaml"
# the edits the README lists (identity.from is the test server's bot)
sed -i -e "s#^  url: smtp://127.0.0.1:10587\$#  url: smtp://127.0.0.1:$SUBMISSION_PORT\n  ca_file: $CA_FILE#" \
	-e "s#^  url: imap://127.0.0.1:10143\$#  url: imap://127.0.0.1:$IMAP_PORT\n  ca_file: $CA_FILE#" \
	-e 's#^sources: \[\]$#sources: [{dir: sample}]#' "$C"
echo "staging: {redirect_to: alice@example.test}" >>"$C"
check "the edits took" sh -c "grep -q 'sources: \[{dir: sample}\]' '$C' && [ \$(grep -c ca_file: '$C') -ge 2 ]"

PB="$P/bin/perfbot"
( cd /; "$PB" check --connect ) >"$W/check.out" 2>"$W/check.err"
check "check --connect: exit 0 (got $?)" [ $? = 0 ]
check "check: the installed metric table" grep -q "^ok: metric table '$P/share/perfbot/config/metrics.yaml'" "$W/check.out"
check "check: staging said" grep -q "staging: every mail goes to 'alice@example.test' only" "$W/check.out"
( cd /; "$PB" run --dry-run ) >"$W/first.mbox" 2>"$W/dry.err"
check "run --dry-run: exit 0 (got $?)" [ $? = 0 ]
check "run --dry-run: the report printed" grep -q "^X-Perfbot-Report: sample-hackbench-pipe" "$W/first.mbox"
check "run --dry-run: nothing sent" [ "$(count alice X-Perfbot-Report sample-hackbench-pipe)" = 0 ]
( cd /; "$PB" run ) >"$W/run.out" 2>"$W/run.err"
rc=$?
check "run: exit 0 (got $rc)" [ $rc = 0 ]
check "run: one sent" grep -q "run: 1 sent" "$W/run.err"
uid=$(search alice X-Perfbot-Report sample-hackbench-pipe)
check "alice has the first report" [ -n "$uid" ]
fetch alice "${uid%% *}" >"$W/mail"
check "the mail: the sample's subject" grep -q "^Subject: \[linux-next:master\] \[pipe\]  f017b0a495:  hackbench.throughput 10.5%" "$W/mail"
check "the mail: staged to alice" grep -q "^X-Perfbot-Staging: sent only to alice@example.test" "$W/mail"
check "the state in ~/.local/state" [ -f "$HOME/.local/state/perfbot/perfbot.db" ]
t=$(( $(date +%s) - t0 ))
check "the whole path in under 10 minutes (${t} s)" [ "$t" -lt 600 ]
echo "t-first-report: from 'make install' to the mail in ${t} s"
export HOME="$home_was"
