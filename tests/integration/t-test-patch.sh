# "test" with a patch pasted below the sender's "--" line: acknowledged,
# the farm asked with the placeholders of a test (kind, result root,
# commit, patch), and the follow-up in the thread carries LKP's table of
# three commits, the runs of the headline metric, the verdict "fixed"
# and the Tested-by trailer.
mkdir -p "$W/roots" "$W/results"
cp -r "$TOP/fixtures/seeds/003/base" "$TOP/fixtures/seeds/003/head" "$W/roots/"
sed "s#^base: .*#base: $TOP/config/metrics.yaml#" \
	"$TOP/fixtures/seeds/003/metrics.yaml" >"$W/roots/metrics.yaml"
make_manifest tp-1 003
sed -i "s#$TOP/fixtures/seeds/003/#$W/roots/#g" "$W/manifests/tp-1.yaml"
cat >>"$CONFIG" <<EOC
scheduler:
  backend: exec
  argv: ["$TOP/scripts/fake-lkp-run", "{result_root}", "{commit}", "{runs}", "{request_id}", "{kind}", "{job}", "{repo}", "{ref}", "{patch}"]
  results_dir: $W/results
  timeout: 60
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'tp-1'")
subject=$(sql "SELECT subject FROM outbox WHERE id = 'tp-1'")
{
	printf 'From: Joanna <alice@example.test>\nTo: perfbot@example.test\n'
	printf 'Subject: Re: %s\nMessage-ID: <tq1@example.test>\n' "$subject"
	printf 'In-Reply-To: <%s>\nReferences: <%s>\n\n' "$rmid" "$rmid"
	printf 'Could you check whether the following patch resolves the regression?\n\n'
	printf 'test\n\n--\n'
	printf 'diff --git a/fs/iversion.c b/fs/iversion.c\n'
	printf 'index 1234567..89abcde 100644\n--- a/fs/iversion.c\n+++ b/fs/iversion.c\n'
	printf '@@ -10,6 +10,7 @@ bool inode_cmp_iversion(void)\n'
	printf ' \tu64 cur;\n\n \tcur = inode_peek_iversion_raw(inode);\n'
	printf '+\t/* fake-lkp-run: aim7.jobs-per-min *1.219 */\n'
	printf ' \treturn cur != old;\n \t}\n }\n'
} >"$W/tq1"
curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
	-T "$W/tq1" "smtp://127.0.0.1:$SMTP_PORT"
sleep 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "run with the test exits 0" [ $? = 0 ]
rid=$(sql "SELECT request_id FROM requests WHERE kind = 'test'")
check "the test is recorded ($rid)" [ -n "$rid" ]
check "the form is patch" [ "$(sql "SELECT form FROM requests WHERE kind = 'test'")" = patch ]
check "the patch saved beside the result root" [ -f "$W/results/$rid.patch" ]
check "the patch is the pasted diff" grep -q "^+	/\* fake-lkp-run: aim7.jobs-per-min \*1.219 \*/$" "$W/results/$rid.patch"
check "its blank context line given back" grep -qx " " "$W/results/$rid.patch"
check "the farm wrote a result root" [ -f "$W/results/$rid/matrix.json" ]
check "built on the reported commit" [ "$(sql "SELECT commit_sha FROM requests WHERE kind = 'test'")" = c0cef30e4ff0dc025f4a1660b8f0ba43ed58426e ]
set -- $(search alice In-Reply-To tq1@example.test)
check "ack in thread" [ $# -ge 1 ]
fetch_matching alice "$W/ack.eml" "with your patch applied" "$@"
"$MAILCHECK" "$W/ack.eml" >/dev/null 2>"$W/ack.body"
check "ack names the commit and the patch" grep -q "on commit c0cef30e4f with your patch applied" "$W/ack.body"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "follow-up run exits 0" [ $? = 0 ]
check "test done" [ "$(sql "SELECT status FROM requests WHERE kind = 'test'")" = done ]
check "verdict recorded" [ "$(sql "SELECT detail FROM requests WHERE kind = 'test'")" = fixed ]
set -- $(search alice In-Reply-To tq1@example.test)
check "two answers in the thread (ack, follow-up)" [ $# = 2 ]
fetch_matching alice "$W/fu.eml" "^Verdict:" "$@"
"$MAILCHECK" "$W/fu.eml" >"$W/fu.check" 2>"$W/fu.body"
check "follow-up References the report" grep -Eq "^header References: <$rmid>[[:space:]]+<tq1@example.test>" "$W/fu.check"
check "the verdict is fixed" grep -q "^Verdict: fixed\.$" "$W/fu.body"
check "three commits in the table" grep -q "^3da90b159b146672 c0cef30e4ff0dc025f4a1660b8f " "$W/fu.body"
check "two %change columns" grep -q "%stddev     %change         %stddev     %change         %stddev" "$W/fu.body"
check "the headline row has two changes" grep -Eq "^ +40183 +-18\.0% +32964 +[-+][0-9.]+% +[0-9]+ +aim7\.jobs-per-min$" "$W/fu.body"
n=$(awk '/\(the test\):$/ { on = 1; next } on && /^\]/ { exit } on && /^  [0-9]/ { c++ } END { print c + 0 }' "$W/fu.body")
check "4 runs of the test listed ($n)" [ "$n" = 4 ]
check "the evidence of both comparisons" [ "$(grep -c "^evidence: " "$W/fu.body")" = 2 ]
check "the Tested-by trailer" grep -q "^| Tested-by: perfbot <perfbot@example.test>$" "$W/fu.body"
"$PERFBOT" status --config "$CONFIG" >"$W/status" 2>&1
check "status lists no test in flight" grep -q "^tests: 0$" "$W/status"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
set -- $(search alice In-Reply-To tq1@example.test)
check "no third answer" [ $# = 2 ]
