/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CONFIG_H
#define PERFBOT_CONFIG_H

#include <jansson.h>

#include "perfbot/err.h"
#include "perfbot/yaml.h"

/*
 * config/perfbot.yaml. The file is checked against one schema table when
 * loaded: an unknown key, or a value of the wrong kind, is EX_CONFIG naming
 * the key and its line. A file that holds a password directly must be
 * mode 0600. Getters take a dotted path ("smtp.url") and return the
 * default when the key is absent. Paths (state, sources[].dir, ca_file,
 * password_file, spool_dir, templates.dir, data.*, and the program of an
 * argv when it names a path) are made absolute against the directory of
 * the config file when the file is loaded. Words (tls, scheduler.backend),
 * URL schemes and mail addresses are checked then too.
 */

#define CONFIG_MAX_BYTES (1 << 20)

struct config {
	struct ydoc doc;	/* doc.root is an object (maybe empty) */
	char *path;
	char *dir;		/* absolute directory of 'path', or NULL */
	unsigned flags;
	int problems;		/* counted with CONFIG_ALL_PROBLEMS */
	char first[PB_ERR_MAX];	/* the first of them */
};

/*
 * Find every problem, not only the first: one is the error as usual;
 * more are each printed (log_error) and the error counts them.
 */
#define CONFIG_ALL_PROBLEMS 1u

/* Load 'path'; NULL loads an empty configuration (all defaults). */
int config_load(struct config *cfg, const char *path, struct pb_err *err);
int config_load_flags(struct config *cfg, const char *path, unsigned flags,
		      struct pb_err *err);
/*
 * The same from memory ('name' for messages; relative paths against
 * 'dir', or left as they are when NULL): for tests and the fuzzer. A
 * password in it is refused, as there is no file mode to check.
 */
int config_parse(struct config *cfg, const char *name, const char *dir,
		 const char *text, size_t len, struct pb_err *err);
void config_release(struct config *cfg);

const char *cfg_str(const struct config *cfg, const char *key,
		    const char *def);
long cfg_long(const struct config *cfg, const char *key, long def);
int cfg_bool(const struct config *cfg, const char *key, int def);
/* A list value (json array of strings or mappings), or NULL. */
json_t *cfg_list(const struct config *cfg, const char *key);

#endif
