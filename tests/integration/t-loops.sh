# Loops and noise (issue 22, items 12-15), through the real servers: the
# bot's "help" answer relayed back by a list that rewrites From and drops
# Auto-Submitted is not answered (by its Message-ID, by its signature, and
# no line of it is a command); auto-replies that lack Auto-Submitted get
# nothing while a normal reply with Precedence: bulk is answered; a mail
# gateway's plain-text bounce of the report is recorded against it; 19
# repeats of a retest while it is open get one answer, to the sender alone.
make_manifest lp-1 004
mkdir -p "$W/spool"
printf 'scheduler:\n  backend: spool\n  spool_dir: %s/spool\n' "$W" >>"$CONFIG"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'lp-1'")
subject=$(sql "SELECT subject FROM outbox WHERE id = 'lp-1'")

bot_count() {
	imap perfbot "" -X 'UID SEARCH ALL' | tr -d '\r' | sed -n 's/^\* SEARCH *//p' | wc -w
}
settle() {	# settle N: until the bot's INBOX holds N mails
	for i in $(seq 1 150); do [ "$(bot_count)" -ge "$1" ] && return 0; sleep 0.1; done
	return 1
}
deliver() {	# deliver ENVELOPE FILE
	curl -s --max-time 20 --mail-from "$1" --mail-rcpt perfbot@example.test \
		-T "$2" "smtp://127.0.0.1:$SMTP_PORT"
}
lmail() {	# lmail ENVELOPE FROM MESSAGE-ID BODY [HEADER...]
	env=$1 from=$2 id=$3 body=$4
	shift 4
	{
		printf 'From: %s\nTo: perfbot@example.test\n' "$from"
		printf 'Cc: perf-reports@example.test\n'
		printf 'Date: %s\nMessage-ID: <%s>\n' "$(date -R)" "$id"
		printf 'In-Reply-To: <%s>\nReferences: <%s>\n' "$rmid" "$rmid"
		grep -q '^Subject:' <<<"$*" || printf 'Subject: Re: %s\n' "$subject"
		for h in "$@"; do printf '%s\n' "$h"; done
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n%b\n' "$body"
	} >"$W/m-$id"
	deliver "$env" "$W/m-$id"
}
answers() { sql "SELECT count(*) FROM outbox WHERE kind = 'answer'"; }
outcome() { sql "SELECT outcome FROM inbox WHERE message_id = '$1'"; }

# 1. alice asks for help; the answer goes to her and the list
n=0
lmail alice@example.test "Alice <alice@example.test>" lp-h@example.test "help"
n=$((n + 1)); settle $n
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "help answered" [ "$(answers)" = 1 ]
ans=$(sql "SELECT message_id FROM outbox WHERE kind = 'answer'")
sql_blob "SELECT message FROM outbox WHERE kind = 'answer'" >"$W/answer.eml"
check "no line of the answer is a command" sh -c "! grep -qx ' *help *' '$W/answer.eml'"

# 2. the list relays it back: From rewritten, Auto-Submitted dropped
relay() {	# relay OUT FROM MESSAGE-ID [KEEP-SIGNATURE]: the answer, relayed
	awk -v from="$2" -v id="$3" -v sig="${4:-1}" '
		!body && /^$/ { body = 1; print "List-Id: <perf-reports.example.test>"; print; next }
		!body && /^(Auto-Submitted|X-Auto-Response-Suppress):/ { next }
		!body && /^From:/ { print "From: " from; next }
		!body && /^Message-I[dD]:/ { print "Message-ID: <" id ">"; next }
		body && /^-- ?$/ && !sig { exit }
		{ print }' "$W/answer.eml" >"$1"
}
relay "$W/r1.eml" '"perfbot via perf-reports" <perf-reports@example.test>' "$ans"
deliver perf-reports-bounces@example.test "$W/r1.eml"
# ... and with none of the list's marks left: a new id, From a person
relay "$W/r2.eml" 'Alice <alice@example.test>' lp-r2@example.test
sed -i '/^List-Id:/d' "$W/r2.eml"
deliver alice@example.test "$W/r2.eml"
# ... and without the signature: no line of it reads as a command
relay "$W/r3.eml" 'Alice <alice@example.test>' lp-r3@example.test 0
sed -i '/^List-Id:/d' "$W/r3.eml"
deliver alice@example.test "$W/r3.eml"
n=$((n + 3)); settle $n
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e2"
check "the relayed answer is not answered" [ "$(answers)" = 1 ]
check "relayed: the bot's own mail" [ "$(outcome "$ans" | head -1)" = "ignored: the bot's own mail (its Message-ID)" ]
check "relayed, new id: the bot's own text" [ "$(outcome lp-r2@example.test)" = "ignored: the bot's own text (its signature)" ]
check "relayed, no signature: no commands" [ "$(outcome lp-r3@example.test)" = "no commands" ]

# 3. auto-replies that lack Auto-Submitted
i=0
for h in "X-Autoreply: yes" "X-Autorespond: yes" "Precedence: auto_reply" \
	"X-MS-Exchange-Inbox-Rules-Loop: alice@example.test" \
	"Subject: Automatic reply: $subject" "Subject: Out of Office: $subject" \
	"Subject: Abwesend: $subject"; do
	i=$((i + 1))
	lmail alice@example.test "Alice <alice@example.test>" "lp-a$i@example.test" \
		"I am out of the office until Monday.\nhelp" "$h"
done
lmail alice@example.test "Alice <alice@example.test>" lp-a8@example.test \
	"I am away.\nhelp" "Precedence: junk" "Subject: Away"
# a normal reply with Precedence: bulk is answered
lmail alice@example.test "Alice <alice@example.test>" lp-b@example.test "help" "Precedence: bulk"
n=$((n + 9)); settle $n
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e3"
check "8 auto-replies not answered" [ "$(sql "SELECT count(*) FROM inbox WHERE message_id LIKE 'lp-a%' AND outcome = 'ignored: an auto-reply'")" = 8 ]
check "a normal reply with Precedence: bulk answered" [ "$(outcome lp-b@example.test)" = answered ]
check "two answers in all" [ "$(answers)" = 2 ]

# 4. a mail gateway returns the report in plain text
{
	printf 'From: Mail Gateway <mail-gateway@example.test>\nTo: perfbot@example.test\n'
	printf 'Subject: Message blocked\nDate: %s\nMessage-ID: <lp-gw@example.test>\n\n' "$(date -R)"
	printf 'Your message to linux-kernel@vger.example.test was not delivered.\n\n'
	printf '%s\n' '-------- the message --------'
	sql_blob "SELECT message FROM outbox WHERE id = 'lp-1'"
} >"$W/gw.eml"
deliver mail-gateway@example.test "$W/gw.eml"
n=$((n + 1)); settle $n
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e4"
check "the gateway's bounce recorded against the report" [ "$(outcome lp-gw@example.test)" = "bounce: recorded against the report" ]
check "the bounce not answered" [ "$(answers)" = 2 ]

# 5. a retest, then 19 repeats while it is open
lmail alice@example.test "Alice <alice@example.test>" lp-t0@example.test "retest 2x"
for i in $(seq 1 19); do
	lmail alice@example.test "Alice <alice@example.test>" "lp-t$i@example.test" "retest 2x"
done
n=$((n + 20)); settle $n
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e5"
check "one retest queued" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'retest'")" = 1 ]
check "the repeats answered once" [ "$(sql "SELECT count(*) FROM inbox WHERE outcome = 'answered: a repeat while a retest is open'")" = 1 ]
check "18 repeats not answered" [ "$(sql "SELECT count(*) FROM inbox WHERE outcome LIKE 'ignored: a repeat while a retest is open%'")" = 18 ]
check "the ack and one repeat answer: 4 answers in all" [ "$(answers)" = 4 ]
rep=$(sql "SELECT message_id FROM inbox WHERE outcome = 'answered: a repeat while a retest is open'")
# the recipients of the answer in reply to it (the mail is a BLOB: read
# as bytes, not compared in SQL)
answer_to() {
	for r in $(sql "SELECT rowid FROM outbox WHERE kind = 'answer'"); do
		sql_blob "SELECT message FROM outbox WHERE rowid = $r" |
			grep -q "^In-Reply-To: <$1>" &&
			sql "SELECT recipients FROM outbox WHERE rowid = $r"
	done
}
check "the repeat answered to alice alone" [ "$(answer_to "$rep")" = '["alice@example.test"]' ]
"$PERFBOT" send --config "$CONFIG" 2>"$W/e6"
check "alice has the repeat answer" [ "$(count alice In-Reply-To "$rep")" = 1 ]
