// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: numparse against strtod(). Any input; where a JSON
 * number starts, the double must be strtod()'s bit for bit and strtod()
 * must stop where numparse() did.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/numparse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *sendp;
	const char *s = (const char *)data, *endp;
	uint64_t a, b;
	double got, want;
	int rc;

	rc = numparse(s, s + size, &got, &endp);
	if (rc != NUMPARSE_OK)
		return 0;
	buf = malloc((size_t)(endp - s) + 1);
	if (!buf)
		return 0;
	memcpy(buf, s, (size_t)(endp - s));
	buf[endp - s] = '\0';
	want = strtod(buf, &sendp);
	memcpy(&a, &got, sizeof(a));
	memcpy(&b, &want, sizeof(b));
	if (a != b || sendp != buf + (endp - s))
		abort();
	free(buf);
	return 0;
}
