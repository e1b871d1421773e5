// SPDX-License-Identifier: GPL-2.0-only
#include "perfbot/cli.h"
#include "perfbot/log.h"

int cmd_render(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	log_error("render: not built yet");
	return EX_UNAVAILABLE;
}
