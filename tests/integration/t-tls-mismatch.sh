# Issue 21 items 1, 5 and 10 against the real Postfix and Dovecot: each TLS
# mismatch recognised, the setting to change named, exit 78, one error
# line and nothing a library prints; check --connect says truthfully that
# no AUTH was offered without TLS; the mail stays queued.
make_manifest tls-1 004
cp "$CONFIG" "$W/good.yaml"
set_smtp() {	# set_smtp URL TLS
	sed -e "s#^  url: smtp://127.0.0.1:$SUBMISSION_PORT#  url: $1#" \
	    -e "0,/^  tls: starttls/s//  tls: $2/" \
	    -e "s/^  connect_timeout: 5$/  connect_timeout: 30/" "$W/good.yaml" >"$CONFIG"
	sed -i '/^imap:/,$d' "$CONFIG"
	grep '^state' "$W/good.yaml" >>"$CONFIG"
	cat >>"$CONFIG" <<EOC
sources:
  - dir: $W/manifests
EOC
}
set_smtp "smtp://127.0.0.1:$SUBMISSION_PORT" none
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "tls: none on a STARTTLS-only port: exit 78 (got $rc)" [ $rc = 78 ]
check "... names smtp.tls, with the server's words" grep -q "perfbot: smtp.tls: .*530 5.7.0 Must issue a STARTTLS command first" "$W/err"
check "... the mail stays queued" [ "$(sql "SELECT status || attempts FROM outbox WHERE id = 'tls-1'")" = queued0 ]
"$PERFBOT" check --connect --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "check --connect, tls: none: exit 78 (got $rc)" [ $rc = 78 ]
check "... no AUTH offered without TLS, login not tried" grep -q "the server offered no AUTH without TLS (smtp.tls: none), so the login as 'perfbot' was not tried" "$W/err"
check "... never 'accepted'" sh -c "! grep -q accepted '$W/out' '$W/err'"
set_smtp "smtp://127.0.0.1:$SMTPS_PORT" starttls
t0=$(date +%s)
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
secs=$(( $(date +%s) - t0 ))
check "STARTTLS on the implicit port: exit 78 (got $rc), $secs s" [ $rc = 78 ]
check "... says use smtps://" grep -q "perfbot: smtp.url: .*speaks implicit TLS (smtps, port 465): use smtps://127.0.0.1:$SMTPS_PORT" "$W/err"
# issue 29 item 11: a greeting 3 s late has the port tried with TLS, not
# smtp.connect_timeout (30 s) waited for
check "... within 10 s, not the 30 s of connect_timeout (took $secs s)" [ $secs -lt 10 ]
check "... says why: no greeting, a TLS handshake" grep -q "no greeting in 3 s, and a TLS handshake on the port succeeded" "$W/err"
t0=$(date +%s)
"$PERFBOT" check --connect --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
secs=$(( $(date +%s) - t0 ))
check "check --connect, STARTTLS on the implicit port: exit 78 (got $rc) in $secs s" [ $rc = 78 -a $secs -lt 10 ]
check "... says use smtps://, once" [ "$(grep -c "use smtps://127.0.0.1:$SMTPS_PORT" "$W/err")" = 1 ]
set_smtp "smtps://127.0.0.1:$SUBMISSION_PORT" implicit
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "implicit TLS on the STARTTLS port: exit 78 (got $rc)" [ $rc = 78 ]
check "... says use smtp:// with starttls" grep -q "perfbot: smtp.url: .*answers in plain text, not with implicit TLS: use smtp://127.0.0.1:$SUBMISSION_PORT (smtp.tls: starttls)" "$W/err"
check "... no raw library line" sh -c "! grep -v 'perfbot: ' '$W/err' | grep -q ."
check "... still queued" [ "$(sql "SELECT status FROM outbox WHERE id = 'tls-1'")" = queued ]
# IMAP: imaps:// on the plain port, STARTTLS on the imaps port
cp "$W/good.yaml" "$CONFIG"
sed -i -e "s#^  url: imap://127.0.0.1:$IMAP_PORT#  url: imaps://127.0.0.1:$IMAP_PORT#" \
	-e '/^imap:/,/^state:/s/^  tls: starttls/  tls: implicit/' "$CONFIG"
"$PERFBOT" poll --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "imaps:// on the plain port: exit 78 (got $rc)" [ $rc = 78 ]
check "... says use imap://" grep -q "perfbot: imap.url: .*answers in plain text, not with implicit TLS: use imap://127.0.0.1:$IMAP_PORT" "$W/err"
check "... no raw GnuTLS line, no (error 43)" sh -c "! grep -Eq 'GnuTLS error|error 43' '$W/err'"
cp "$W/good.yaml" "$CONFIG"
sed -i -e "s#^  url: imap://127.0.0.1:$IMAP_PORT#  url: imap://127.0.0.1:$IMAPS_PORT#" -e 's/^  timeout: 10/  timeout: 2/' "$CONFIG"
"$PERFBOT" poll --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "STARTTLS on the imaps port: exit 78 (got $rc)" [ $rc = 78 ]
check "... says use imaps://" grep -q "perfbot: imap.url: .*speaks implicit TLS (imaps, port 993): use imaps://127.0.0.1:$IMAPS_PORT" "$W/err"
cp "$W/good.yaml" "$CONFIG"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "fixed: the mail goes" [ "$(sql "SELECT status FROM outbox WHERE id = 'tls-1'")" = sent ]
