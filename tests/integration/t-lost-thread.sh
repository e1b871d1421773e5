# Issue 21 item 3: a new (or reset) state on a mailbox that holds replies
# to the bot's earlier reports does not answer "I found no report of mine"
# to a developer whose thread holds the bot's own Message-ID: the mail is
# recorded, logged, and not answered. A thread of no bot mail still gets
# the "no report" answer.
lost() {	# lost FROM MESSAGE-ID IN-REPLY-TO
	{
		printf 'From: Dev <%s>\nTo: perfbot@example.test\n' "$1"
		printf 'Subject: Re: [linux-next:master] old report\nDate: %s\n' "$(date -R)"
		printf 'Message-ID: <%s>\nIn-Reply-To: <%s>\nReferences: <%s>\n' "$2" "$3" "$3"
		printf 'MIME-Version: 1.0\nContent-Type: text/plain\n\nretest 4x\n'
	} >"$W/mail-$2"
	curl -s --max-time 20 --mail-from "$1" --mail-rcpt perfbot@example.test \
		-T "$W/mail-$2" "smtp://127.0.0.1:$SMTP_PORT"
}
lost alice@example.test lost-1@example.test 202611300815.4b086ddf7c8c8447-perfbot@example.test
lost carol@example.test lost-2@example.test stranger-1@example.test
for i in $(seq 1 100); do
	[ "$(imap perfbot "" -X 'UID SEARCH ALL' | tr -d '\r' | sed -n 's/^\* SEARCH *//p' | wc -w)" -ge 2 ] && break
	sleep 0.1
done
"$PERFBOT" poll --config "$CONFIG" >"$W/out" 2>"$W/err"
check "poll: exit 0" [ $? = 0 ]
"$PERFBOT" send --config "$CONFIG" >>"$W/out" 2>>"$W/err"
check "recorded, not answered" [ "$(sql "SELECT outcome FROM inbox WHERE message_id = 'lost-1@example.test'")" = "ignored: a thread of the bot's mail the state does not know" ]
check "logged, naming the mail" grep -q "<lost-1@example.test> from alice@example.test answers a mail of the bot's that the state does not know (a new or reset state?): not answered" "$W/err"
check "nothing queued for alice" [ "$(sql "SELECT count(*) FROM outbox WHERE recipients LIKE '%alice@%'")" = 0 ]
check "a thread of no bot mail: 'no report' answered" [ "$(sql "SELECT count(*) FROM outbox WHERE recipients LIKE '%carol@%'")" = 1 ]
