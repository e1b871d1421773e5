// SPDX-License-Identifier: GPL-2.0-only
/*
 * 'perfbot status': what the state holds (the outbox, retests and
 * confirmations in flight, the bisections, the mailbox position), read
 * only, as text or JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "perfbot/act/bisect.h"
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
	"runs) in flight, every request of every kind, the bisections "
	"(phase, commits, rounds, runs, the likeliest commit, the culprit), "
	"the regressions still open and the latest "
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
		"decided", "updated", NULL };
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(col, names[i]))
			return 1;
	return 0;
}

/* One value on one line: control characters never reach the terminal. */
static void print_value(const char *col, const struct status_value *v,
			time_t now)
{
	char buf[96];
	const char *s;
	size_t n, k;

	if (v->type == STATUS_INT && is_time(col) && v->i > 0) {
		status_when((time_t)v->i, now, buf, sizeof(buf));
		fputs(buf, stdout);
	} else if (is_time(col) && (v->type == STATUS_NULL ||
				    v->type == STATUS_INT)) {
		/* 0 or nothing: the time never came */
		fputs(strcmp(col, "next_attempt") ? "never" :
		      "never tried, due now", stdout);
	} else if (v->type == STATUS_INT) {
		printf("%lld", v->i);
	} else if (v->type == STATUS_TEXT) {
		/*
		 * in pieces, so nothing can fail: this policy writes a
		 * byte for each byte it reads
		 */
		s = v->s;
		for (n = strlen(s); n; s += k, n -= k) {
			k = text_scrub_to(buf, sizeof(buf), s, n,
					  TEXT_CTRL_QMARK);
			fputs(buf, stdout);
		}
	} else if (v->type == STATUS_REAL) {
		printf("%g", v->r);
	} else {
		fputs("-", stdout);
	}
}

static void print_section(const struct status_part *p, time_t now)
{
	size_t r, c;

	printf("%s: %zu\n", p->name, p->nrows);
	for (r = 0; r < p->nrows; r++) {
		fputs("  ", stdout);
		for (c = 0; c < p->ncols; c++) {
			printf("%s%s: ", c ? ", " : "", p->cols[c]);
			print_value(p->cols[c], &p->cells[r * p->ncols + c],
				    now);
		}
		putchar('\n');
	}
}

static void print_text(const struct status *st)
{
	const struct status_counts *ob = &st->outbox;
	size_t i;

	printf("state: %s\n", st->state);
	if (ob->has_outbox)
		printf("outbox: %lld queued, %lld sent (%lld in the last hour), "
		       "%lld failed, %lld dropped\n", ob->queued, ob->sent,
		       ob->sent_last_hour, ob->failed, ob->dropped);
	for (i = 0; i < st->nparts; i++)
		print_section(&st->parts[i], st->now);
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

/* One typed value as JSON: times stay Unix seconds. */
static json_t *value_json(const struct status_value *v)
{
	switch (v->type) {
	case STATUS_INT:
		return json_integer((json_int_t)v->i);
	case STATUS_REAL:
		return json_real(v->r);
	case STATUS_TEXT:
		return json_string(v->s);
	default:
		return json_null();
	}
}

/* A part's rows as a list of objects, their columns as keys. */
static json_t *part_json(const struct status_part *p)
{
	json_t *list = json_array(), *row;
	size_t r, c;

	for (r = 0; list && r < p->nrows; r++) {
		row = json_object();
		for (c = 0; row && c < p->ncols; c++)
			if (json_object_set_new(row, p->cols[c], value_json(
					&p->cells[r * p->ncols + c])))
				break;
		if (!row || c < p->ncols || json_array_append_new(list, row)) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/*
 * --json: the state, its time and what it holds as one object (keys
 * sorted), or "missing": true when nothing has run ('so' NULL).
 */
static int status_json(const struct status *so, const char *path,
		       time_t now, FILE *out)
{
	const struct status_counts *ob = so ? &so->outbox : NULL;
	json_t *o = json_pack("{s:s, s:I}", "state", path, "now",
			      (json_int_t)now);
	size_t i;
	int rc = -1;

	if (o && !so)
		rc = json_object_set_new(o, "missing", json_true());
	else if (o)
		rc = ob->has_outbox && json_object_set_new(o, "outbox",
			json_pack("{s:I, s:I, s:I, s:I, s:I}", "dropped",
				  (json_int_t)ob->dropped, "queued",
				  (json_int_t)ob->queued, "sent",
				  (json_int_t)ob->sent, "failed",
				  (json_int_t)ob->failed, "sent_last_hour",
				  (json_int_t)ob->sent_last_hour));
	for (i = 0; so && !rc && i < so->nparts; i++)
		rc = json_object_set_new(o, so->parts[i].name,
					 part_json(&so->parts[i]));
	if (!rc)
		rc = json_dumpf(o, out, JSON_INDENT(2) | JSON_SORT_KEYS);
	if (!rc && fputc('\n', out) == EOF)
		rc = -1;
	json_decref(o);
	return rc;
}

static int show(const char *path, int json, time_t now, struct pb_err *err)
{
	struct state *st = NULL;
	struct status so;
	int none, rc;

	memset(&so, 0, sizeof(so));
	if (open_if_there(&st, path, &none, err))
		return -1;
	rc = none ? 0 : state_status(st, now, &so, err) ||
		bisect_status_add(st, &so, err);
	state_close(st);
	if (rc) {
		status_release(&so);
		return -1;
	}
	if (json)
		rc = status_json(none ? NULL : &so, path, now, stdout);
	else if (none)
		printf("state: %s (not created yet: nothing has run)\n", path);
	else
		print_text(&so);
	status_release(&so);
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
	if (cli_load_config(&cfg, o.config, 1, &err) ||
	    cli_state_secret(&cfg, &err))
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
