/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_TESTSTATE_H
#define PERFBOT_TESTSTATE_H

/*
 * The state a unit test opens, on either backend: the SQLite file it
 * names, or, when the runner set PERFBOT_TEST_STATE to a PostgreSQL URL
 * (tests/pg/run-unit starts a throw-away server and sets it, with the
 * password in PGPASSWORD), a schema of the test's own on that server,
 * made here and named after the test's temporary folder (the server and
 * every schema go when the runner stops it).
 */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "perfbot/state/state.h"

/* The PostgreSQL URL of the run, or NULL: the tests use SQLite files. */
static inline const char *tu_pg(void)
{
	const char *u = getenv("PERFBOT_TEST_STATE");

	return u && *u ? u : NULL;
}

/* Skip the calling test when the state is on a server ('why' says why). */
#define TU_SQLITE_ONLY(why)						\
	do {								\
		if (tu_pg()) {						\
			print_message("skipped on PostgreSQL: %s\n", why); \
			skip();						\
		}							\
	} while (0)

/*
 * Where the test's state is: 'path' itself (SQLite), or a new schema's
 * URL on the run's server, into 'buf'.
 */
static inline const char *tu_state(char *buf, size_t n, const char *path)
{
	const char *url = tu_pg(), *base = strrchr(path, '/');
	char schema[64], sql[128];
	size_t i, j = 0;
	PGresult *res;
	PGconn *c;

	if (!url) {
		if (snprintf(buf, n, "%s", path) >= (int)n)
			fail_msg("'%s' longer than %zu", path, n - 1);
		return buf;
	}
	/*
	 * The folder (/tmp/test_x.AbC123) and the file's name, as a name:
	 * its letters and digits, a capital as '_' and the small letter.
	 */
	for (i = 0; path[i] && j < sizeof(schema) - 3; i++) {
		unsigned char ch = (unsigned char)path[i];

		if (!isalnum(ch) || (base && path + i == base))
			continue;
		if (isupper(ch))
			schema[j++] = '_';
		schema[j++] = (char)tolower(ch);
	}
	schema[j] = '\0';
	if (j > 50)
		memmove(schema, schema + j - 50, 51);
	c = PQconnectdb(url);
	if (PQstatus(c) != CONNECTION_OK)
		fail_msg("%s: %s", url, PQerrorMessage(c));
	snprintf(sql, sizeof(sql), "CREATE SCHEMA IF NOT EXISTS s%s", schema);
	res = PQexec(c, sql);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		fail_msg("%s: %s", sql, PQerrorMessage(c));
	PQclear(res);
	PQfinish(c);
	if (snprintf(buf, n, "%s%coptions=-c%%20search_path%%3Ds%s", url,
		     strchr(url, '?') ? '&' : '?', schema) >= (int)n)
		fail_msg("the state's URL is longer than %zu", n - 1);
	return buf;
}

/* state_open() of the test's state at 'path' (tu_state()). */
static inline int tu_state_open(struct state **st, const char *path,
				enum state_mode mode, struct pb_err *err)
{
	char where[1024];

	return state_open(st, tu_state(where, sizeof(where), path), mode,
			  err);
}

#endif
