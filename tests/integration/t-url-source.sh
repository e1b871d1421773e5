# A url source is fetched with libcurl and answered 304 when unchanged.
H="$W/http"
mkdir -p "$H"
src="$TOP/fixtures/seeds/004"
printf '[{"id": "u-1", "base": {"commit": "262b2fa99cbe02a715ce23981c2c30685ccf3a93", "result_root": "%s/base"}, "head": {"commit": "f017b0a4951fac8f150232661b2cc0b67e0c57f0", "subject": "pipe: x", "author": "Dev <alice@example.test>", "result_root": "%s/head"}}]\n' "$src" "$src" >"$H/comparisons"
"$TOP/build/tools/httpd" "$H" & hp=$!
for i in $(seq 1 50); do [ -s "$H/port" ] && break; sleep 0.05; done
sed -i "s#^  - dir: .*#  - url: http://127.0.0.1:$(cat "$H/port")/comparisons#" "$CONFIG"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "sent from the url" [ "$(count alice X-Perfbot-Report u-1)" = 1 ]
check "validator kept" [ -n "$(sql "SELECT etag FROM sources")" ]
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "not modified the second time" grep -q "not modified" "$W/e2"
# result roots served over HTTP too
cp -r "$src/base" "$src/head" "$H/"
port=$(cat "$H/port")
printf '[{"id": "u-2", "base": {"commit": "262b2fa99cbe02a715ce23981c2c30685ccf3a93", "result_root": "http://127.0.0.1:%s/base"}, "head": {"commit": "f017b0a4951fac8f150232661b2cc0b67e0c57f0", "subject": "pipe: x", "author": "Dev <alice@example.test>", "result_root": "http://127.0.0.1:%s/head"}}]\n' "$port" "$port" >"$H/comparisons"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e3"
check "report from result roots over HTTP" [ "$(count alice X-Perfbot-Report u-2)" = 1 ]
uid=$(search alice X-Perfbot-Report u-2)
fetch alice "$uid" >"$W/u2.eml"
"$MAILCHECK" "$W/u2.eml" >"$W/u2.check" 2>/dev/null
jobsize=$(wc -c <"$src/head/job.yaml")
check "its job.yaml attached" grep -q "^part text/plain attachment job.yaml $jobsize$" "$W/u2.check"
# a url source may not make perfbot attach a local file
printf '[{"id": "u-3", "kconfig_file": "/etc/passwd", "base": {"commit": "262b2fa99cbe02a715ce23981c2c30685ccf3a93", "result_root": "%s/base"}, "head": {"commit": "f017b0a4951fac8f150232661b2cc0b67e0c57f0", "author": "Dev <mallory@example.test>", "result_root": "%s/head"}}]\n' "$src" "$src" >"$H/comparisons"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e4"
check "local file named by a url manifest: exit 65" [ $? = 65 ]
check "refused with the key named" grep -q "'kconfig_file' names a local file" "$W/e4"
check "nothing mailed" [ "$(count mallory X-Perfbot-Report u-3)" = 0 ]
kill $hp 2>/dev/null
wait $hp 2>/dev/null
