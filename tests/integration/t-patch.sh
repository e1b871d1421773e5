# A report on a posted patch (issue 14): the patch mail reaches its
# author's mailbox first; the report answers it (Re: its subject,
# In-Reply-To its Message-ID, References its thread) to the author and the
# patch's Cc; the author answers the report with "retest 2x"; the
# acknowledgement and the follow-up stay in that thread. The server's own
# threading must see the report under the patch, then five mails in one
# thread.

# The server's threading (THREAD=REFS: by References and In-Reply-To only,
# never by subject) of the mails of this test in alice's mailbox that
# match the search keys $1, as "TOP-LEVEL-THREADS MAILS FIRST-UID".
threads() {
	imap alice "" -X "UID THREAD REFS UTF-8 SUBJECT \"[PATCH v2 2/3]\" $1" |
		tr -d '\r' | sed -n 's/^\* THREAD //p' | awk '{
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (c == "(" && depth++ == 0) top++
			else if (c == ")") depth--
		}
		gsub(/[()]/, " "); print top + 0, NF, $1 }'
}
mkdir -p "$W/roots"
cp -r "$TOP/fixtures/seeds/003/base" "$TOP/fixtures/seeds/003/head" "$W/roots/"
# the seed's era rules, their base named absolutely
sed "s#^base: .*#base: $TOP/config/metrics.yaml#" \
	"$TOP/fixtures/seeds/003/metrics.yaml" >"$W/roots/metrics.yaml"
make_manifest pt-1 003
sed -i "s#$TOP/fixtures/seeds/003/#$W/roots/#g" "$W/manifests/pt-1.yaml"
psubj='[PATCH v2 2/3] iversion: make inode_cmp_iversion{+raw} return bool instead of s64'
cat >>"$W/manifests/pt-1.yaml" <<EOM
patch:
  message_id: "<20180130-2-dev@example.test>"
  subject: "$psubj"
  url: "https://git.example.test/lkp/linux/commits/Dev/iversion/20180131-010203"
  base: "https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git master"
  references: ["<20180130-0-dev@example.test>"]
  to: ["Bob <bob@example.test>"]
  cc: ["Dev <ALICE@example.test>"]
EOM
cat >>"$CONFIG" <<EOC
scheduler:
  backend: exec
  argv: ["$TOP/scripts/fake-lkp-run", "{result_root}", "{commit}", "{runs}", "{request_id}"]
  timeout: 60
EOC
sed -i 's#^  archive_url: .*#&\n  patch_archive_url: "https://lore.example.test/all/{message_id}/"#' "$CONFIG"

# 1. the patch, posted by its author (alice) to bob, alice on Cc
{
	printf 'From: Dev <alice@example.test>\nTo: Bob <bob@example.test>\n'
	printf 'Cc: alice@example.test\nSubject: %s\n' "$psubj"
	printf 'Message-ID: <20180130-2-dev@example.test>\n'
	printf 'In-Reply-To: <20180130-0-dev@example.test>\n'
	printf 'References: <20180130-0-dev@example.test>\n'
	printf 'Date: Tue, 30 Jan 2018 10:00:00 +0000\n\n'
	printf 'The comparison should be a bool.\n\n---\n fs/inode.c | 2 +-\n'
} >"$W/patch.eml"
curl -s --mail-from alice@example.test --mail-rcpt alice@example.test \
	--mail-rcpt bob@example.test -T "$W/patch.eml" \
	"smtp://127.0.0.1:$SMTP_PORT"
n=0
while [ "$(count alice Message-ID 20180130-2-dev@example.test)" != 1 ] &&
    [ $n -lt 20 ]; do
	sleep 0.5
	n=$((n + 1))
done
check "the patch is in its author's mailbox" \
	[ "$(count alice Message-ID 20180130-2-dev@example.test)" = 1 ]

# 2. the report answers the patch
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
check "report run exits 0" [ $? = 0 ]
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'pt-1'")
subject=$(sql "SELECT subject FROM outbox WHERE id = 'pt-1'")
check "the report's subject is Re: the patch's" [ "$subject" = "Re: $psubj" ]
sleep 1
set -- $(search alice In-Reply-To 20180130-2-dev@example.test)
check "the report is in alice's mailbox, answering the patch" [ $# = 1 ]
fetch alice "${1:-0}" >"$W/report.eml"
# (a folded header keeps its tab once unfolded: tabs become spaces)
"$MAILCHECK" "$W/report.eml" 2>"$W/report.body" | tr "\t" " " >"$W/report.check"
check "report Message-ID" grep -q "^header Message-Id: <$rmid>$" "$W/report.check"
check "report References: the cover letter and the patch" \
	grep -q "^header References: <20180130-0-dev@example.test> <20180130-2-dev@example.test>$" "$W/report.check"
check "report subject decoded" grep -qF "subject: Re: $psubj" "$W/report.check"
check "report Cc: bob (the patch's To), alice only once" \
	sh -c "grep '^header Cc:' '$W/report.check' | grep -q 'bob@example.test' &&
		! grep '^header Cc:' '$W/report.check' | grep -qi alice"
check "body: url line" grep -q "^url: https://git.example.test/lkp/linux/commits/Dev/iversion/20180131-010203$" "$W/report.body"
check "body: base line" grep -q "^base: https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git master$" "$W/report.body"
check "body: patch link built from the archive pattern" \
	grep -q "^patch link: https://lore.example.test/all/20180130-2-dev@example.test/$" "$W/report.body"
check "body: patch subject" grep -qF "patch subject: $psubj" "$W/report.body"
check "body: no tree line" sh -c "! grep -q '^https://git.kernel.org/.*linux.git master$' '$W/report.body'"
patch_uid=$(search alice Message-ID 20180130-2-dev@example.test)
thr=$(threads ALL)
check "the server threads the report under the patch ($thr)" \
	[ "$thr" = "1 2 $patch_uid" ]
check "bob got the report too" [ "$(count bob In-Reply-To 20180130-2-dev@example.test)" = 1 ]

# 3. alice answers the report in the patch's thread: retest 2x
{
	printf 'From: Dev <alice@example.test>\nTo: perfbot@example.test\n'
	printf 'Cc: bob@example.test\n'
	printf 'Subject: Re: %s\nMessage-ID: <rq-patch@example.test>\n' "$psubj"
	printf 'In-Reply-To: <%s>\n' "$rmid"
	printf 'References: <20180130-0-dev@example.test> <20180130-2-dev@example.test>\n <%s>\n\n' "$rmid"
	printf 'On Wed, perfbot wrote:\n> perfbot noticed a regression\n\nretest 2x\n'
} >"$W/rq"
curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
	--mail-rcpt alice@example.test -T "$W/rq" "smtp://127.0.0.1:$SMTP_PORT"
sleep 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "run with the request exits 0" [ $? = 0 ]
check "the request was routed to the report" \
	[ "$(sql "SELECT report_id FROM inbox WHERE message_id = 'rq-patch@example.test'")" = pt-1 ]
check "2 runs asked for" [ "$(sql "SELECT runs FROM requests WHERE kind = 'retest'")" = 2 ]
set -- $(search alice In-Reply-To rq-patch@example.test)
check "ack in the thread" [ $# -ge 1 ]
fetch_matching alice "$W/ack.eml" "will answer in this thread" "$@"
"$MAILCHECK" "$W/ack.eml" 2>"$W/ack.body" | tr "\t" " " >"$W/ack.check"
check "ack keeps the patch thread's References" \
	grep -q "^header References: <20180130-0-dev@example.test> <20180130-2-dev@example.test> <$rmid> <rq-patch@example.test>$" "$W/ack.check"
check "ack subject, no Re: Re:" grep -qF "subject: Re: $psubj" "$W/ack.check"
check "ack copies bob (a report recipient)" sh -c "grep '^header Cc:' '$W/ack.check' | grep -q bob@example.test"
check "ack says 2 runs" grep -q "2 more runs" "$W/ack.body"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "follow-up run exits 0" [ $? = 0 ]
check "retest done" [ "$(sql "SELECT status FROM requests WHERE kind = 'retest'")" = done ]
set -- $(search alice In-Reply-To rq-patch@example.test)
check "two answers in the thread (ack, follow-up)" [ $# = 2 ]
fetch_matching alice "$W/fu.eml" "^Verdict:" "$@"
"$MAILCHECK" "$W/fu.eml" 2>"$W/fu.body" | tr "\t" " " >"$W/fu.check"
check "follow-up keeps the patch thread's References" \
	grep -q "^header References: <20180130-0-dev@example.test> <20180130-2-dev@example.test> <$rmid> <rq-patch@example.test>$" "$W/fu.check"
check "follow-up copies bob" sh -c "grep '^header Cc:' '$W/fu.check' | grep -q bob@example.test"
check "follow-up names the report" grep -q "^header X-Perfbot-Report: pt-1$" "$W/fu.check"
check "follow-up has a verdict" grep -q "^Verdict: " "$W/fu.body"

# a client that sends In-Reply-To alone: the follow-up still finds the
# report (its Cc and report header), as the poll did
{
	printf 'From: Dev <alice@example.test>\nTo: perfbot@example.test\n'
	printf 'Subject: Re: %s\nMessage-ID: <rq-patch-2@example.test>\n' "$psubj"
	printf 'In-Reply-To: <%s>\n\nretest 2x\n' "$rmid"
} >"$W/rq2"
curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
	-T "$W/rq2" "smtp://127.0.0.1:$SMTP_PORT"
sleep 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e4"
check "second retest done" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'retest' AND status = 'done'")" = 2 ]
set -- $(search alice In-Reply-To rq-patch-2@example.test)
fetch_matching alice "$W/fu2.eml" "^Verdict:" "$@"
"$MAILCHECK" "$W/fu2.eml" 2>"$W/fu2.body" | tr "\t" " " >"$W/fu2.check"
check "follow-up to In-Reply-To alone names the report" grep -q "^header X-Perfbot-Report: pt-1$" "$W/fu2.check"
check "and copies bob" sh -c "grep '^header Cc:' '$W/fu2.check' | grep -q bob@example.test"

# 4. at the end: the patch, the report, the request, the ack and the
# follow-up are one thread (the second request went to the bot only, so
# its answers hang under it)
thr=$(threads "NOT HEADER In-Reply-To rq-patch-2@example.test")
check "one thread of five mails, the patch at its root ($thr)" \
	[ "$thr" = "1 5 $patch_uid" ]
