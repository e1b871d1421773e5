# Issue 25 item 13: a password written in a URL is masked in 'check' and
# in the state's sources table; a password_command's stderr is filtered.
S=$(mktemp -d /tmp/perfbot-front.XXXXXX)
start_front smtp "$S"
fx_setup "$PORT"
H="$W/http"
mkdir -p "$H"
echo '[]' >"$H/list"
"$TOP/build/tools/httpd" "$H" &
PIDS="$PIDS $!"
for i in $(seq 1 50); do [ -s "$H/port" ] && break; sleep 0.05; done
sed -i "s#^  - dir: .*#  - url: http://feeder:s3cr3t-pw@127.0.0.1:$(cat "$H/port")/list#" "$CONFIG"
sed -i "s#^  password_env: PERFBOT_SMTP_PASSWORD#  password_command: [sh, -c, \"printf 'warming up\\\\\\\\033[31m red\\\\\\\\n' >\&2; echo front-pw\"]#" "$CONFIG"
"$PERFBOT" check --config "$CONFIG" >"$W/out" 2>"$W/err"
check "check: exit 0" [ $? = 0 ]
check "check: the URL's password masked" grep -q "source 'http://feeder:\*\*\*@127.0.0.1" "$W/out"
check "check: the password never printed" sh -c "! grep -q s3cr3t '$W/out' '$W/err'"
check "password_command's stderr: one filtered line" grep -q "perfbot: smtp.password_command said: warming up?\[31m red" "$W/err"
check "password_command's stderr: no raw escape" sh -c "! grep -q \"$(printf '\033')\" '$W/err'"
"$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
check "run: the source fetched" [ "$(sql "SELECT count(*) FROM sources")" = 1 ]
check "sources table: the URL kept masked" [ "$(sql "SELECT url FROM sources")" = "http://feeder:***@127.0.0.1:$(cat "$H/port")/list" ]
check "the state holds no password" state_lacks s3cr3t
