# Who may command (issue 22, items 9-11), through the real servers: a
# mailing list never commands nor is answered (List-Id, its bounces
# envelope, From the configured list, "Mallory via list"); commands.allow
# does not skip the envelope check; with commands.authserv_id only the
# topmost header of that id counts and arc=pass alone vouches for nobody.
make_manifest ls-1 004
mkdir -p "$W/spool"
printf 'scheduler:\n  backend: spool\n  spool_dir: %s/spool\n' "$W" >>"$CONFIG"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'ls-1'")

bot_count() {
	imap perfbot "" -X 'UID SEARCH ALL' | tr -d '\r' | sed -n 's/^\* SEARCH *//p' | wc -w
}
settle() {
	for i in $(seq 1 150); do [ "$(bot_count)" -ge "$1" ] && return 0; sleep 0.1; done
	return 1
}
lsmail() {	# lsmail ENVELOPE FROM MESSAGE-ID BODY [HEADER...]
	env=$1 from=$2 id=$3 body=$4
	shift 4
	{
		printf 'From: %s\nTo: perfbot@example.test\n' "$from"
		printf 'Cc: perf-reports@example.test\nSubject: Re: report\n'
		printf 'Date: %s\nMessage-ID: <%s>\n' "$(date -R)" "$id"
		printf 'In-Reply-To: <%s>\nReferences: <%s>\n' "$rmid" "$rmid"
		for h in "$@"; do printf '%s\n' "$h"; done
		printf 'MIME-Version: 1.0\nContent-Type: text/plain\n\n%b\n' "$body"
	} >"$W/m-$id"
	curl -s --max-time 20 --mail-from "$env" --mail-rcpt perfbot@example.test \
		-T "$W/m-$id" "smtp://127.0.0.1:$SMTP_PORT"
}
outcome() { sql "SELECT outcome FROM inbox WHERE message_id = '$1'"; }
# a mail refused before it was read is recorded under its mailbox position
rekeyed() {	# rekeyed MESSAGE-ID: the outcome of its first copy
	set -- $(search perfbot Message-ID "$1")
	sql "SELECT outcome FROM inbox WHERE uid = $1"
}
answers() { sql "SELECT count(*) FROM outbox WHERE kind = 'answer'"; }

# 9. the list: relayed with List-Id, by its bounces address, From itself
lsmail perf-reports-bounces@example.test '"Mallory via perf-reports" <perf-reports@example.test>' \
	ls-v@example.test "help" "List-Id: <perf-reports.example.test>"
lsmail perf-reports-bounces@example.test '"Mallory via perf-reports" <perf-reports@example.test>' \
	ls-w@example.test "help"
lsmail perf-reports@example.test 'perf-reports@example.test' ls-x@example.test "retest 4x"
lsmail alice@example.test 'Alice <alice@example.test>' ls-y@example.test "help" \
	"List-Id: <perf-reports.example.test>"
lsmail perf-reports@example.test '"Mallory via perf-reports" <perf-reports@example.test>' \
	ls-z@example.test "retest 3x"
check "5 list mails delivered" settle 5
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e1"
check "List-Id: not obeyed" [ "$(rekeyed ls-v@example.test)" = "ignored: came through a mailing list (List-Id)" ]
check "the list's bounces envelope: not obeyed" [ "$(rekeyed ls-w@example.test)" = "ignored: the envelope sender 'perf-reports-bounces@example.test' is a mailing list's" ]
check "From the configured list: not obeyed" [ "$(rekeyed ls-x@example.test)" = "ignored: From 'perf-reports@example.test' is a mailing list" ]
check "a person's copy through the list: not obeyed" [ "$(rekeyed ls-y@example.test)" = "ignored: came through a mailing list (List-Id)" ]
check "a From the list rewrote: not obeyed" [ "$(rekeyed ls-z@example.test)" = "ignored: From 'perf-reports@example.test' is a mailing list" ]
check "no answer to the list" [ "$(answers)" = 0 ]
check "no retest from the list" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'retest'")" = 0 ]
# the same person straight to the bot is answered (the list's copy was
# recorded under its mailbox position, so this one is still read)
lsmail alice@example.test 'Alice <alice@example.test>' ls-y@example.test "help"
check "the direct copy delivered" settle 6
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e2"
check "the direct copy answered" [ "$(outcome ls-y@example.test)" = answered ]

# 10. commands.allow (carol) does not skip the envelope check
lsmail mallory@example.org 'Carol <carol@example.test>' ls-c1@example.test "retest 4x"
lsmail carol@example.test 'Carol <carol@example.test>' ls-c2@example.test "help"
check "carol's mails delivered" settle 8
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e3"
check "an allowed From under a stranger's envelope: not obeyed" sql_pipe "SELECT outcome FROM inbox WHERE outcome = 'ignored: From and the envelope sender are in different domains'" "grep -q ."
check "no retest from the forgery" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'retest'")" = 0 ]
check "carol herself answered" [ "$(outcome ls-c2@example.test)" = answered ]

# 11. commands.authserv_id: the topmost header of that id alone, no arc
sed -i "s/^  allow: .*/&\n  authserv_id: mx.example.test/" "$CONFIG"
lsmail alice@example.test 'Alice <alice@example.test>' ls-a1@example.test "retest 2x" \
	"Authentication-Results: mx.example.test; arc=pass (i=1); dmarc=fail header.from=example.test"
lsmail alice@example.test 'Alice <alice@example.test>' ls-a2@example.test "retest 3x" \
	"Authentication-Results: mx.example.test; dkim=fail header.d=example.test" \
	"Authentication-Results: mx.example.test; dkim=pass header.d=example.test"
lsmail alice@example.test 'Alice <alice@example.test>' ls-a3@example.test "retest 4x" \
	"Authentication-Results: other.example; dkim=fail" \
	"Authentication-Results: mx.example.test; dmarc=pass header.from=example.test" \
	"Authentication-Results: mx.example.test; dkim=fail"
check "alice's mails delivered" settle 11
"$PERFBOT" poll --config "$CONFIG" 2>"$W/e4"
check "arc=pass beside dmarc=fail: not obeyed" sql_pipe "SELECT count(*) FROM inbox WHERE outcome LIKE 'ignored: no passing DKIM or DMARC%'" "grep -qx 2"
check "a forged lower header does not count; the top one does" [ "$(sql_list "SELECT runs FROM requests WHERE kind = 'retest' ORDER BY rowid")" = 4 ]
