# Operating perfbot: a config is required and searched for, --quiet is
# silent when nothing happens, check finds bad values and logs in,
# status --json is JSON, a deferred mail says why and when, send --now,
# relative paths against the config file.

# 1. no config anywhere: exit 78 naming the places looked in (a machine
# with a real /etc/perfbot/perfbot.yaml would find that one)
mkdir -p "$W/home"
[ -e /etc/perfbot/perfbot.yaml ] && echo "   (/etc/perfbot/perfbot.yaml exists: the no-config checks will fail)"
(cd / && env -u PERFBOT_CONFIG -u XDG_CONFIG_HOME HOME="$W/home" "$PERFBOT" run) >"$W/out" 2>"$W/err"
rc=$?
check "run without config exits 78" [ $rc = 78 ]
check "it names the XDG path" grep -q "$W/home/.config/perfbot/perfbot.yaml" "$W/err"
check "it names /etc" grep -q "/etc/perfbot/perfbot.yaml" "$W/err"
check "one line, nothing on stdout" [ "$(wc -l <"$W/err")" = 1 -a ! -s "$W/out" ]
check "no state was created in /" [ ! -e /var/perfbot.db ]
for cmd in send poll retest status check; do
	(cd / && env -u PERFBOT_CONFIG -u XDG_CONFIG_HOME HOME="$W/home" "$PERFBOT" $cmd) >/dev/null 2>&1
	check "$cmd without config exits 78" [ $? = 78 ]
done
# ... and the XDG file is found from anywhere, and said so
mkdir -p "$W/home/.config/perfbot"
cp "$CONFIG" "$W/home/.config/perfbot/perfbot.yaml"
(cd / && env -u PERFBOT_CONFIG -u XDG_CONFIG_HOME HOME="$W/home" "$PERFBOT" send) 2>"$W/err"
check "the XDG config is used" [ $? = 0 ]
check "the log names it" grep -q "config '$W/home/.config/perfbot/perfbot.yaml'" "$W/err"
check "log lines carry a timestamp off a terminal" grep -q '^20[0-9-]*T[0-9:]*Z perfbot: ' "$W/err"
# global options before the command
"$PERFBOT" --config "$CONFIG" --quiet send >"$W/out" 2>"$W/err"
check "global options before the command" [ $? = 0 ]

# 2. --quiet with nothing to do prints nothing at all
"$PERFBOT" run --quiet --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "quiet run exits 0" [ $rc = 0 ]
check "quiet run prints nothing" [ ! -s "$W/out" -a ! -s "$W/err" ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/err"
check "without --quiet: the summary" grep -q "run: 0 sent, 0 queued, 0 failed" "$W/err"
"$PERFBOT" run --verbose --config "$CONFIG" 2>"$W/err"
check "--verbose names the state" grep -q "state '$STATE_NAME'" "$W/err"

# 3. check: bad values at once, with one clear line each
sed 's/^  tls: starttls$/  tls: startls/' "$CONFIG" >"$W/bad.yaml"
"$PERFBOT" check --config "$W/bad.yaml" >"$W/out" 2>"$W/err"
check "check exits 78 on tls: startls" [ $? = 78 ]
check "it says what and where" grep -q "bad.yaml:[0-9]*: 'smtp.tls': 'startls' is not one of starttls, implicit, none (did you mean 'starttls'?)" "$W/err"
check "both wrong values reported" grep -q "'imap.tls': 'startls'" "$W/err"
"$PERFBOT" run --config "$W/bad.yaml" >/dev/null 2>"$W/err"
check "run refuses it at load too (78)" [ $? = 78 ]
check "run: one line" [ "$(wc -l <"$W/err")" = 1 ]
printf 'scheduler:\n  backend: lkp\n' >>"$W/bad2.yaml"
"$PERFBOT" check --config "$W/bad2.yaml" >/dev/null 2>"$W/err"
check "check exits 78 on backend: lkp" [ $? = 78 ]
sed "s#url: smtp://#url: smtpx://#" "$CONFIG" >"$W/bad3.yaml"
"$PERFBOT" check --config "$W/bad3.yaml" >/dev/null 2>"$W/err"
check "check exits 78 on smtpx://" [ $? = 78 ]
check "smtpx: did you mean" grep -q "did you mean 'smtp://'" "$W/err"
sed "s#^  mailbox: INBOX#  mailbx: INBOX#" "$CONFIG" >"$W/bad4.yaml"
"$PERFBOT" check --config "$W/bad4.yaml" >/dev/null 2>"$W/err"
check "unknown key: did you mean" grep -q "unknown key 'imap.mailbx' (did you mean 'imap.mailbox'?)" "$W/err"
"$PERFBOT" check --config "$CONFIG" >"$W/out" 2>"$W/err"
check "check passes on a good config" [ $? = 0 ]
check "check lists what it looked at" grep -q "^ok: templates " "$W/out"

# 4. check --connect logs in to both servers
"$PERFBOT" check --connect --config "$CONFIG" >"$W/out" 2>"$W/err"
check "check --connect exits 0" [ $? = 0 ]
check "smtp: STARTTLS and AUTH ok" grep -q "^smtp: smtp://127.0.0.1:$SUBMISSION_PORT: connected; TLS: STARTTLS, certificate verified; AUTH as 'perfbot': ok; capabilities: .*SIZE" "$W/out"
check "imap: login ok, capabilities" grep -q "^imap: imap://127.0.0.1:$IMAP_PORT: connected; TLS: STARTTLS, certificate verified; login as 'perfbot': ok; mailbox 'INBOX': .*capabilities: .*IMAP4" "$W/out"
check "no secret in the output" sh -c "! grep -q perfbot-pw '$W/out' '$W/err'"
PERFBOT_SMTP_PASSWORD=wrong "$PERFBOT" check --connect --config "$CONFIG" >"$W/out" 2>"$W/err"
check "a wrong password: exit 77" [ $? = 77 ]
check "it says the login was refused" grep -q "smtp.user: .*login as 'perfbot' was refused" "$W/err"
sed "s#:$SUBMISSION_PORT#:$SMTPS_PORT#; s#url: smtp://#url: smtps://#; 0,/tls: starttls/s//tls: implicit/" "$CONFIG" >"$W/smtps.yaml"
"$PERFBOT" check --connect --config "$W/smtps.yaml" >"$W/out" 2>"$W/err"
check "smtps: implicit TLS" grep -q "^smtp: smtps://.*TLS: implicit, certificate verified" "$W/out"

# 5. a deferred send says why and when; status shows it; send --now
make_manifest cli-1 004
sed "s#:$SUBMISSION_PORT#:1#" "$CONFIG" >"$W/down.yaml"
"$PERFBOT" run --config "$W/down.yaml" >/dev/null 2>"$W/err"
check "server away: exit 75" [ $? = 75 ]
check "deferred: why and when" grep -q "report 'cli-1' deferred: .*; next attempt in 1 min" "$W/err"
"$PERFBOT" send --config "$W/down.yaml" 2>"$W/err"
check "next send: waiting, when and why" grep -q "send: 1 mail waiting; next attempt 20.* UTC (in [0-9]* s) after: " "$W/err"
"$PERFBOT" status --json --config "$CONFIG" >"$W/status.json"
check "status --json exits 0" [ $? = 0 ]
check "status --json is JSON" python3 -c 'import json,sys; json.load(sys.stdin)' <"$W/status.json"
check "status: the queued mail, its error and next attempt" python3 -c '
import json, sys
s = json.load(sys.stdin)
q = s["queued"]
assert s["outbox"]["queued"] == 1 and len(q) == 1, s
assert q[0]["id"] == "cli-1" and q[0]["attempts"] == 1 and q[0]["last_error"], q
assert q[0]["next_attempt"] > s["now"], q
assert "mailbox" in s, s
assert "retests" in s
' <"$W/status.json"
"$PERFBOT" status --config "$CONFIG" >"$W/status.txt"
check "status text names the mail" grep -q "id: cli-1, kind: report" "$W/status.txt"
"$PERFBOT" send --config "$CONFIG" 2>"$W/err"
check "backoff holds it back" [ "$(sql "SELECT status FROM outbox WHERE id = 'cli-1'")" = queued ]
"$PERFBOT" send --now --config "$CONFIG" 2>"$W/err"
check "send --now exits 0" [ $? = 0 ]
check "send --now sends it" [ "$(sql "SELECT status FROM outbox WHERE id = 'cli-1'")" = sent ]
check "send --now says so" grep -q "send: 1 queued mail tried now" "$W/err"

# 6. relative paths in a config are relative to its file
mkdir -p "$W/rel/conf" "$W/rel/manifests"
sed -e "s#^state: .*#state: ../var/state.db#" -e "s#  - dir: .*#  - dir: ../manifests#" \
	"$CONFIG" >"$W/rel/conf/perfbot.yaml"
(cd / && "$PERFBOT" run --config "$W/rel/conf/perfbot.yaml") >/dev/null 2>&1
sqlite_only "a relative state path is a SQLite file's" &&
	check "state beside the config, not in the working directory" [ -f "$W/rel/var/state.db" ]
