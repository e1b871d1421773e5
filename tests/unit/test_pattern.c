// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the LKP pattern lists (src/compare/pattern.c): the four
 * anchorings, the Ruby spellings that POSIX differs in, first-match order
 * across buckets, and a differential check of the fast paths (literal
 * prefixes, needed literals) against plain regexec over every pattern of
 * the shipped config/metrics.yaml lists and a few thousand names.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/compare/pattern.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/yaml.h"

static struct patlist *list_of(enum pat_mode mode, const char *const *p)
{
	struct patlist *pl = patlist_new(mode);
	struct pb_err err = { 0, "" };

	assert_non_null(pl);
	for (; *p; p++)
		if (patlist_add(pl, *p, "test", 0, &err))
			fail_msg("'%s': %s", *p, err.msg);
	return pl;
}

static int one(enum pat_mode mode, const char *pattern, const char *name)
{
	const char *p[] = { pattern, NULL };
	struct patlist *pl = list_of(mode, p);
	int hit = patlist_any(pl, name, strlen(name));

	patlist_free(pl);
	return hit;
}

static void t_modes(void **state)
{
	(void)state;
	/* /p/: anywhere */
	assert_true(one(PAT_SEARCH, "foo", "xfooy"));
	assert_true(one(PAT_SEARCH, "^foo", "foox"));
	assert_false(one(PAT_SEARCH, "^foo", "xfoo"));
	/* /^p/: the start only */
	assert_true(one(PAT_START, "foo", "foox"));
	assert_false(one(PAT_START, "foo", "xfoo"));
	assert_true(one(PAT_START, "dmesg.*", "dmesg"));
	assert_true(one(PAT_START, ".+\\.pass$", "a.pass"));
	assert_false(one(PAT_START, ".+\\.pass$", "a.passed"));
	/* /^p$/: the whole name */
	assert_true(one(PAT_WHOLE, "foo", "foo"));
	assert_false(one(PAT_WHOLE, "foo", "foox"));
	assert_true(one(PAT_WHOLE, ".*.time.elapsed_time.*", "a.time.elapsed_time"));
	assert_false(one(PAT_WHOLE, ".*.time.elapsed_time.*", "time.elapsed_time"));
	assert_true(one(PAT_WHOLE, "dd.kill_time", "ddXkill_time"));
	/* a literal, '.' included */
	assert_true(one(PAT_PREFIX, "boot-time.", "boot-time.boot"));
	assert_false(one(PAT_PREFIX, "boot-time.", "boot-timeXboot"));
	assert_true(one(PAT_PREFIX, "turbostat.%Busy", "turbostat.%Busy"));
}

/* The tails a literal prefix may have without a regex. */
static void t_tails(void **state)
{
	(void)state;
	assert_true(one(PAT_SEARCH, "^time.", "time.x"));
	assert_false(one(PAT_SEARCH, "^time.", "time"));
	assert_true(one(PAT_WHOLE, "perf-profile.*", "perf-profile"));
	assert_true(one(PAT_WHOLE, "ab.", "abc"));
	assert_false(one(PAT_WHOLE, "ab.", "abcd"));
	assert_false(one(PAT_WHOLE, "ab.+", "ab"));
	assert_true(one(PAT_WHOLE, "ab.+", "abcd"));
	assert_true(one(PAT_SEARCH, "^abc$", "abc"));
	assert_false(one(PAT_SEARCH, "^abc$", "abcd"));
	/* a quantified last literal is no prefix: 'ab?' matches 'a' */
	assert_true(one(PAT_WHOLE, "ab?", "a"));
	assert_true(one(PAT_WHOLE, "ab+", "abbb"));
	assert_false(one(PAT_WHOLE, "ab+", "a"));
}

/* Ruby spellings: '{' that starts no interval, escaped punctuation. */
static void t_ruby_syntax(void **state)
{
	(void)state;
	assert_true(one(PAT_SEARCH, "{#:#}", "x{#:#}y"));
	assert_true(one(PAT_SEARCH, "},at", "x},at"));
	assert_true(one(PAT_SEARCH, "^a\\-b", "a-b"));
	assert_true(one(PAT_SEARCH, "^a[0-9]{1,5}\\]", "a123]"));
	assert_false(one(PAT_SEARCH, "^a[0-9]{1,5}\\]", "a123456]"));
	assert_true(one(PAT_SEARCH, "^stderr\\.disk_r(r|w)\\(\\):No", "stderr.disk_rw():No"));
	/* '.' is no newline and '^' starts any line, as in Ruby */
	assert_false(one(PAT_WHOLE, "a.b", "a\nb"));
	/* top-level alternation binds loosest, as Ruby builds /^a|b$/ */
	assert_true(one(PAT_WHOLE, "a|b", "ax"));
	assert_true(one(PAT_WHOLE, "a|b", "xb"));
	assert_false(one(PAT_WHOLE, "a|b", "xbx"));
}

static void t_bad_pattern(void **state)
{
	struct patlist *pl = patlist_new(PAT_SEARCH);
	struct pb_err err = { 0, "" };

	(void)state;
	assert_int_equal(patlist_add(pl, "foo([", "f", 3, &err), 0);
	assert_int_equal(patlist_check(pl, 0, &err), 0);
	assert_int_equal(patlist_check(pl, 1, &err), -1);
	assert_string_equal(err.msg, "f:3: bad pattern 'foo(['");
	assert_int_equal(err.code, EX_CONFIG);
	patlist_free(pl);
	/* met on the way: no match, and the check says so */
	pl = patlist_new(PAT_SEARCH);
	assert_int_equal(patlist_add(pl, "foo([", "f", 4, &err), 0);
	assert_false(patlist_any(pl, "foo(x", 5));
	assert_int_equal(patlist_check(pl, 0, &err), -1);
	assert_string_equal(err.msg, "f:4: bad pattern 'foo(['");
	patlist_free(pl);
}

/* The first match in the order added, across buckets and the rest. */
static void t_first_order(void **state)
{
	static const char *const p[] = { "x.*", "^a", ".*b", "^ab", "ab", NULL };
	struct patlist *pl = list_of(PAT_SEARCH, p);

	(void)state;
	assert_int_equal(patlist_first(pl, "abc", 3), 1);
	assert_int_equal(patlist_first(pl, "xab", 3), 0);
	assert_int_equal(patlist_first(pl, "bab", 3), 2);
	assert_int_equal(patlist_first(pl, "q", 1), -1);
	assert_int_equal(patlist_count(pl), 5);
	patlist_free(pl);
}

/* ---- differential: fast paths against plain regexec ---- */

static const char *const keys[] = { "failure", "pass", "stat_denylist",
	"stat_allowlist", "report_allowlist", "perf_patterns", "thresholds",
	"absolute", "fallbacks" };

static enum pat_mode mode_of(const char *key)
{
	if (!strcmp(key, "failure") || !strcmp(key, "pass"))
		return PAT_START;
	return !strcmp(key, "thresholds") ? PAT_WHOLE : PAT_SEARCH;
}

/* The pattern of item 'e' (a string or { match: ... }). */
static const char *pattern_of(const struct ynode *e)
{
	return ynode_is(e, Y_STR) ? e->str : ynode_str(ymap_get(e, "match"));
}

/* What regexec alone says, with the pattern spelled for POSIX by hand. */
static int reference(enum pat_mode mode, const char *p, const char *name)
{
	const char *start = p;
	struct strbuf sb = STRBUF_INIT;
	regex_t re;
	int hit, rc = 0;

	rc |= sb_adds(&sb, mode == PAT_SEARCH ? "" : "^");
	for (; *p; p++) {
		if (*p == '\\' && p[1] && p[1] != '-') {
			rc |= sb_addc(&sb, *p++);
			rc |= sb_addc(&sb, *p);
		} else if (*p == '{' && !strchr("0123456789", p[1])) {
			rc |= sb_adds(&sb, "\\{");
		} else if (*p == '}' &&
			   (p == start || !strchr("0123456789,", p[-1]))) {
			rc |= sb_adds(&sb, "\\}");
		} else if (*p == '\\' && p[1] == '-') {
			rc |= sb_addc(&sb, *++p);
		} else {
			rc |= sb_addc(&sb, *p);
		}
	}
	rc |= sb_adds(&sb, mode == PAT_WHOLE ? "$" : "");
	assert_int_equal(rc, 0);
	if (regcomp(&re, sb.buf, REG_EXTENDED | REG_NOSUB | REG_NEWLINE))
		fail_msg("reference: cannot compile '%s'", sb.buf);
	hit = !regexec(&re, name, 0, NULL, 0);
	regfree(&re);
	sb_release(&sb);
	return hit;
}

static void t_differential(void **state)
{
	static const char *const names[] = {
		"dmesg.WARNING:at_foo", "dmesg", "dmesgx", "kmsg.bootstage:x",
		"stderr.disk_rr():No_space_left_on_device", "ltp.a.pass",
		"ltp.a.fail", "ltp.a.fail_x", "x.killed_by_signal",
		"interrupts.CPU0.LOC", "softirqs.RCU", "iostat.sda.r/s",
		"iostat.sda.rkB/s", "iostat.sda.await", "perf-profile.x",
		"perf-stat.i.cycles", "proc-vmstat.nr_dirty", "time.user_time",
		"boot-time.boot", "lock_stat.a.contentions", "meminfo.Active",
		"numa-meminfo.node0.Active", "a.time.elapsed_time.max",
		"dd.kill_time", "kmsg.C1234]", "kmsg.T123456]", "x%", "x%y",
		"kmsg.Bluetooth:hci0:", "lkvs.a.b.na", "xfstests.btrfs.303.fail",
		"vmstat.cpu.us", "dmesg.BUG:KCSAN:data-race_in#/", "",
	};
	struct pb_err err = { 0, "" };
	struct ydoc doc;
	size_t k, i, n, checked = 0;

	(void)state;
	if (yaml_load_file("config/metrics.yaml", 1 << 20, &doc, &err))
		fail_msg("%s", err.msg);
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const struct ynode *arr = ymap_get(doc.root, keys[k]);
		enum pat_mode mode = mode_of(keys[k]);

		assert_true(ynode_is(arr, Y_SEQ) && arr->n > 0);
		for (i = 0; i < arr->n; i++) {
			const char *p = pattern_of(arr->items[i]);

			for (n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
				if (one(mode, p, names[n]) !=
				    reference(mode, p, names[n]))
					fail_msg("%s: '%s' on '%s'", keys[k], p,
						 names[n]);
				checked++;
			}
		}
	}
	assert_true(checked > 10000);
	ydoc_release(&doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_modes),
		cmocka_unit_test(t_tails),
		cmocka_unit_test(t_ruby_syntax),
		cmocka_unit_test(t_bad_pattern),
		cmocka_unit_test(t_first_order),
		cmocka_unit_test(t_differential),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
