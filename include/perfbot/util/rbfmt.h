/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_RBFMT_H
#define PERFBOT_RBFMT_H

#include "perfbot/util/strbuf.h"

/* Largest width and precision rb_format() accepts. */
#define RB_WIDTH_MAX 4096
#define RB_PREC_MAX 1024

/*
 * Append 'v' formatted exactly as Ruby's format(spec, v) would (LKP
 * prints its tables with Ruby): the same digits, including Ruby's
 * rounding of near-ties half to even and the trailing zeros its %g
 * keeps now and then. 'spec' is one conversion,
 * %[flags][width][.prec]conv with flags from "+- 0#", conv one of
 * f e E g G d i; nothing may follow it. %d truncates toward zero and
 * prints the whole integer however large; Inf and NaN print as Ruby
 * prints them ("Inf", "-Inf", "NaN"). Returns 0, or -1 for a bad spec,
 * a width or precision above the limits, %d of Inf or NaN (Ruby raises
 * there) or a full buffer (then 'out' is left as it was).
 */
int rb_format(struct strbuf *out, const char *spec, double v);

#endif
