/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CLI_CHECKUNIT_H
#define PERFBOT_CLI_CHECKUNIT_H

#include "perfbot/config/config.h"

/*
 * 'perfbot check', the systemd part: every directory a cycle of 'cfg'
 * writes (the state's, scheduler.spool_dir, scheduler.results_dir),
 * checked against the unit 'unit' (--unit FILE), else against each
 * installed unit that runs perfbot with this configuration. Each problem
 * is one error line; each unit that allows everything is an 'ok:' line
 * (unless 'quiet'). Returns the number of problems.
 */
int check_units(const struct config *cfg, const char *unit, int quiet);

#endif
