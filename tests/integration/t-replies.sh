# Replies by IMAP: a developer's "retest 4x" is acknowledged in thread; a
# stranger is refused once; an auto-reply gets nothing; the same reply
# delivered twice is handled once.
make_manifest p-1 004
mkdir -p "$W/spool"
printf 'scheduler:\n  backend: spool\n  spool_dir: %s/spool\n' "$W" >>"$CONFIG"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'p-1'")
subject=$(sql "SELECT subject FROM outbox WHERE id = 'p-1'")

reply() {	# reply FROM MESSAGE-ID BODY [EXTRA-HEADER]
	{
		printf 'From: Dev <%s>\nTo: perfbot@example.test\n' "$1"
		printf 'Cc: perf-reports@example.test\n'
		printf 'Subject: Re: %s\nDate: %s\n' "$subject" "$(date -R)"
		printf 'Message-ID: <%s>\nIn-Reply-To: <%s>\n' "$2" "$rmid"
		printf 'References: <%s>\n' "$rmid"
		[ -n "${4:-}" ] && printf '%s\n' "$4"
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n'
		printf '%b\n' "$3"
	} >"$W/mail-$2"
	curl -s --max-time 20 --mail-from "$1" --mail-rcpt perfbot@example.test \
		-T "$W/mail-$2" "smtp://127.0.0.1:$SMTP_PORT"
}
settle() {	# wait until perfbot's INBOX holds N messages
	for i in $(seq 1 100); do
		[ "$(imap perfbot "" -X 'UID SEARCH ALL' | tr -d '\r' | sed -n 's/^\* SEARCH *//p' | wc -w)" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

reply alice@example.test r1@example.test "On Mon, perfbot wrote:\n> some report\n> retest 9x\n\nretest 4x\n\nThanks,\nAlice"
reply mallory@example.test r2@example.test "retest 20x"
reply mallory@example.test r3@example.test "retest 20x again\nretest"
reply bob@example.test r4@example.test "I am out of the office.\nretest 2x" "Auto-Submitted: auto-replied"
reply alice@example.test r1@example.test "On Mon, perfbot wrote:\n> some report\n> retest 9x\n\nretest 4x\n\nThanks,\nAlice"
settle 5
check "five mails delivered to the bot" settle 5
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e1"
check "poll exits 0" [ $? = 0 ]
check "retest recorded once" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'retest' AND report_id = 'p-1' AND runs = 4")" = 1 ]
check "quoted retest 9x not taken" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'retest' AND runs = 9")" = 0 ]
check "duplicate handled once" [ "$(sql "SELECT count(*) FROM inbox WHERE message_id = 'r1@example.test'")" = 1 ]
ack=$(search alice In-Reply-To r1@example.test)
check "ack in alice's mailbox" [ -n "$ack" ]
set -- $ack
check "exactly one ack" [ $# = 1 ]
fetch alice "$1" >"$W/ack.eml"
"$MAILCHECK" "$W/ack.eml" >"$W/ack.check" 2>"$W/ack.body"
check "ack In-Reply-To" grep -q "^header In-Reply-To: <r1@example.test>" "$W/ack.check"
# the longer Message-IDs fold the header: any folding white space
check "ack References" grep -Eq "^header References: <$rmid>[[:space:]]+<r1@example.test>" "$W/ack.check"
check "ack subject Re: once" grep -q "^subject: Re: \[linux-next" "$W/ack.check"
check "ack auto-replied" grep -q "^header Auto-Submitted: auto-replied" "$W/ack.check"
check "ack says queued 4 runs" grep -q "queued 4 more runs" "$W/ack.body"
check "one spool request per commit" [ "$(ls "$W/spool" | wc -l)" = 2 ]
check "ack copies the list" grep -q "^header Cc: .*perf-reports@example.test" "$W/ack.check"
check "stranger refused once" [ "$(count mallory In-Reply-To r2@example.test)" = 1 ]
check "second stranger mail not answered" [ "$(count mallory In-Reply-To r3@example.test)" = 0 ]
check "stranger's retest not recorded" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'retest' AND requested_by = 'mallory@example.test'")" = 0 ]
check "auto-reply not answered" [ "$(count bob In-Reply-To r4@example.test)" = 0 ]
check "auto-reply recorded as ignored" sql_pipe "SELECT outcome FROM inbox WHERE message_id = 'r4@example.test'" "grep -q '^ignored'"
check "handled mail marked seen" [ -z "$(imap perfbot "" -X 'UID SEARCH UNSEEN' | tr -d '\r' | sed -n 's/^\* SEARCH *//p')" ]
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e2"
check "a second poll fetches nothing" grep -q "poll: 0 fetched" "$W/e2"
