# The limits of "test": a patch is needed (a forwarded one is not the
# sender's), limits.max_patch_bytes, N from 2, one test a mail,
# limits.tests_per_report and limits.tests_per_sender_per_day; none of
# the refused reaches the farm or the state.
make_manifest tl-1 003
make_manifest tl-2 004
mkdir -p "$W/spool" "$W/results"
cat >>"$CONFIG" <<EOC
scheduler:
  backend: spool
  spool_dir: $W/spool
  results_dir: $W/results
EOC
sed -i 's/^  mails_per_hour: 1000$/  mails_per_hour: 1000\n  tests_per_report: 2\n  tests_per_sender_per_day: 3\n  max_patch_bytes: 300/' "$CONFIG"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid1=$(sql "SELECT message_id FROM outbox WHERE id = 'tl-1'")
rmid2=$(sql "SELECT message_id FROM outbox WHERE id = 'tl-2'")
DIFF='diff --git a/x.c b/x.c
--- a/x.c
+++ b/x.c
@@ -1,2 +1,3 @@
 int a;
+int c;
 int b;'
ask() {	# ask REPORT-MESSAGE-ID MESSAGE-ID BODY
	printf 'From: Alice <alice@example.test>\nTo: perfbot@example.test\nSubject: Re: report\nMessage-ID: <%s>\nIn-Reply-To: <%s>\nReferences: <%s>\n\n%s\n' "$2" "$1" "$1" "$3" |
		curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
			-T - "smtp://127.0.0.1:$SMTP_PORT"
	sleep 0.5
}
body_of() {	# body_of MESSAGE-ID: the text of the bot's last answer to it
	set -- $(search alice In-Reply-To "$1")
	[ $# -ge 1 ] || return 0
	fetch alice "${!#}" >"$W/a.eml"
	"$MAILCHECK" "$W/a.eml" 2>&1 >/dev/null
}
tests() { sql "SELECT count(*) FROM requests WHERE kind = 'test'"; }
ask "$rmid1" tl-a@example.test "test"
ask "$rmid1" tl-b@example.test "test

---------- Forwarded message ---------
From: Dev <dev@example.org>
Date: Mon, 1 Dec 2026 10:00:00 +0000
Subject: [PATCH] x: fix
To: Alice <alice@example.test>

$DIFF"
BIG=$(printf '+int x%d;\n' $(seq 1 40))
ask "$rmid1" tl-c@example.test "test

diff --git a/x.c b/x.c
--- a/x.c
+++ b/x.c
@@ -1,0 +1,40 @@
$BIG"
ask "$rmid1" tl-d@example.test "test 1x

$DIFF"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "nothing asked" [ "$(tests)" = 0 ] && [ -z "$(ls "$W/spool")" ]
body_of tl-a@example.test >"$W/a.txt"
check "no patch: said so" grep -q "I found no patch in your mail to test" "$W/a.txt"
check "with the forms" grep -q "^  - test COMMIT: a commit of the reported tree" "$W/a.txt"
body_of tl-b@example.test >"$W/b.txt"
check "a forwarded patch is not the sender's" grep -q "I found no patch in your mail to test" "$W/b.txt"
body_of tl-c@example.test >"$W/c.txt"
check "a patch over max_patch_bytes refused" grep -q "more than the 300 I take" "$W/c.txt"
body_of tl-d@example.test >"$W/d.txt"
check "test 1x refused" grep -q "N must be between 2 and 20" "$W/d.txt"
ask "$rmid1" tl-e@example.test "test
#perfbot test 8x

$DIFF"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "one test a mail" [ "$(tests)" = 1 ]
body_of tl-e@example.test >"$W/e.txt"
check "the first asked" grep -q "I queued 4 runs of this job" "$W/e.txt"
check "the second refused" grep -q 'I run one test a mail, so I did not do "#perfbot test 8x"' "$W/e.txt"
ask "$rmid1" tl-f@example.test "#perfbot: test 8x

$DIFF"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "the second with 8 runs" [ "$(sql "SELECT count(*) FROM requests WHERE kind = 'test' AND runs = 8")" = 1 ]
ask "$rmid1" tl-g@example.test "test

$DIFF"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "tests_per_report: two" [ "$(tests)" = 2 ]
body_of tl-g@example.test >"$W/g.txt"
check "the third refused" grep -q "This report has had its 2 tests already" "$W/g.txt"
ask "$rmid2" tl-h@example.test "test

$DIFF"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e4"
ask "$rmid2" tl-i@example.test "test

$DIFF"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e4"
check "tests_per_sender_per_day: three" [ "$(tests)" = 3 ]
body_of tl-i@example.test >"$W/i.txt"
check "the fourth of the day refused" grep -q "You have asked for 3 tests in the last day" "$W/i.txt"
