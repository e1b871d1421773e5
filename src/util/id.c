// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: the ids perfbot mints, for compose (Message-IDs, report and
 * answer ids, MIME boundaries), act (retest and confirmation requests)
 * and the web archive (the file names of ids). One place, so that a
 * format is written once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#include "perfbot/util/id.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/strmap.h"

static unsigned long long hash_str(const char *s, unsigned long long seed)
{
	return hash_fnv1a(s, strlen(s), seed);
}

/* "<prefix><16 hex digits of h>", newly allocated. */
static char *hex_id(const char *prefix, unsigned long long h)
{
	struct strbuf sb = STRBUF_INIT;

	if (sb_addf(&sb, "%s%016llx", prefix, h)) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

char *id_message_id_draw(const char *id, time_t when, const char *domain,
			 int draw)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long long h = hash_str(id, 0);
	char stamp[16];
	struct tm tm;

	gmtime_r(&when, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M", &tm);
	/* 64 bits of the id (the time is the stamp): out of reach */
	if (draw)
		h = hash_fnv1a(&draw, sizeof(draw), h);
	if (sb_addf(&sb, "%s.%016llx-perfbot@%s", stamp, h,
		    domain && *domain ? domain : "localhost")) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

char *id_message_id(const char *id, time_t when, const char *domain)
{
	return id_message_id_draw(id, when, domain, 0);
}

int id_is_ours(const char *message_id, const char *domain)
{
	static const char tail[] = "-perfbot@";
	const char *p = message_id;
	size_t i, hex;

	if (!p)
		return 0;
	for (i = 0; i < 12; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	if (p[12] != '.')
		return 0;
	/* 16 hex digits now, 8 in ids minted before 0.4 */
	for (hex = 0; p[13 + hex] && strchr("0123456789abcdef", p[13 + hex]);
	     hex++)
		;
	if (hex != 8 && hex != 16)
		return 0;
	p += 13 + hex;
	if (strncmp(p, tail, sizeof(tail) - 1))
		return 0;
	return !strcasecmp(p + sizeof(tail) - 1,
			   domain && *domain ? domain : "localhost");
}

char *id_report(const char *base, const char *head, const char *axes_keys,
		const char *axes_values)
{
	struct strbuf sb = STRBUF_INIT;
	char *id = NULL;

	if (!sb_addf(&sb, "%s\n%s\n%s\n%s", base, head, axes_keys,
		     axes_values))
		id = hex_id("", hash_fnv1a(sb.buf, sb.len, 0));
	sb_release(&sb);
	return id;
}

char *id_answer(const char *message_id, const char *tag)
{
	return hex_id("a-", hash_str(tag, hash_str(message_id, 0)));
}

/* "<prefix>" and 16 hex digits of the hash of "message_id#index". */
static char *request_id(const char *prefix, const char *message_id,
			size_t index)
{
	struct strbuf key = STRBUF_INIT;
	char *id = NULL;

	if (!sb_addf(&key, "%s#%zu", message_id, index))
		id = hex_id(prefix, hash_fnv1a(key.buf, key.len, 0));
	sb_release(&key);
	return id;
}

char *id_retest_request(const char *message_id, size_t index)
{
	return request_id("rt-", message_id, index);
}

char *id_test_request(const char *message_id, size_t index)
{
	return request_id("test-", message_id, index);
}

char *id_verify_request(const char *report_id, const char *commit)
{
	struct strbuf key = STRBUF_INIT;
	char *id = NULL;

	if (!sb_addf(&key, "%s#%s", report_id, commit))
		id = hex_id("verify-", hash_fnv1a(key.buf, key.len, 0));
	sb_release(&key);
	return id;
}

char *id_confirm_request(const char *report_id)
{
	struct strbuf sb = STRBUF_INIT;

	if (sb_addf(&sb, "confirm-%s", report_id)) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

char *id_confirm_look(const char *report_id, long runs)
{
	struct strbuf sb = STRBUF_INIT;

	if (sb_addf(&sb, "confirm-%s-%ld", report_id, runs)) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

/* Bytes that stand for themselves in a file name (none is uppercase). */
static int name_plain(unsigned char c, size_t at)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '-' || (c == '.' && at > 0);
}

char *id_file_name(const char *id)
{
	struct strbuf sb = STRBUF_INIT;
	const unsigned char *p = (const unsigned char *)id;
	size_t i;
	int rc = 0;

	for (i = 0; p[i] && !rc; i++) {
		if (sb.len + 3 > ID_FILE_NAME_MAX)
			break;
		rc = name_plain(p[i], i) ? sb_addc(&sb, (char)p[i]) :
			sb_addf(&sb, "~%02x", p[i]);
	}
	if (!rc && p[i])
		rc = sb_addf(&sb, "~~%016llx", hash_str(id, 0));
	else if (!rc && !i)
		rc = sb_addc(&sb, '~');
	if (rc) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

int id_boundary(const char *message_id, int try, char *buf, size_t n)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	unsigned char r[12];
	size_t i, len = 0;

	if (sde && *sde) {
		unsigned long long h = hash_str(message_id ? message_id : "",
						0);

		if (try)
			h = hash_fnv1a(&try, sizeof(try), h);
		snprintf(buf, n, "=-perfbot-%016llx", h);
		return 0;
	}
	while (len < sizeof(r)) {
		ssize_t got = getrandom(r + len, sizeof(r) - len, 0);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		len += (size_t)got;
	}
	len = (size_t)snprintf(buf, n, "=-perfbot-");
	for (i = 0; i < sizeof(r) && len + 2 < n; i++, len += 2)
		snprintf(buf + len, n - len, "%02x", r[i]);
	return 0;
}
