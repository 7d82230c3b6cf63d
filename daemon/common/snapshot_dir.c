// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <grp.h>
#include <stdio.h>

#include "control_proto.h"
#include "snapshot_dir.h"

int snapshot_dir_check(const struct stat *st, uid_t owner, char *why,
		       size_t why_len)
{
	const struct group *tracing;
	unsigned int mode = st->st_mode & 07777;

	if (!S_ISDIR(st->st_mode)) {
		snprintf(why, why_len, "is not a directory");
		return -ENOTDIR;
	}
	if (st->st_uid != owner && st->st_uid != 0) {
		char yours[48] = "";

		if (owner != 0)
			snprintf(yours, sizeof(yours), " nor to you (uid %u)",
				 (unsigned int)owner);
		snprintf(why, why_len,
			 "belongs to uid %u, not to root%s: its owner could rename or replace the snapshots; use a directory of your own (mkdir -m 0700 DIR)",
			 (unsigned int)st->st_uid, yours);
		return -EPERM;
	}
	if (mode & S_IWOTH) {
		snprintf(why, why_len,
			 "is writable by every user (mode %04o): any of them could rename or replace the snapshots; chmod o-w it, or use a directory of your own (mkdir -m 0700 DIR)",
			 mode);
		return -EPERM;
	}
	if (!(mode & S_IWGRP))
		return 0;
	tracing = getgrnam(FXT_CTL_GROUP);
	if (tracing && st->st_gid == tracing->gr_gid)
		return 0;
	snprintf(why, why_len,
		 "is writable by group %u (mode %04o): its members could rename or replace the snapshots; chmod g-w it (group %s may keep that right)",
		 (unsigned int)st->st_gid, mode, FXT_CTL_GROUP);
	return -EPERM;
}
