// SPDX-License-Identifier: GPL-2.0-only
/*
 * 'perfbot status': what the state holds (the outbox, retests and
 * confirmations in flight, the mailbox position), read only, as text or
 * JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/cli/cli.h"
#include "perfbot/cli/clicommon.h"
#include "perfbot/util/log.h"
#include "perfbot/state/state.h"
#include "perfbot/state/status.h"
#include "perfbot/util/text.h"

struct cli_status_opts {
	int json;
	const char *config;
	int quiet, verbose;
};

static const struct cli_opt status_opts[] = {
	CLI_OPT_FLAG("json", struct cli_status_opts, json,
		     "print it all as one JSON object (times in Unix seconds)"),
	CLI_OPT_CONFIG(struct cli_status_opts),
	CLI_OPT_QUIET(struct cli_status_opts),
	CLI_OPT_VERBOSE(struct cli_status_opts),
	CLI_OPT_END,
};

const struct cli_spec status_spec = {
	"status", "", 0, 0,
	"the outbox, retests in flight, open regressions, the mailbox",
	"Reads the state (never writes it): the queued mail with its next "
	"attempt and last error, recent failures, retests (and confirmation "
	"runs) in flight, the regressions still open and the latest "
	"transitions of their records, where the last poll stopped. "
	"'perfbot send --now' sends what waits for its backoff; 'perfbot show "
	"REPORT' shows one report's life.",
	status_opts, sizeof(struct cli_status_opts),
};

/* Columns holding a time (Unix seconds), shown as dates in text. */
static int is_time(const char *col)
{
	static const char *const names[] = { "next_attempt", "created",
		"deadline", "sent_at", "received", "seen", "at", "changed",
		NULL };
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(col, names[i]))
			return 1;
	return 0;
}

/* One value on one line: control characters never reach the terminal. */
static void print_value(const char *col, json_t *v, time_t now)
{
	char buf[96];
	const char *s;
	size_t n, k;

	if (json_is_integer(v) && is_time(col) && json_integer_value(v) > 0) {
		status_when((time_t)json_integer_value(v), now, buf,
			    sizeof(buf));
		fputs(buf, stdout);
	} else if (is_time(col) && (json_is_null(v) || json_is_integer(v))) {
		/* 0 or nothing: the time never came */
		fputs(strcmp(col, "next_attempt") ? "never" :
		      "never tried, due now", stdout);
	} else if (json_is_integer(v)) {
		printf("%lld", (long long)json_integer_value(v));
	} else if (json_is_string(v)) {
		/*
		 * in pieces, so nothing can fail: this policy writes a
		 * byte for each byte it reads
		 */
		s = json_string_value(v);
		for (n = strlen(s); n; s += k, n -= k) {
			k = text_scrub_to(buf, sizeof(buf), s, n,
					  TEXT_CTRL_QMARK);
			fputs(buf, stdout);
		}
	} else if (json_is_real(v)) {
		printf("%g", json_real_value(v));
	} else {
		fputs("-", stdout);
	}
}

static void print_section(const char *name, json_t *list, time_t now)
{
	const char *col;
	size_t i;
	json_t *row, *v;

	printf("%s: %zu\n", name, json_array_size(list));
	json_array_foreach(list, i, row) {
		int first = 1;

		fputs("  ", stdout);
		json_object_foreach(row, col, v) {
			printf("%s%s: ", first ? "" : ", ", col);
			print_value(col, v, now);
			first = 0;
		}
		putchar('\n');
	}
}

static void print_text(json_t *st, time_t now)
{
	json_t *ob = json_object_get(st, "outbox"), *v;
	const char *k;

	printf("state: %s\n", json_string_value(json_object_get(st, "state")));
	if (ob)
		printf("outbox: %lld queued, %lld sent (%lld in the last hour), "
		       "%lld failed, %lld dropped\n",
		       (long long)json_integer_value(json_object_get(ob,
								     "queued")),
		       (long long)json_integer_value(json_object_get(ob, "sent")),
		       (long long)json_integer_value(json_object_get(ob,
							"sent_last_hour")),
		       (long long)json_integer_value(json_object_get(ob,
								     "failed")),
		       (long long)json_integer_value(json_object_get(ob,
								     "dropped")));
	json_object_foreach(st, k, v)
		if (json_is_array(v))
			print_section(k, v, now);
}

/* The state when it exists; *none set when nothing has run yet. */
static int open_if_there(struct state **st, const char *path, int *none,
			 struct pb_err *err)
{
	*none = state_missing(path);
	if (*none)
		return 0;
	return state_open(st, path, STATE_READ, err);
}

static int show(const char *path, int json, time_t now, struct pb_err *err)
{
	struct state *st = NULL;
	json_t *o = NULL;
	int none, rc;

	if (open_if_there(&st, path, &none, err))
		return -1;
	if (none)
		o = json_pack("{s:s, s:I, s:b}", "state", path, "now",
			      (json_int_t)now, "missing", 1);
	rc = none ? (o ? 0 : pb_fail(err, EX_OSERR, "out of memory")) :
		state_status(st, now, &o, err);
	state_close(st);
	if (rc)
		return -1;
	if (json) {
		rc = json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		fputc('\n', stdout);
	} else if (none) {
		printf("state: %s (not created yet: nothing has run)\n", path);
	} else {
		print_text(o, now);
	}
	json_decref(o);
	return rc ? pb_fail(err, EX_IOERR, "stdout: write failed") : 0;
}

int cmd_status(int argc, char **argv)
{
	struct pb_err err = { 0, "" };
	struct cli_status_opts o;
	struct cli_args a;
	struct config cfg;
	char *path = NULL;
	int rc = cli_parse(&status_spec, argc, argv, &o, &a);

	if (rc)
		return rc > 0 ? 0 : EX_USAGE;
	cli_apply_log(o.quiet, o.verbose, 0);
	if (cli_load_config(&cfg, o.config, 1, &err))
		return cli_fail(&err);
	path = cli_state_path(&cfg);
	if (!path)
		rc = pb_fail(&err, EX_CONFIG, "state: not set, and no $HOME "
			     "for the default place");
	else
		rc = show(path, o.json, cli_now(), &err);
	free(path);
	config_release(&cfg);
	return rc ? cli_fail(&err) : 0;
}
