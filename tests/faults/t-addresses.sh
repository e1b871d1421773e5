# Issue 25 item 9: one address check at load for the config and the
# manifests (no C0/C1 control, no Unicode line or paragraph separator, one
# mailbox each, NUL refused); SMTPUTF8 only when the server offers it.
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
fx_setup "$PORT"
cp "$CONFIG" "$W/good.yaml"
sed -i 's/^  cc: \[perf-reports@example.test\]/  cc: ["perf-reports@example.test\\r\\nBcc: x@evil.test"]/' "$CONFIG"
"$PERFBOT" check --config "$CONFIG" >"$W/out" 2>"$W/err"
check "config: CRLF in recipients.cc refused (78)" [ $? = 78 ]
check "... naming the key" grep -q "'recipients.cc' must be a list of mail addresses: a control character" "$W/err"
sed -e 's/^  from: .*/  from: "perfbot <a@example.test>, b@example.test"/' "$W/good.yaml" >"$CONFIG"
"$PERFBOT" check --config "$CONFIG" >"$W/out" 2>"$W/err"
check "config: two addresses in identity.from refused (78)" [ $? = 78 ]
cp "$W/good.yaml" "$CONFIG"
patch_manifest() {	# patch_manifest ID KEY VALUE
	make_manifest "$1"
	printf 'patch:\n  message_id: "<p-%s@example.test>"\n  subject: "[PATCH] x"\n  %s: %s\n' "$1" "$2" "$3" >>"$W/manifests/$1.yaml"
}
patch_manifest a-1 to '["Maint\u0085 <maint@example.test>"]'
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "manifest: NEL in patch.to refused (65)" [ $? = 65 ]
check "... naming the key" grep -q "'patch.to'" "$W/err"
rm -f "$W/manifests/"*
make_manifest a-2
printf 'cc: ["list\\u2028@example.test"]\n' >>"$W/manifests/a-2.yaml"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "manifest: U+2028 in cc refused (65)" [ $? = 65 ]
check "... says why" grep -q "'cc' holds what is not one mail address: a Unicode line or paragraph separator" "$W/err"
rm -f "$W/manifests/"*
make_manifest a-3
printf 'patch:\n  message_id: "<p-a3@example.test>"\n  subject: "[PATCH] x\\0 hidden"\n' >>"$W/manifests/a-3.yaml"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "manifest: NUL in patch.subject refused, not cut (65)" [ $? = 65 ]
check "... says so" grep -q "'patch.subject' holds a NUL character" "$W/err"
check "nothing of them was mailed" [ ! -s "$S/accepted" ]
rm -f "$W/manifests/"*
# an address that needs SMTPUTF8: only where the server offers it
make_manifest u-1
printf 'cc: ["J\303\266rg <j\303\266rg@example.test>"]\n' >>"$W/manifests/u-1.yaml"
printf 'ehlo 250 front|AUTH PLAIN\n' >"$S/script"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "no SMTPUTF8 offered: the others got it" grep -q "to alice@example.test,perf-reports@example.test$" "$S/accepted"
check "... the UTF-8 address not sent" sh -c "! grep -q 'RCPT TO:<j' '$S/log'"
check "... and recorded refused, saying why" sql_pipe "SELECT reply FROM outbox_recipients WHERE status = 'rejected'" "grep -q 'needs SMTPUTF8'"
make_manifest u-2
printf 'cc: ["J\303\266rg <j\303\266rg@example.test>"]\n' >>"$W/manifests/u-2.yaml"
printf 'ehlo 250 front|AUTH PLAIN|SMTPUTF8\n' >"$S/script"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "SMTPUTF8 offered: sent to it too" [ "$(sql "SELECT r.status FROM outbox_recipients r JOIN outbox o ON o.rowid = r.mail WHERE o.id = 'u-2' AND address LIKE 'j%'")" = accepted ]
