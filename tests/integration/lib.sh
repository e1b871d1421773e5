# Helpers for the integration tests (sourced by tests/integration/run).
# The mail servers' variables (SMTP_PORT, IMAP_PORT, CA_FILE, ...) are set.

TOP=$(pwd)
PERFBOT="$TOP/perfbot"
MAILCHECK="$TOP/build/tools/mailcheck"
export PERFBOT_SMTP_PASSWORD=perfbot-pw PERFBOT_IMAP_PASSWORD=perfbot-pw

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok: $T: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $T: $*"; }
check() {	# check DESCRIPTION COMMAND...
	d=$1
	shift
	if "$@"; then ok "$d"; else bad "$d"; fi
}

# Empty the bot's own INBOX, so that each test reads only its own replies.
wipe_bot_inbox() {
	imap perfbot "" -X 'STORE 1:* +FLAGS (\Deleted)' >/dev/null 2>&1
	imap perfbot "" -X 'EXPUNGE' >/dev/null 2>&1
}

# A fresh work dir with a config: W, CONFIG.
pb_setup() {
	wipe_bot_inbox
	W=$(mktemp -d /tmp/perfbot-it.XXXXXX)
	mkdir -p "$W/manifests"
	CONFIG="$W/perfbot.yaml"
	cat >"$CONFIG" <<EOC
identity:
  from: "perfbot <perfbot@example.test>"
  message_id_domain: example.test
  archive_url: "https://lore.example.test/perf/{message_id}"
smtp:
  url: smtp://127.0.0.1:$SUBMISSION_PORT
  tls: starttls
  user: perfbot
  password_env: PERFBOT_SMTP_PASSWORD
  ca_file: $CA_FILE
  connect_timeout: 5
  timeout: 30
imap:
  url: imap://127.0.0.1:$IMAP_PORT
  tls: starttls
  user: perfbot
  password_env: PERFBOT_IMAP_PASSWORD
  ca_file: $CA_FILE
  mailbox: INBOX
  timeout: 10
state: $W/state.db
sources:
  - dir: $W/manifests
recipients:
  to_author: true
  cc: [perf-reports@example.test]
commands:
  allow: ["carol@example.test"]
limits:
  mails_per_hour: 1000
EOC
	state_setup "$CONFIG"
}

# make_manifest ID SEED [AUTHOR-ADDRESS]: a manifest for a seed's roots.
# make_manifest ID SEED [AUTHOR]: a report of SEED of its own (tests that
# count mails keep reports of one commit pair apart: 'group: none';
# t-group makes its groups itself)
make_manifest() {
	id=$1 seed=$2 author=${3:-alice@example.test}
	src="$TOP/fixtures/seeds/$seed"
	{
		echo "id: $id"
		echo "group: none"
		sed -n 's/^\(base: .*\)result_root: base }$/\1result_root: RR\/base }/p' "$src/manifest.yaml"
		sed -n 's/^\(head: .*\)result_root: head }$/\1result_root: RR\/head }/p' "$src/manifest.yaml" |
			sed "s/author: \"[^\"]*\"/author: \"Dev <$author>\"/"
		[ -f "$src/metrics.yaml" ] && echo "metrics: $src/metrics.yaml"
	} | sed "s#RR/#$src/#" >"$W/manifests/$id.yaml"
}

imap() {	# imap USER URL-SUFFIX [CURL ARGS...]
	u=$1 s=$2
	shift 2
	curl -s --max-time 20 --cacert "$CA_FILE" --ssl-reqd -u "$u:$u-pw" \
		"imap://127.0.0.1:$IMAP_PORT/INBOX$s" "$@"
}

# UIDs in USER's INBOX whose header NAME contains VALUE.
search() {	# search USER HEADER VALUE
	imap "$1" "" -X "UID SEARCH HEADER $2 \"$3\"" | tr -d '\r' |
		sed -n 's/^\* SEARCH *//p'
}

count() {	# count USER HEADER VALUE
	set -- $(search "$1" "$2" "$3")
	echo $#
}

fetch() {	# fetch USER UID (with LF line ends, as perfbot wrote it)
	imap "$1" "/;UID=$2" | tr -d '\r'
}

# fetch_matching USER FILE PATTERN UID...: the first message whose decoded
# body matches PATTERN goes to FILE (Postfix delivers in no fixed order)
fetch_matching() {
	u=$1 f=$2 pat=$3
	shift 3
	for uid in "$@"; do
		fetch "$u" "$uid" >"$f"
		"$MAILCHECK" "$f" 2>&1 >/dev/null | grep -q "$pat" && return 0
	done
	return 1
}

# killing_farm FILE: a farm (scripts/fake-lkp-run) that kills its caller
# (-9) after the first request it runs, as a crash while asking would
killing_farm() {
	cat >"$1" <<EOS
#!/bin/sh
"$TOP/scripts/fake-lkp-run" "\$@" || exit \$?
[ -e "$1.crashed" ] && exit 0
touch "$1.crashed"
kill -9 \$PPID
EOS
	chmod +x "$1"
}

# sql, state_exists, state_dump, sqlite_only: on either backend
. "$TOP/tests/pg/suite.sh"

# own_pg NAME: a throw-away PostgreSQL server of the test's own (tests/pg/
# pgserver, in $PGD; own_pg_stop stops it by its PID and removes it), its
# env sourced, PERFBOT_STATE_PW its password and $PGC the test's config
# on it; 1 when the server does not start ($W/pg-start.log says why).
own_pg() {
	PGD=$(mktemp -d "/tmp/perfbot-$1.XXXXXX")
	chmod 711 "$PGD"
	bash "$TOP/tests/pg/pgserver" start "$PGD/srv" >"$W/pg-start.log" 2>&1 ||
		return 1
	. "$PGD/srv/env"
	export PERFBOT_STATE_PW=$PG_PASSWORD
	PGC="$W/pg.yaml"
	sed -e '/^state_password_file:/d' -e "s#^state: .*#state: $PG_URL\nstate_password_env: PERFBOT_STATE_PW#" "$CONFIG" >"$PGC"
}
own_pg_stop() {
	bash "$TOP/tests/pg/pgserver" stop "$PGD/srv" >/dev/null 2>&1
	rm -rf "$PGD"
}
