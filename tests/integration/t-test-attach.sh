# "test" with the patch attached (application/octet-stream, named .patch,
# base64, CRLF line ends, as webmail sends it) below a quoted report: the
# attachment is the patch, taken byte for byte but its line ends; the
# follow-up says "partly fixed".
mkdir -p "$W/roots" "$W/results"
cp -r "$TOP/fixtures/seeds/003/base" "$TOP/fixtures/seeds/003/head" "$W/roots/"
sed "s#^base: .*#base: $TOP/config/metrics.yaml#" \
	"$TOP/fixtures/seeds/003/metrics.yaml" >"$W/roots/metrics.yaml"
make_manifest ta-1 003
sed -i "s#$TOP/fixtures/seeds/003/#$W/roots/#g" "$W/manifests/ta-1.yaml"
cat >>"$CONFIG" <<EOC
scheduler:
  backend: exec
  argv: ["$TOP/scripts/fake-lkp-run", "{result_root}", "{commit}", "{runs}", "{request_id}", "{kind}", "{job}", "{repo}", "{ref}", "{patch}"]
  results_dir: $W/results
  timeout: 60
EOC
"$PERFBOT" run --config "$CONFIG" 2>"$W/e0"
rmid=$(sql "SELECT message_id FROM outbox WHERE id = 'ta-1'")
subject=$(sql "SELECT subject FROM outbox WHERE id = 'ta-1'")
printf 'From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001\nFrom: Joanna <alice@example.test>\nSubject: [PATCH] iversion: keep the old compare\n\n---\n fs/iversion.c | 1 +\n\ndiff --git a/fs/iversion.c b/fs/iversion.c\n--- a/fs/iversion.c\n+++ b/fs/iversion.c\n@@ -10,3 +10,4 @@ bool inode_cmp_iversion(void)\n \tu64 cur;\n+\t/* fake-lkp-run: aim7.jobs-per-min *1.1 */\n \treturn cur != old;\n }\n-- \n2.43.0\n' |
	sed 's/$/\r/' >"$W/fix.patch"
{
	printf 'From: Joanna <alice@example.test>\nTo: perfbot@example.test\n'
	printf 'Subject: Re: %s\nMessage-ID: <ta1@example.test>\n' "$subject"
	printf 'In-Reply-To: <%s>\nReferences: <%s>\n' "$rmid" "$rmid"
	printf 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b0"\n\n'
	printf -- '--b0\nContent-Type: text/plain; charset=utf-8\n\n'
	printf 'On Fri, Feb 14, 2025, perfbot wrote:\n> perfbot noticed a -18.0%% regression of aim7.jobs-per-min\n> diff --git a/x b/x\n\n'
	printf 'Would the attached patch help?\n\ntest\n\n'
	printf -- '--b0\nContent-Type: application/octet-stream; name="0001-iversion.patch"\n'
	printf 'Content-Disposition: attachment; filename="0001-iversion.patch"\n'
	printf 'Content-Transfer-Encoding: base64\n\n'
	base64 "$W/fix.patch"
	printf -- '--b0--\n'
} >"$W/ta1"
curl -s --mail-from alice@example.test --mail-rcpt perfbot@example.test \
	-T "$W/ta1" "smtp://127.0.0.1:$SMTP_PORT"
sleep 1
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "run with the test exits 0" [ $? = 0 ]
rid=$(sql "SELECT request_id FROM requests WHERE kind = 'test'")
check "the test is recorded" [ -n "$rid" ]
tr -d '\r' <"$W/fix.patch" >"$W/fix.lf"
check "the saved patch is the attachment, LF line ends" cmp -s "$W/fix.lf" "$W/results/$rid.patch"
set -- $(search alice In-Reply-To ta1@example.test)
fetch_matching alice "$W/ack.eml" "with your patch applied" "$@"
"$MAILCHECK" "$W/ack.eml" >/dev/null 2>"$W/ack.body"
check "ack says it was attached" sh -c "tr '\\n' ' ' <\"\$1\" | grep -q 'attached as 0001-iversion.patch'" sh "$W/ack.body"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "test done" [ "$(sql "SELECT status FROM requests WHERE kind = 'test'")" = done ]
check "verdict recorded: partly fixed" [ "$(sql "SELECT detail FROM requests WHERE kind = 'test'")" = "partly fixed" ]
set -- $(search alice In-Reply-To ta1@example.test)
fetch_matching alice "$W/fu.eml" "^Verdict:" "$@"
"$MAILCHECK" "$W/fu.eml" >/dev/null 2>"$W/fu.body"
check "the verdict is partly fixed" grep -q "^Verdict: partly fixed\.$" "$W/fu.body"
check "the tested column's subject is the patch's" grep -q '^  [0-9a-f]\{10\} ("iversion: keep the old compare")$' "$W/fu.body"
check "no trailer when not fixed" sh -c "! grep -q 'Tested-by' '$W/fu.body'"
