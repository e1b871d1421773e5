# tests/pg/suite.sh: the integration and fault suites on either backend
# (sourced by tests/integration/run and tests/faults/run after their lib.sh).
#
# PERFBOT_TEST_STATE=pg runs a suite on PostgreSQL: one throw-away server
# (tests/pg/pgserver) for the whole run, started by pg_suite_start and
# stopped by its PID by pg_suite_stop; each test's configuration gets a
# database of its own (pg_state_config), owned by perfbot, its password
# in state_password_file (never in the configuration's text); sql() runs
# a query through psql with sqlite3's default output ('|' between
# columns, no header). Unset, the suites use SQLite files as always.
#
# For the tests: sql QUERY, sql_pipe QUERY COMMAND, sql_list QUERY [SEP],
# sql_blob QUERY, sql_json QUERY PATH, state_exists,
# no_state, state_dump (the whole state as text), state_lacks TEXT,
# STATE_NAME (the name perfbot says for the state) and
# 'sqlite_only WHY && check ...' (on PostgreSQL the check is counted
# skipped, saying WHY; 'sqlite_only WHY || return 0' skips a whole test).

PB_PG=
[ "${PERFBOT_TEST_STATE:-}" = pg ] && PB_PG=1
SUITE_NAME=${SUITE_NAME:-suite}
skipped=0
PGS= PGS_PORT= PGS_BIN= PGS_N=0 PGS_DBS= PG_DB=

# A PostgreSQL server is installed (pgserver's own test).
pg_have_server() {
	local d
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && return 0
	done
	command -v initdb >/dev/null 2>&1
}

# pg_suite_start: the run's server, in a folder of its own ($PGS).
pg_suite_start() {
	local pw
	PGS=$(mktemp -d /tmp/perfbot-pgsuite.XXXXXX) || return 1
	chmod 711 "$PGS"
	if ! bash "$TOP/tests/pg/pgserver" start "$PGS/srv" >"$PGS/start.log" 2>&1; then
		cat "$PGS/start.log" >&2
		return 1
	fi
	# read, not sourced: tests that start servers of their own source
	# theirs, and the PG_* names are theirs
	PGS_PORT=$(sed -n 's/^PG_PORT=//p' "$PGS/srv/env")
	PGS_BIN=$(sed -n 's/^PG_BIN=//p' "$PGS/srv/env")
	pw=$(sed -n 's/^PG_PASSWORD=//p' "$PGS/srv/env")
	(
		umask 077
		printf '%s\n' "$pw" >"$PGS/password"
		printf '127.0.0.1:%s:*:perfbot:%s\n' "$PGS_PORT" "$pw" >"$PGS/pgpass"
	)
}

# PERFBOT_TEST_PG_LOG=FILE keeps the server's log (every statement that
# failed is in it, with its error) in FILE.
pg_suite_stop() {
	[ -n "$PGS" ] || return 0
	bash "$TOP/tests/pg/pgserver" stop "$PGS/srv" >/dev/null 2>&1
	[ -n "${PERFBOT_TEST_PG_LOG:-}" ] && cp "$PGS/srv/log" "$PERFBOT_TEST_PG_LOG"
	rm -rf "$PGS"
	PGS=
}

# pg_state_config FILE: FILE's state becomes a new database of the run's
# server (PG_DB); STATE_NAME is what perfbot calls it.
pg_state_config() {
	PGS_N=$((PGS_N + 1))
	PG_DB=pb_$PGS_N
	bash "$TOP/tests/pg/pgserver" psql "$PGS/srv" \
		-c "CREATE DATABASE $PG_DB OWNER perfbot" >/dev/null ||
		echo "$SUITE_NAME: $T: cannot create database $PG_DB" >&2
	PGS_DBS="$PGS_DBS $PG_DB"
	STATE_NAME="postgresql://perfbot@127.0.0.1:$PGS_PORT/$PG_DB"
	sed -i "s#^state: .*#state: $STATE_NAME\nstate_password_file: $PGS/password#" "$1"
}

# After each test: its databases go (a session left open is ended).
pg_state_drop() {
	local db
	for db in $PGS_DBS; do
		bash "$TOP/tests/pg/pgserver" psql "$PGS/srv" \
			-c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1
	done
	PGS_DBS=
}

# state_setup FILE: what the suites' setups call after writing FILE with
# 'state: $W/state.db'.
state_setup() {
	STATE_NAME="$W/state.db"
	[ -n "$PB_PG" ] && pg_state_config "$1"
	return 0
}

pg_as() {	# pg_as PROGRAM ARGS...: as perfbot on the test's database
	local prog=$1
	shift
	PGPASSFILE="$PGS/pgpass" "$PGS_BIN/$prog" -h 127.0.0.1 \
		-p "$PGS_PORT" -U perfbot -d "$PG_DB" "$@"
}

sql() {
	if [ -n "$PB_PG" ]; then
		pg_as psql -X -q -At -v ON_ERROR_STOP=1 -c "$1"
	else
		sqlite3 "$W/state.db" "$1"
	fi
}

# The state was made (a run that may not make it did not).
state_exists() {
	if [ -n "$PB_PG" ]; then
		[ "$(sql "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")" != 0 ]
	else
		[ -e "$W/state.db" ]
	fi
}

# Every row of the state as text (SQL statements).
state_dump() {
	if [ -n "$PB_PG" ]; then
		pg_as pg_dump --inserts
	else
		sqlite3 "$W/state.db" .dump
	fi
}

# sql_pipe QUERY COMMAND: the query's rows into COMMAND (sh -c).
sql_pipe() {
	sql "$1" | sh -c "$2"
}

# sql_list QUERY [SEP]: the query's rows (one column) on one line, SEP
# (default ',') between them: SQLite's group_concat, which PostgreSQL has
# not (its string_agg SQLite 3.40 has not).
sql_list() {
	sql "$1" | paste -s -d "${2:-,}"
}

# sql_blob QUERY: one BLOB (a mail kept in the outbox) as its bytes and a
# newline, as sqlite3 prints it (psql prints a BYTEA as \x and hex).
sql_blob() {
	if [ -n "$PB_PG" ]; then
		sql "$1" | python3 -c 'import sys
for line in sys.stdin:
    sys.stdout.buffer.write(bytes.fromhex(line.strip()[2:]) + b"\n")'
	else
		sql "$1"
	fi
}

# sql_json QUERY KEY.KEY...: a member of the JSON text the query gives
# (SQLite's json_extract, which PostgreSQL says otherwise).
sql_json() {
	sql "$1" | python3 -c 'import json, sys
v = json.loads(sys.stdin.read())
for k in sys.argv[1].split("."):
    v = v[k]
print(json.dumps(v) if isinstance(v, (dict, list)) else v)' "$2"
}

# no_state: the state was not made.
no_state() {
	! state_exists
}

# state_lacks TEXT: TEXT is nowhere in the state (on SQLite not in its
# files either: a freed page may keep it).
state_lacks() {
	if [ -z "$PB_PG" ] && grep -q -F -- "$1" "$W/state.db" "$W/state.db-wal" 2>/dev/null; then
		return 1
	fi
	state_dump >"$W/.state-dump" || return 1
	! grep -q -F -- "$1" "$W/.state-dump"
}

# sqlite_only WHY: true on SQLite; on PostgreSQL counts a skip and says
# WHY, false.
sqlite_only() {
	[ -z "$PB_PG" ] && return 0
	skipped=$((skipped + 1))
	echo "$SUITE_NAME: skipped on PostgreSQL: $T: $1"
	return 1
}

# suite_start / suite_end: the run's server when on PostgreSQL; the
# closing line.
suite_start() {
	[ -n "$PB_PG" ] || return 0
	if ! pg_have_server; then
		echo "$SUITE_NAME: 0 passed, 0 failed, $1 skipped"
		echo "$SUITE_NAME: skipped: no PostgreSQL server installed (scripts/install-deps check installs it)"
		exit 0
	fi
	if ! pg_suite_start; then
		echo "$SUITE_NAME: 0 passed, 1 failed (the PostgreSQL server did not start)"
		exit 1
	fi
	echo "$SUITE_NAME: on PostgreSQL (127.0.0.1:$PGS_PORT, a database per test)"
}

suite_end() {
	if [ "$skipped" -gt 0 ]; then
		echo "$SUITE_NAME: $pass passed, $fail failed, $skipped skipped"
	else
		echo "$SUITE_NAME: $pass passed, $fail failed"
	fi
	[ "$fail" = 0 ]
}
