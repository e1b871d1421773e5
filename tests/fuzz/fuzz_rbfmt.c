// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: rb_format, the first 8 bytes the value, the rest the
 * spec (any bytes; at most a few hundred kept, so widths stay cheap). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "perfbot/util/rbfmt.h"
#include "perfbot/util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	char spec[256];
	double v;
	size_t n;

	if (size < sizeof(v))
		return 0;
	memcpy(&v, data, sizeof(v));
	n = size - sizeof(v);
	if (n >= sizeof(spec))
		n = sizeof(spec) - 1;
	memcpy(spec, data + sizeof(v), n);
	spec[n] = '\0';
	rb_format(&sb, spec, v);
	sb_release(&sb);
	return 0;
}
