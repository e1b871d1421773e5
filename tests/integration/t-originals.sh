# Only what the sender wrote is a command (issue 22, items 1-8), through
# the real servers: the replies of fixtures/mail/ as their clients send
# them (French, Chinese and German Outlook, Japanese Outlook's HTML, an
# Apple Mail forward, a pasted patch, invisible characters), each over a
# quoted original or forward that holds a command of its own, are
# delivered to the bot in the report's thread; the commands it records
# are the sender's alone.
make_manifest og-1 004
mkdir -p "$W/spool"
printf 'scheduler:\n  backend: spool\n  spool_dir: %s/spool\n' "$W" >>"$CONFIG"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'og-1'")

cases="outlook-french:retest 3x
outlook-chinese:retest 3x
outlook-japanese-html:retest 3x
von-gesendet:retest 3x
outlook-header-block:help
apple-forward:help
pasted-patch:retest 3x
inline-patch:retest 4x
invisible:retest 3x"
n=0
while IFS=: read -r f want; do
	n=$((n + 1))
	# in the report's thread, from its author, a Message-ID of its own
	awk -v irt="<$rmid>" -v id="<og-$f@example.test>" '
		!body && /^$/ { body = 1 }
		!body && /^Return-Path:/ { next }
		!body && /^(From|In-Reply-To|References|Message-ID):/ { skip = 1
			if ($1 == "From:") print "From: Alice <alice@example.test>"
			else if ($1 == "Message-ID:") print "Message-ID: " id
			else print $1 " " irt
			next }
		!body && skip && /^[ \t]/ { next }
		{ skip = 0; print }' "$TOP/fixtures/mail/$f.eml" >"$W/$f.eml"
	curl -s --max-time 20 --mail-from alice@example.test --mail-rcpt perfbot@example.test \
		-T "$W/$f.eml" "smtp://127.0.0.1:$SMTP_PORT"
done <<EOF
$cases
EOF
for i in $(seq 1 150); do
	[ "$(imap perfbot "" -X 'UID SEARCH ALL' | tr -d '\r' | sed -n 's/^\* SEARCH *//p' | wc -w)" -ge $n ] && break
	sleep 0.1
done
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e1"
check "poll exits 0" [ $? = 0 ]
while IFS=: read -r f want; do
	check "$f: only '$want'" [ "$(sql "SELECT commands FROM inbox WHERE message_id = 'og-$f@example.test'")" = "[\"$want\"]" ]
done <<EOF
$cases
EOF
check "no quoted command was taken" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'retest' AND runs IN (9, 2)")" = 0 ]
