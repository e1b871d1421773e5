# Issue 25 items 4 and 5, issue 21 items 2, 6 and 9: a bad manifest (or a
# file it names) is reported, naming the manifest and key, and skipped:
# the others are still mailed, the poll and the delivery still run, the
# run never hangs on a FIFO; a manifest never attaches a file from
# outside the directories it may attach from, nor a secret; two manifests
# of one id: the second refused; *.yml read, a YAML file that is no
# manifest left alone. 'check' says the same without running anything.
pb_setup
S="$TOP/fixtures/seeds"
MF="$W/manifests"
side() {	# side SEED WHICH [RESULT_ROOT]
	sed -n "s#^\($2: .*result_root: \)$2 }\$#\1${3:-$S/$1/$2} }#p" "$S/$1/manifest.yaml" |
		sed 's/author: "[^"]*"/author: "Dev <alice@example.test>"/'
}
manifest() {	# manifest FILE ID SEED [EXTRA-LINE] [HEAD-ROOT]
	{ echo "id: $2"; side "$3" base; side "$3" head "${5:-}"; [ -n "${4:-}" ] && echo "$4"; } >"$MF/$1"
}
manifest good.yaml bm-good 000
manifest other.yml bm-yml 004
manifest dup-a.yaml bm-same 001
manifest dup-b.yaml bm-same 002
manifest zero.yaml bm-zero 003 "kconfig_file: /dev/zero"
mkfifo "$MF/k.fifo"
manifest fifo.yaml bm-fifo 003 "kconfig_file: k.fifo"
mkdir "$MF/kdir"
manifest kdir.yaml bm-kdir 003 "kconfig_file: kdir"
head -c 5000000 /dev/zero | tr '\0' x >"$MF/kbig"
manifest kbig.yaml bm-kbig 003 "kconfig_file: kbig"
manifest config.yaml bm-config 003 "kconfig_file: ../perfbot.yaml"
manifest shadow.yaml bm-shadow 003 "kconfig_file: /etc/shadow"
manifest haed.yaml bm-haed 003 "" /x/haed
mkdir "$W/rr"
cp "$S/003/head/job.yaml" "$W/rr/"
mkfifo "$W/rr/matrix.json"
manifest mfifo.yaml bm-mfifo 003 "" "$W/rr"
printf 'report_allowlist_add:\n  - foo.bar\n' >"$MF/metrics.yaml"

bads="zero fifo kdir kbig config shadow haed mfifo dup-b"

timeout 120 "$PERFBOT" check --config "$CONFIG" >"$W/cout" 2>"$W/cerr"
check "check: bad manifests are exit 65 (got $?)" [ $? = 65 ]
check "check: says how many" grep -q "check: 9 bad manifests" "$W/cerr"
for b in $bads; do
	check "check: $b.yaml named" grep -q "^perfbot: $MF/$b.yaml" "$W/cerr"
done
check "check: metrics.yaml is no manifest, no error" sh -c "! grep -q metrics.yaml '$W/cerr'"

timeout 120 "$PERFBOT" run --dry-run --verbose --config "$CONFIG" >"$W/dout" 2>"$W/derr"
check "dry-run: exit 65 (got $?)" [ $? = 65 ]
check "dry-run: the three good ones printed" [ "$(grep -c "^From perfbot@example.test " "$W/dout")" = 3 ]
check "dry-run: metrics.yaml skipped, said with --verbose" grep -q "metrics.yaml: not a manifest (no 'base' nor 'head', and keys no manifest has): skipped" "$W/derr"

timeout 120 "$PERFBOT" run --config "$CONFIG" >"$W/out" 2>"$W/err"
rc=$?
check "run: exit 65, not 74 (got $rc)" [ $rc = 65 ]
check "run: never 'state could not be written'" sh -c "! grep -q 'could not be written' '$W/err'"
for id in bm-good bm-yml bm-same; do
	check "run: $id mailed" [ "$(sql "SELECT status FROM outbox WHERE id = '$id'")" = sent ]
done
check "run: three mails sent" [ "$(sql "SELECT count(*) FROM outbox WHERE status = 'sent'")" = 3 ]
check "run: the poll ran" grep -q "perfbot: poll: " "$W/err"
for b in $bads; do
	check "run: $b.yaml reported on one line" [ "$(grep -c "perfbot: $MF/$b.yaml" "$W/err")" = 1 ]
done
check "zero: /dev/zero outside the allowed directories" grep -q "zero.yaml:[0-9]*: 'kconfig_file': /dev/zero: not in a directory this manifest may attach files from" "$W/err"
check "fifo: not read" grep -q "fifo.yaml:[0-9]*: 'kconfig_file': .*k.fifo: not a regular file (a FIFO)" "$W/err"
check "kdir: a directory" grep -q "kdir.yaml:[0-9]*: 'kconfig_file': .*kdir: is a directory" "$W/err"
check "kbig: too large" grep -q "kbig.yaml:[0-9]*: 'kconfig_file': .*kbig: larger than the limit" "$W/err"
check "config: outside" grep -q "config.yaml:[0-9]*: 'kconfig_file': .*perfbot.yaml: not in a directory" "$W/err"
check "shadow: outside" grep -q "shadow.yaml:[0-9]*: 'kconfig_file': /etc/shadow: not in a directory" "$W/err"
check "haed: the misspelt root named" grep -q "haed.yaml:3: 'head.result_root': '/x/haed': no such directory" "$W/err"
check "mfifo: a FIFO matrix.json not read" grep -q "mfifo.yaml:3: 'head.result_root': '$W/rr': its matrix.json is not a regular file" "$W/err"
check "dup-b: both named" grep -q "dup-b.yaml:1: id 'bm-same' is the id of $MF/dup-a.yaml:1 already" "$W/err"
check "dup-b: the first one's commit mailed" [ "$(sql "SELECT manifest FROM outbox WHERE id = 'bm-same'")" = "$MF/dup-a.yaml" ]

# A source that allows its manifests the work directory: the config is
# there, and still never attached; a plain file there is.
printf 'CONFIG_X86_64=y\n' >"$W/kconfig-6.8"
rm -rf "$MF"/*
manifest secret.yaml bm-secret 003 "kconfig_file: ../perfbot.yaml"
manifest kc.yaml bm-kc 003 "kconfig_file: ../kconfig-6.8"
sed -i "s#^  - dir: $MF\$#  - dir: $MF\n    attach_dirs: [$W]#" "$CONFIG"
timeout 120 "$PERFBOT" run --dry-run --config "$CONFIG" >"$W/aout" 2>"$W/aerr"
check "attach_dirs: exit 65 (got $?)" [ $? = 65 ]
check "attach_dirs: the config is never attached" grep -q "secret.yaml:[0-9]*: 'kconfig_file': .*perfbot.yaml: is the file of the configuration, which is never mailed" "$W/aerr"
check "attach_dirs: a file of the directory is" grep -q '^CONFIG_X86_64=y' "$W/aout"
