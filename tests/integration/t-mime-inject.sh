# Crafted content cannot add MIME parts or recipients (through Postfix).
# SOURCE_DATE_EPOCH makes the first boundary tried the one the dry run
# shows, so a manifest can plant it: the mail must still have its 3 parts.
export SOURCE_DATE_EPOCH=1739548080
make_manifest mi-1 004
"$PERFBOT" report "$W/manifests/mi-1.yaml" --dry-run --config "$CONFIG" >"$W/dry" 2>"$W/e0"
b=$(sed -n 's/.*boundary="\{0,1\}\(=-perfbot-[0-9a-f]*\).*/\1/p' "$W/dry" | head -1)
check "dry run shows a boundary" [ -n "$b" ]
cat >>"$W/manifests/mi-1.yaml" <<EON
notes:
  - "--$b"
  - "Content-Type: text/html"
  - ""
  - "<b>injected</b>"
  - "--$b"
EON
"$PERFBOT" run --config "$CONFIG" 2>"$W/e1"
check "run exits 0" [ $? = 0 ]
uid=$(search alice X-Perfbot-Report mi-1)
check "delivered once" [ "$(echo $uid | wc -w)" = 1 ]
fetch alice "$uid" >"$W/mi-1.eml"
"$MAILCHECK" "$W/mi-1.eml" >"$W/mi-1.check" 2>"$W/mi-1.body"
check "no text/html part" [ "$(grep -c '^part text/html' "$W/mi-1.check")" = 0 ]
check "exactly 3 parts" [ "$(grep -c '^part ' "$W/mi-1.check")" = 3 ]
check "the note stays in the text" grep -q "^<b>injected</b>" "$W/mi-1.body"
check "another boundary was chosen" [ "$(grep -c "^--$b\$" "$W/mi-1.eml")" = 2 ]
unset SOURCE_DATE_EPOCH
# An author that is a list, or that carries a header, mails nobody.
make_manifest mi-2 003
sed -i 's/author: "[^"]*"/author: "Dev <alice@example.test>, bob@example.test"/' "$W/manifests/mi-2.yaml"
make_manifest mi-3 000
sed -i 's/author: "[^"]*"/author: "Dev <alice@example.test>\\nBcc: bob@example.test"/' "$W/manifests/mi-3.yaml"
"$PERFBOT" run --config "$CONFIG" 2>"$W/e2"
check "bad authors exit 65" [ $? = 65 ]
check "one clear error for the list" grep -q "mi-2.yaml:[0-9]*: 'head.author' is not one mail address" "$W/e2"
check "one clear error for the header" grep -q "mi-3.yaml:[0-9]*: 'head.author' is not one mail address: a control character" "$W/e2"
check "bob got nothing" [ "$(count bob X-Perfbot-Report mi-)" = 0 ]
check "alice got nothing more" [ "$(count alice X-Perfbot-Report mi-2)$(count alice X-Perfbot-Report mi-3)" = 00 ]
