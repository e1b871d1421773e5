# Issue 29 item 22: 'check' refuses what 'run' would trip on or put into
# a header or a page: smtp.url port 99999, a line feed in identity.name,
# two addresses in reported_by, CR LF in authserv_id, '"><script>' in
# web.base_url; each named, exit 78.
fx_setup 2525
cp "$CONFIG" "$W/good.yaml"
bad_case() {	# bad_case NAME KEY YAML-TO-APPEND
	cp "$W/good.yaml" "$CONFIG"
	printf '%b' "$3" >>"$CONFIG"
	"$PERFBOT" check --config "$CONFIG" >"$W/out" 2>"$W/err"
	rc=$?
	check "$1: check exits 78 (got $rc)" [ $rc = 78 ]
	check "$1: names '$2'" grep -q "'$2'" "$W/err"
}
sed -i "s#url: smtp://127.0.0.1:2525#url: smtp://127.0.0.1:99999#" "$CONFIG"
"$PERFBOT" check --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "port 99999: check exits 78 (got $rc)" [ $rc = 78 ]
check "port 99999: names 'smtp.url'" grep -q "'smtp.url'.*port out of 1 to 65535" "$W/err"
sed -i '/^identity:/a\  name: "perfbot\\nBcc: x@evil.test"' "$W/good.yaml"
cp "$W/good.yaml" "$CONFIG"
"$PERFBOT" check --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "LF in identity.name: check exits 78 (got $rc)" [ $rc = 78 ]
check "LF in identity.name: named" grep -q "'identity.name' must be one line" "$W/err"
sed -i '/^  name: /d' "$W/good.yaml"
sed -i '/^identity:/a\  reported_by: "a@example.test, b@example.test"' "$W/good.yaml"
cp "$W/good.yaml" "$CONFIG"
"$PERFBOT" check --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "two addresses in reported_by: check exits 78 (got $rc)" [ $rc = 78 ]
check "two addresses in reported_by: named" grep -q "'identity.reported_by' must be a mail address" "$W/err"
sed -i '/^  reported_by: /d' "$W/good.yaml"
bad_case "CR LF in authserv_id" commands.authserv_id 'commands:\n  authserv_id: "mx.example.test\\r\\nX-Evil: 1"\n'
bad_case "script in web.base_url" web.base_url "web:\n  base_url: 'https://x.example.test/\"><script>alert(1)</script>'\n"
