# A url source is fetched with libcurl and answered 304 when unchanged;
# its manifests name result roots served over HTTP, and may never name a
# local file.
H="$W/http"
mkdir -p "$H"
src="$TOP/fixtures/seeds/004"
cp -r "$src/base" "$src/head" "$H/"
"$TOP/build/tools/httpd" "$H" & hp=$!
for i in $(seq 1 50); do [ -s "$H/port" ] && break; sleep 0.05; done
port=$(cat "$H/port")
base='"commit": "262b2fa99cbe02a715ce23981c2c30685ccf3a93"'
head='"commit": "f017b0a4951fac8f150232661b2cc0b67e0c57f0", "subject": "pipe: x"'
list() {	# list ID AUTHOR BASE-ROOT HEAD-ROOT [EXTRA]
	printf '[{"id": "%s", %s"base": {%s, "result_root": "%s"}, "head": {%s, "author": "Dev <%s>", "result_root": "%s"}}]\n' \
		"$1" "${5:-}" "$base" "$3" "$head" "$2" "$4" >"$H/comparisons"
}
list u-1 alice@example.test "http://127.0.0.1:$port/base" "http://127.0.0.1:$port/head"
sed -i "s#^  - dir: .*#  - url: http://127.0.0.1:$port/comparisons#" "$CONFIG"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "sent from the url" [ "$(count alice X-Perfbot-Report u-1)" = 1 ]
check "validator kept" [ -n "$(sql "SELECT etag FROM sources")" ]
uid=$(search alice X-Perfbot-Report u-1)
fetch alice "$uid" >"$W/u1.eml"
"$MAILCHECK" "$W/u1.eml" >"$W/u1.check" 2>/dev/null
jobsize=$(wc -c <"$src/head/job.yaml")
check "job.yaml of the HTTP root attached" grep -q "^part text/plain attachment job.yaml $jobsize$" "$W/u1.check"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "not modified the second time" grep -q "not modified" "$W/e2"

# a run killed after the list was fetched and before its manifests were
# recorded loses none: the list's validators are kept only once they are,
# so the next run fetches it whole again (not a 304) and mails the report
list u-k alice@example.test "http://127.0.0.1:$port/base" "http://127.0.0.1:$port/head"
touch "$H/head.hold"
rm -f "$H/head.held"
"$PERFBOT" run --config "$CONFIG" 2>"$W/ek" & kp=$!
for i in $(seq 1 200); do [ -e "$H/head.held" ] && break; sleep 0.05; done
check "the run was caught fetching a result root" [ -e "$H/head.held" ]
kill -KILL $kp 2>/dev/null
wait $kp 2>/dev/null
rm -f "$H/head.hold"
check "nothing mailed by the killed run" [ "$(count alice X-Perfbot-Report u-k)" = 0 ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/ek2"
check "the list fetched whole again" sh -c "! grep -q 'not modified' '$W/ek2'"
check "the killed run's report mailed by the next" [ "$(count alice X-Perfbot-Report u-k)" = 1 ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/ek3"
check "then not modified" grep -q "not modified" "$W/ek3"

# a url source may not make perfbot read or attach a local file
list u-2 mallory@example.test "$src/base" "$src/head"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "local result root refused: exit 65" [ $? = 65 ]
check "says which key" grep -q "'base.result_root' must be an http(s) URL" "$W/e3"
list u-3 mallory@example.test "http://127.0.0.1:$port/base" "http://127.0.0.1:$port/head" '"kconfig_file": "/etc/passwd", '
"$PERFBOT" run --config "$CONFIG" 2>"$W/e4"
check "local kconfig refused: exit 65" [ $? = 65 ]
check "says which key" grep -q "'kconfig_file' names a local file" "$W/e4"
check "nothing mailed to the stranger" [ "$(count mallory X-Perfbot-Report u-)" = 0 ]
kill $hp 2>/dev/null
wait $hp 2>/dev/null
