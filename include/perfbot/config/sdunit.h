/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SDUNIT_H
#define PERFBOT_SDUNIT_H

#include <stddef.h>

#include "perfbot/config/config.h"

/*
 * config: what a systemd service unit lets perfbot write, so that
 * 'perfbot check' can say ahead of time what the unit will refuse (a
 * spool directory outside ReadWritePaths= fails with "Read-only file
 * system" only when a retest is asked). Read from the unit's [Service]
 * section: ProtectSystem=, ProtectHome=, PrivateTmp=, DynamicUser=,
 * ReadWritePaths=, ReadOnlyPaths=, InaccessiblePaths=, the
 * State/Cache/Logs/RuntimeDirectory= it gets, User= and ExecStart=.
 */

enum sd_mode { SD_RW, SD_RO, SD_HIDDEN };

struct sd_rule {
	char *path;		/* absolute, symbolic links resolved */
	enum sd_mode mode;
	const char *setting;	/* the setting that made it */
};

struct sdunit {
	char *path;		/* the unit file */
	char *user;		/* User=, or NULL */
	char *command;		/* ExecStart's perfbot command ("run"), or
				 * NULL when it runs no perfbot */
	char *config;		/* ExecStart's --config, or NULL */
	char *rw_paths;		/* ReadWritePaths= as written, for messages */
	int protect_system;	/* 0 no, 1 yes, 2 full, 3 strict */
	int protect_home;	/* 0 no, 1 yes, 2 read-only, 3 tmpfs */
	int private_tmp;
	int dynamic_user;
	struct sd_rule *rules;
	size_t nrules;
};

/*
 * Read the unit file 'path' (at most 64 KiB). 0, or -1 with 'err' (a
 * file that cannot be read; a setting of a value systemd would refuse).
 * Release with sdunit_release(), which is always safe.
 */
int sdunit_load(struct sdunit *u, const char *path, struct pb_err *err);
void sdunit_release(struct sdunit *u);

/*
 * Whether the service may make and write files in directory 'dir' (which
 * need not exist yet: its nearest existing ancestor is what is looked at
 * on disk), the value of the config key 'key'. 0 when it may; -1 with
 * 'err' (EX_CONFIG) naming the key, the path, the unit and the setting
 * that stops it, and what to change. With User= set and not the caller,
 * the directory's mode and owner must let that user write (ACLs are not
 * looked at), unless systemd makes it for that user (StateDirectory=).
 * 'dir' is absolute.
 */
int sdunit_may_write(const struct sdunit *u, const char *key,
		     const char *dir, struct pb_err *err);

/* 0 when User= exists (or none is set, or DynamicUser=), else -1. */
int sdunit_user_check(const struct sdunit *u, struct pb_err *err);

/*
 * The directories a cycle of 'cfg' writes, each with the key that names
 * it: the state's directory (the state file 'state' is given: its
 * default is the command line's), scheduler.spool_dir (spool backend)
 * and scheduler.results_dir. Returns how many were put in 'key'/'dir'
 * (at most 'max'); each dir is allocated (free them), NULL when out of
 * memory.
 */
size_t sdunit_written(const struct config *cfg, const char *state,
		      const char **key, char **dir, size_t max);

/*
 * The installed units that run perfbot with the configuration 'config':
 * the '<dirs[i]>/perfbot*.service' files (NULL-terminated list, a name
 * found in an earlier directory hides a later one, as systemd's unit
 * path does) whose ExecStart= runs perfbot with '--config' naming the
 * same file ('/etc/perfbot/perfbot.yaml' without --config). '*paths'
 * gets an allocated, NULL-terminated list (free each and the array);
 * returns how many, or -1 with 'err'.
 */
int sdunit_find(const char *const *dirs, const char *config, char ***paths,
		struct pb_err *err);

/* systemd's system unit directories, most important first. */
extern const char *const sdunit_system_dirs[];

#endif
