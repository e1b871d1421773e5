# Strangers cannot make the bot mail the list: 30 forged senders give 0
# mails to the list; a forged From (its envelope in another domain) gets
# nothing at all; a stranger is refused once a day, to the sender alone;
# a global cap holds; commands.authserv_id requires the MTA's DKIM result.
make_manifest fg 004
mkdir -p "$W/spool"
printf 'scheduler:\n  backend: spool\n  spool_dir: %s/spool\n' "$W" >>"$CONFIG"
sed -i 's/^  mails_per_hour: 1000$/&\n  refusals_per_day: 2/' "$CONFIG"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'fg'")
lists0=$(imap perf-reports "" -X 'UID SEARCH ALL' | tr -d '\r' | sed -n 's/^\* SEARCH *//p' | wc -w)

fmail() {	# fmail ENVELOPE FROM MESSAGE-ID PARENT BODY [HEADER]
	{
		printf 'From: Someone <%s>\nTo: perfbot@example.test\n' "$2"
		printf 'Cc: perf-reports@example.test\nSubject: Re: report\n'
		printf 'Date: %s\nMessage-ID: <%s>\n' "$(date -R)" "$3"
		printf 'In-Reply-To: <%s>\nReferences: <%s>\n' "$4" "$4"
		[ -n "${6:-}" ] && printf '%s\n' "$6"
		printf 'MIME-Version: 1.0\nContent-Type: text/plain\n\n%b\n' "$5"
	} >"$W/m-$3"
	curl -s --max-time 20 --mail-from "$1" --mail-rcpt perfbot@example.test \
		-T "$W/m-$3" "smtp://127.0.0.1:$SMTP_PORT"
}
bot_count() {
	imap perfbot "" -X 'UID SEARCH ALL' | tr -d '\r' | sed -n 's/^\* SEARCH *//p' | wc -w
}
settle() {
	for i in $(seq 1 150); do [ "$(bot_count)" -ge "$1" ] && return 0; sleep 0.1; done
	return 1
}
for i in $(seq 1 20); do	# forged From: the envelope is elsewhere
	fmail mallory@example.test "victim$i@example.org" "fg-x$i@example.test" "$rmid" "retest 4x"
done
for i in $(seq 1 5); do		# strangers that sign their own name
	fmail mallory@example.test mallory@example.test "fg-m$i@example.test" "$rmid" "retest 4x"
	fmail bob@example.test bob@example.test "fg-b$i@example.test" "nothing-$i@example.test" "retest"
done
check "30 mails delivered to the bot" settle 30
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e1"
check "poll exits 0" [ $? = 0 ]
"$PERFBOT" send --config "$CONFIG" 2>"$W/e2"
sleep 1
lists1=$(imap perf-reports "" -X 'UID SEARCH ALL' | tr -d '\r' | sed -n 's/^\* SEARCH *//p' | wc -w)
check "0 mails to the list ($lists0 -> $lists1)" [ "$lists0" = "$lists1" ]
check "no answer copies the list" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'answer' AND recipients LIKE '%perf-reports%'")" = 0 ]
check "forged Froms get nothing" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'answer' AND recipients LIKE '%victim%'")" = 0 ]
check "forged Froms recorded as such" [ "$(sql "SELECT count(*) FROM inbox WHERE outcome LIKE 'ignored: From and the envelope sender%'")" = 20 ]
check "one refusal for mallory" [ "$(count mallory In-Reply-To fg-m)" = 1 ]
check "one no-report answer for bob" [ "$(count bob In-Reply-To fg-b)" = 1 ]
check "2 answers in all" [ "$(sql "SELECT count(*) FROM outbox WHERE kind = 'answer'")" = 2 ]
check "no retest from strangers" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'retest'")" = 0 ]
# the global cap (2 a day) is reached: alice's no-report mail gets nothing
fmail alice@example.test alice@example.test fg-a1@example.test nothing@example.test "retest"
check "alice's mail delivered" settle 31
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e3"
check "cap recorded" [ "$(sql "SELECT outcome FROM inbox WHERE message_id = 'fg-a1@example.test'")" = "ignored: no report in this thread (limits.refusals_per_day reached)" ]
# commands.authserv_id: only a passing result of the operator's MTA counts
sed -i "s/^  allow: .*/&\n  authserv_id: mx.example.test/" "$CONFIG"
fmail alice@example.test alice@example.test fg-a2@example.test "$rmid" "retest 2x"
fmail alice@example.test alice@example.test fg-a3@example.test "$rmid" "retest 3x" \
	"Authentication-Results: evil.example.org; dkim=pass header.d=example.test"
fmail alice@example.test alice@example.test fg-a4@example.test "$rmid" "retest 4x" \
	"Authentication-Results: mx.example.test; spf=pass smtp.mailfrom=example.test; dkim=pass (2048-bit key) header.d=example.test header.s=s1"
check "alice's mails delivered" settle 34
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e4"
check "no A-R: not answered" sql_pipe "SELECT outcome FROM inbox WHERE outcome LIKE 'ignored: no passing DKIM%'" "wc -l | grep -qx 2"
check "only the MTA's dkim=pass retest recorded" [ "$(sql_list "SELECT runs FROM requests WHERE kind = 'retest' ORDER BY rowid")" = 4 ]
