# Issue 29 item 16: the cycle isolates its steps. An answer due twice
# (fix: TITLE, landed, unfix, fix: TITLE again: the same landing answer
# 'landed:<branch>:<sha>') is queued once and the run goes on; a tracked
# repository that is damaged or missing (its tip object gone, the path a
# file or a FIFO) is one line and an exit code, while the other steps,
# delivery above all, still run.
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
SP=$PORT
F=$(mktemp -d /tmp/perfbot-front.XXXXXX)
mkdir -p "$F/mail"
start_front imap "$F"
fx_setup "$SP" "$PORT"
GITENV="GIT_CONFIG_NOSYSTEM=1 HOME=/nonexistent GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.test GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.test"
env $GITENV git init -q -b master "$W/repo"
env $GITENV git -C "$W/repo" commit -q --allow-empty -m first
printf 'tracking:\n  repo: %s/repo\n  branches: [master]\n' "$W" >>"$CONFIG"
make_manifest c-1
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err0"
mid=$(sql "SELECT message_id FROM outbox WHERE id = 'c-1'")
n=0
reply() {	# reply BODY: from the report's author
	n=$((n + 1))
	cat >"$F/mail/$n.eml" <<EOM
Return-Path: <alice@example.test>
From: alice@example.test
To: perfbot@example.test
Subject: Re: the report
Message-ID: <steps-$n@example.test>
In-Reply-To: <$mid>
References: <$mid>
Date: Wed, 02 Dec 2026 08:00:00 +0000

$1
EOM
}
title="pipe: keep the time update for named pipes"
reply "fix: $title"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err1"
check "fix: named" [ "$(sql "SELECT status FROM records WHERE report_id = 'c-1'")" = "fix named" ]
# issue 29 item 11: the log says which command was answered
check "the log names the command answered" grep -q "mail <steps-1@example.test> from alice@example.test: answered (fix: $title)$" "$W/err1"
env $GITENV git -C "$W/repo" commit -q --allow-empty -m "$title"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err2"
check "the fix landed" [ "$(sql "SELECT status FROM records WHERE report_id = 'c-1'")" = "fix landed" ]
reply "unfix"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err3"
reply "fix: $title"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err4"
rc=$?
check "fix, unfix, fix: the run goes on (exit $rc)" [ $rc = 0 ]
check "... no error line" sh -c "! grep -q 'UNIQUE' '$W/err4'"
check "... the landing answered once" [ "$(grep -c 'has landed in master' "$S"/msg.*| grep -vc ':0$')" = 1 ]
check "... the answer to the second fix: sent" [ "$(sql "SELECT count(*) FROM outbox WHERE status <> 'sent'")" = 0 ]
check "... the record: fix landed" [ "$(sql "SELECT status FROM records WHERE report_id = 'c-1'")" = "fix landed" ]

# broken_case NAME: a new report and a reply wait while the tracked
# repository is broken; the run says so in one line and delivers both
k=1
broken_case() {
	k=$((k + 1))
	make_manifest c-$k
	reply "reopen"
	: >"$S/accepted"
	"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err-$k"
	rc=$?
	check "$1: exit $2 (got $rc)" [ $rc = "$2" ]
	check "$1: one error line naming tracking.repo" [ "$(grep -c 'perfbot: tracking.repo: ' "$W/err-$k")" = 1 ]
	check "$1: the new report is sent" [ "$(sql "SELECT status FROM outbox WHERE id = 'c-$k'")" = sent ]
	check "$1: the answer is sent" [ "$(sql "SELECT count(*) FROM outbox WHERE status <> 'sent'")" = 0 ]
	check "$1: two mails went" [ "$(wc -l <"$S/accepted")" = 2 ]
}
env $GITENV git -C "$W/repo" commit -q --allow-empty -m "a later commit"
tip=$(git -C "$W/repo" rev-parse master)
mv "$W/repo/.git/objects/${tip%${tip#??}}/${tip#??}" "$W/tip-object"
broken_case "tip object missing" 65
mv "$W/tip-object" "$W/repo/.git/objects/${tip%${tip#??}}/${tip#??}"
mv "$W/repo" "$W/repo.saved"
: >"$W/repo"
broken_case "the path a file" 78
rm "$W/repo"
mkfifo "$W/repo"
broken_case "the path a FIFO" 78
rm "$W/repo"
rm -rf "$W/repo.saved"
broken_case "the path gone" 78
