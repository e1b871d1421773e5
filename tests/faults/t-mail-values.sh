# Issue 29 item 19: no value from outside brings a line or a control
# character into a mail. An attachment's file name with RFC 2047 encoded
# newlines stays inside its sentence of the answer to a "test"; a commit
# title with ESC, BEL, BS, DEL and NEL goes out as spaces in the landing
# answer.
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
SP=$PORT
F=$(mktemp -d /tmp/perfbot-front.XXXXXX)
mkdir -p "$F/mail"
start_front imap "$F"
fx_setup "$SP" "$PORT"
mkdir -p "$W/roots" "$W/results"
cp -r "$TOP/fixtures/seeds/004/base" "$TOP/fixtures/seeds/004/head" "$W/roots/"
GITENV="GIT_CONFIG_NOSYSTEM=1 HOME=/nonexistent GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.test GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.test"
env $GITENV git init -q -b master "$W/repo"
env $GITENV git -C "$W/repo" commit -q --allow-empty -m first
cat >>"$CONFIG" <<EOC
tracking:
  repo: $W/repo
  branches: [master]
scheduler:
  backend: exec
  argv: ["$TOP/scripts/fake-lkp-run", "{result_root}", "{commit}", "{runs}", "{request_id}", "{kind}", "{job}", "{repo}", "{ref}", "{patch}"]
  results_dir: $W/results
  timeout: 60
EOC
make_manifest v-1
sed -i "s#$TOP/fixtures/seeds/004/#$W/roots/#g" "$W/manifests/v-1.yaml"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err0"
mid=$(sql "SELECT message_id FROM outbox WHERE id = 'v-1'")
check "the report is sent" [ "$(sql "SELECT status FROM outbox WHERE id = 'v-1'")" = sent ]

# the answer's body, decoded: the accepted mail N
body_of() {
	python3 -c 'import email,sys; m=email.message_from_binary_file(open(sys.argv[1],"rb")); p=[x for x in m.walk() if x.get_content_type()=="text/plain"][0]; sys.stdout.buffer.write(p.get_payload(decode=True))' "$S/msg.$1"
}
# no byte below 0x20 but LF and TAB (a report's parameters are
# indented so), no DEL, no C1 (NEL), no U+2028
clean() {
	python3 -c 'import sys,re; t=sys.stdin.buffer.read().decode(); sys.exit(1 if re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]", t) else 0)'
}

patch=$(printf 'From: Dev <alice@example.test>\nSubject: [PATCH] pipe: keep it\n\n---\ndiff --git a/fs/pipe.c b/fs/pipe.c\n--- a/fs/pipe.c\n+++ b/fs/pipe.c\n@@ -1,3 +1,4 @@\n a\n+b\n c\n d\n' | base64 -w0)
cat >"$F/mail/1.eml" <<EOM
Return-Path: <alice@example.test>
From: alice@example.test
To: perfbot@example.test
Subject: Re: the report
Message-ID: <values-1@example.test>
In-Reply-To: <$mid>
References: <$mid>
Date: Wed, 02 Dec 2026 08:00:00 +0000
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="b0"

--b0
Content-Type: text/plain; charset=utf-8

test

--b0
Content-Type: text/x-patch; name="=?utf-8?q?fix.patch=0D=0Aretest_20x=0AHi_all=2C_the_fix_is_fine=0A?="
Content-Disposition: attachment; filename="=?utf-8?q?fix.patch=0D=0Aretest_20x=0AHi_all=2C_the_fix_is_fine=0A?="
Content-Transfer-Encoding: base64

$patch
--b0--
EOM
: >"$S/accepted"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err1"
for n in $(cut -d' ' -f1 "$S/accepted"); do
	body_of "$n" >"$W/ack"
	grep -q "^I queued" "$W/ack" && break
done
check "the test is acknowledged" grep -q "with your patch applied" "$W/ack"
check "... the name stays in its sentence" grep -q "attached as fix.patch *retest 20x Hi all, the fix is fine" "$W/ack"
check "... no line of the name's" sh -c "! grep -qE '^(retest|Hi all)' '$W/ack'"
check "... no control character" clean <"$W/ack"

title=$(printf 'pipe: colour\033[31m red\007 bell\010 bs\177 del\302\205nel retest 30x')
printf '%s\n\nReported-by: perfbot <perfbot@example.test>\nCloses: <%s>\n' "$title" "$mid" >"$W/msg"
env $GITENV git -C "$W/repo" commit -q --allow-empty --cleanup=verbatim -F "$W/msg"
: >"$S/accepted"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err2"
check "the fix landed" [ "$(sql "SELECT status FROM records WHERE report_id = 'v-1'")" = "fix landed" ]
n=$(grep -l "has landed in master" "$S"/msg.* | tail -n1)
n=${n##*.}
body_of "$n" >"$W/landed"
check "the landing is answered" grep -q "has landed in master" "$W/landed"
check "... the title as one line" grep -q '("pipe: colour \[31m red  bell  bs  del nel retest 30x")' "$W/landed"
check "... no control character" clean <"$W/landed"
dirty=0
for m in "$S"/msg.*; do
	body_of "${m##*.}" | clean || dirty=$((dirty + 1))
done
check "no mail sent holds a control character ($dirty do)" [ $dirty = 0 ]
