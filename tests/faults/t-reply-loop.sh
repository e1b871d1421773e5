# Issue 25 items 11 and 16: only a command done for one of the report's
# recipients is answered in front of the list; anything else (an unknown
# command, a sender of commands.allow who is no recipient) goes to the
# sender alone; the bot's own sub-address is the bot's own.
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
SP=$PORT
F=$(mktemp -d /tmp/perfbot-front.XXXXXX)
mkdir -p "$F/mail"
start_front imap "$F"
fx_setup "$SP" "$PORT"
cat >>"$CONFIG" <<EOC
commands:
  allow: ["carol@example.test"]
EOC
make_manifest l-1
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
mid=$(sql "SELECT message_id FROM outbox WHERE id = 'l-1'")
n=0
reply() {	# reply FROM BODY
	n=$((n + 1))
	cat >"$F/mail/$n.eml" <<EOM
Return-Path: <$1>
From: $1
To: perfbot@example.test
Subject: Re: the report
Message-ID: <loop-$n@example.test>
In-Reply-To: <$mid>
References: <$mid>
Date: Wed, 02 Dec 2026 08:00:00 +0000

$2
EOM
}
reply alice@example.test "help"
reply alice@example.test "#perfbot frobnicate now"
reply carol@example.test "help"
reply perfbot+robot@example.test "help"
reply perf-reports@example.test "help"
: >"$S/accepted"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "a command of a recipient: answered before the list" grep -q "to alice@example.test,perf-reports@example.test$" "$S/accepted"
check "an unknown command: to the sender alone" grep -q "to alice@example.test$" "$S/accepted"
check "a command of commands.allow: to the sender alone" grep -q "to carol@example.test$" "$S/accepted"
check "three answers, no more" [ "$(wc -l <"$S/accepted")" = 3 ]
check "the bot's sub-address is the bot's own" [ "$(sql "SELECT outcome FROM inbox WHERE message_id = 'loop-4@example.test'")" = "ignored: sent by the bot itself" ]
list_outcome=$(sql "SELECT outcome FROM inbox WHERE sender = 'perf-reports@example.test'")
check "the list's own address never commands" [ "${list_outcome%%:*}" = ignored ]
