// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/compose/identity.c: the bot's From and envelope
 * sender, name and Reported-by with their defaults, its Message-IDs in
 * the configured domain, and the archive links: Closes: with the
 * Message-ID as it is, a patch's link percent-encoded, the manifest's own
 * link winning, none when unset.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/compose/identity.h"

#include "testutil.h"

#define T0 1739548080	/* 2025-02-14 15:48:00 UTC */

struct fx {
	char dir[64];
	struct config cfg;
	int loaded;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_identity");

	if (!f || config_load(&f->cfg, NULL, &f->err))
		return -1;
	f->loaded = 1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	if (f->loaded)
		config_release(&f->cfg);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void config(struct fx *f, const char *yaml)
{
	char path[128];

	tu_load_config(&f->cfg, &f->loaded, tu_path(path, sizeof(path), f->dir,
						    "perfbot.yaml"),
		       yaml, &f->err);
}

static void str_is(char *got, const char *want)
{
	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void t_defaults(void **state)
{
	struct fx *f = *state;

	assert_string_equal(f->cfg.identity.from,
			    "perfbot <perfbot@localhost>");
	str_is(identity_sender(&f->cfg), "perfbot@localhost");
	assert_string_equal(f->cfg.identity.name, "perfbot");
	assert_string_equal(f->cfg.identity.reported_by,
			    "perfbot <perfbot@localhost>");
	str_is(identity_message_id(&f->cfg, "demo-004", T0, 0),
	       "202502141548.4b086ddf7c8c8447-perfbot@localhost");
	str_is(identity_closes_url(&f->cfg, "r1", "a@b"), NULL);
	str_is(identity_patch_link(&f->cfg, NULL, "p@x"), NULL);
}

static void t_configured(void **state)
{
	struct fx *f = *state;

	config(f, "identity:\n  from: \"Perf Bot <bot@example.test>\"\n"
	       "  name: lkp\n  message_id_domain: example.test\n");
	assert_string_equal(f->cfg.identity.from,
			    "Perf Bot <bot@example.test>");
	str_is(identity_sender(&f->cfg), "bot@example.test");
	assert_string_equal(f->cfg.identity.name, "lkp");
	/* Reported-by follows From unless set */
	assert_string_equal(f->cfg.identity.reported_by,
			    "Perf Bot <bot@example.test>");
	str_is(identity_message_id(&f->cfg, "demo-004", T0, 0),
	       "202502141548.4b086ddf7c8c8447-perfbot@example.test");
	config(f, "identity:\n  reported_by: \"kernel test robot "
	       "<lkp@example.test>\"\n");
	assert_string_equal(f->cfg.identity.reported_by,
			    "kernel test robot <lkp@example.test>");
}

static void t_links(void **state)
{
	struct fx *f = *state;

	config(f, "identity:\n  archive_url: \"https://lore.example.test/r/"
	       "{message_id}\"\n  patch_archive_url: \"https://lore.example."
	       "test/all/{message_id}/\"\n");
	/* Closes: the id as it is */
	str_is(identity_closes_url(&f->cfg, "r1", "2025.ab-perfbot@x"),
	       "https://lore.example.test/r/2025.ab-perfbot@x");
	/* a patch's id percent-encoded where a path segment needs it */
	str_is(identity_patch_link(&f->cfg, NULL, "a/b?c#d%e f@x.test"),
	       "https://lore.example.test/all/a%2Fb%3Fc%23d%25e%20f@x.test/");
	str_is(identity_patch_link(&f->cfg, NULL, "-._~!$&'()*+,;=:@"),
	       "https://lore.example.test/all/-._~!$&'()*+,;=:@/");
	/* the manifest's own link wins */
	str_is(identity_patch_link(&f->cfg, "https://elsewhere/p", "p@x"),
	       "https://elsewhere/p");
	/* a URL without the placeholder is used as it is */
	config(f, "identity:\n  archive_url: \"https://lore.example.test/\"\n");
	str_is(identity_closes_url(&f->cfg, "r1", "a@b"),
	       "https://lore.example.test/");
	/* the web archive's page of the report: its id as a file name */
	config(f, "identity:\n  archive_url: \"https://perf.example.test/r/"
	       "{report_id}.html#{message_id}{other}\"\n");
	str_is(identity_closes_url(&f->cfg, "Seed/003", "a@b"),
	       "https://perf.example.test/r/~53eed~2f003.html#a@b{other}");
	str_is(identity_closes_url(&f->cfg, "seed-003", "a@b"),
	       "https://perf.example.test/r/seed-003.html#a@b{other}");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_defaults),
		T(t_configured),
		T(t_links),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
