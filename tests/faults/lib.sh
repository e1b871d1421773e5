# Helpers for the fault tests (sourced by tests/faults/run): scripted SMTP
# and IMAP servers on 127.0.0.1, started by the tests and stopped by PID.

TOP=$(pwd)
PERFBOT="$TOP/perfbot"
export PERFBOT_SMTP_PASSWORD=front-pw PERFBOT_IMAP_PASSWORD=front-pw
unset SOURCE_DATE_EPOCH

pass=0
fail=0
PIDS=""
ok() { pass=$((pass + 1)); echo "ok: $T: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $T: $*"; }
check() {	# check DESCRIPTION COMMAND...
	d=$1
	shift
	if "$@"; then ok "$d"; else bad "$d"; fi
}

# start_front smtp|imap DIR: the scripted server, its port in $PORT
start_front() {
	mkdir -p "$2"
	rm -f "$2/port"
	python3 "$TOP/tests/faults/${1}front.py" "$2" 2>>"$2/stderr" &
	PIDS="$PIDS $!"
	for i in $(seq 1 100); do [ -s "$2/port" ] && break; sleep 0.05; done
	PORT=$(cat "$2/port")
}

stop_fronts() {
	for p in $PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	PIDS=""
}

# A fresh work dir W with a config sending to the SMTP front on $1 (and
# reading the IMAP front on $2 when given): CONFIG.
fx_setup() {
	W=$(mktemp -d /tmp/perfbot-faults.XXXXXX)
	mkdir -p "$W/manifests"
	CONFIG="$W/perfbot.yaml"
	cat >"$CONFIG" <<EOC
identity:
  from: "perfbot <perfbot@example.test>"
  message_id_domain: example.test
smtp:
  url: smtp://127.0.0.1:$1
  tls: none
  user: perfbot
  password_env: PERFBOT_SMTP_PASSWORD
  connect_timeout: 3
  timeout: 10
state: $W/state.db
sources:
  - dir: $W/manifests
recipients:
  to_author: true
  cc: [perf-reports@example.test]
limits:
  mails_per_hour: 1000
EOC
	state_setup "$CONFIG"
	if [ -n "${2:-}" ]; then
		cat >>"$CONFIG" <<EOC
imap:
  url: imap://127.0.0.1:$2
  tls: none
  user: perfbot
  password_env: PERFBOT_IMAP_PASSWORD
  timeout: 3
EOC
	fi
}

# make_manifest ID [AUTHOR-ADDRESS]: a manifest for seed 004's roots.
# make_manifest ID [AUTHOR]: a report of seed 004 of its own (the fault
# tests count mails: 'group: none' keeps reports of one commit pair apart)
make_manifest() {
	id=$1 author=${2:-alice@example.test}
	src="$TOP/fixtures/seeds/004"
	{
		echo "id: $id"
		echo "group: none"
		sed -n 's/^\(base: .*\)result_root: base }$/\1result_root: RR\/base }/p' "$src/manifest.yaml"
		sed -n 's/^\(head: .*\)result_root: head }$/\1result_root: RR\/head }/p' "$src/manifest.yaml" |
			sed "s/author: \"[^\"]*\"/author: \"Dev <$author>\"/"
	} | sed "s#RR/#$src/#" >"$W/manifests/$id.yaml"
}

# sql, state_exists, state_dump, sqlite_only: on either backend
. "$TOP/tests/pg/suite.sh"
