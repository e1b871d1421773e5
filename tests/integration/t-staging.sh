# staging.redirect_to: every mail goes to that one address; the headers
# still name the real recipients and a header says it was redirected.
cat >>"$CONFIG" <<EOC
staging:
  redirect_to: "Staging <carol@example.test>"
EOC
make_manifest st-1 004
"$PERFBOT" run --config "$CONFIG" 2>"$W/err"
check "run exits 0" [ $? = 0 ]
check "the staging address got it" [ "$(count carol X-Perfbot-Report st-1)" = 1 ]
check "the author did not" [ "$(count alice X-Perfbot-Report st-1)" = 0 ]
check "the list did not" [ "$(count perf-reports X-Perfbot-Report st-1)" = 0 ]
uid=$(search carol X-Perfbot-Report st-1)
fetch carol "$uid" >"$W/st.eml"
check "X-Perfbot-Staging names the real recipients" grep -q "^X-Perfbot-Staging: sent only to carol@example.test; for alice@example.test," "$W/st.eml"
check "To: is still the author" grep -q "^To: .*alice@example.test" "$W/st.eml"
check "recorded against the staging address" [ "$(sql "SELECT address FROM outbox_recipients")" = carol@example.test ]
"$PERFBOT" check --config "$CONFIG" >"$W/out" 2>&1
check "check says staging is on" grep -q "staging: every mail goes to 'Staging <carol@example.test>' only" "$W/out"
