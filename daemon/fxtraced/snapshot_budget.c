// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kept snapshots are checked by name, device and inode before they
 * are counted or removed: the directory is the controller's (owned by it
 * or root, no other user may write in it: snapshot_dir.h), so only its
 * owner can change a name between the check and the unlink, in a
 * directory where it may remove anything itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <fxt/fxt_msg.h>
#include "log.h"
#include "snapshot_budget.h"

/* The lesser of the cap and the percentage of dir_fd's file system. */
static uint64_t default_bytes(int dir_fd)
{
	struct statvfs vfs;
	uint64_t size, share;

	if (fstatvfs(dir_fd, &vfs) < 0 ||
	    __builtin_mul_overflow((uint64_t)vfs.f_blocks,
				   (uint64_t)vfs.f_frsize, &size))
		return FXT_CTL_SNAPSHOT_BYTES_CAP;
	share = size / 100 * FXT_CTL_SNAPSHOT_BYTES_PERCENT;
	return share < FXT_CTL_SNAPSHOT_BYTES_CAP ? share :
						    FXT_CTL_SNAPSHOT_BYTES_CAP;
}

void snapshot_budget_init(struct snapshot_budget *b, int dir_fd,
			  uint64_t max_bytes, uint32_t max_files)
{
	memset(b, 0, sizeof(*b));
	b->max_bytes = max_bytes ? max_bytes : default_bytes(dir_fd);
	if (!max_files)
		max_files = FXT_CTL_SNAPSHOT_FILES_DEFAULT;
	b->max_files = max_files < FXT_CTL_SNAPSHOT_FILES_MAX ?
			       max_files : FXT_CTL_SNAPSHOT_FILES_MAX;
}

static uint64_t ctime_ns(const struct stat *st)
{
	return (uint64_t)st->st_ctim.tv_sec * 1000000000ull +
	       (uint64_t)st->st_ctim.tv_nsec;
}

/* Whether k's name in dir_fd still is the file it was, then in st. */
static bool still_there(int dir_fd, const struct snapshot_kept *k,
			struct stat *st)
{
	return fstatat(dir_fd, k->name, st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISREG(st->st_mode) && (uint64_t)st->st_dev == k->dev &&
	       (uint64_t)st->st_ino == k->ino && ctime_ns(st) == k->ctime_ns;
}

static void forget(struct snapshot_budget *b, uint32_t i)
{
	b->kept_bytes -= b->kept[i].bytes;
	b->nkept--;
	memmove(&b->kept[i], &b->kept[i + 1],
		(b->nkept - i) * sizeof(b->kept[0]));
}

void snapshot_budget_refresh(struct snapshot_budget *b, int dir_fd)
{
	struct stat st;
	uint32_t i = 0;

	while (i < b->nkept) {
		struct snapshot_kept *k = &b->kept[i];

		if (!still_there(dir_fd, k, &st)) {
			forget(b, i);
			continue;
		}
		i++;
	}
}

/* Removes the oldest kept snapshot (if it still is ours); 0 or -errno. */
static int remove_oldest(struct snapshot_budget *b, int dir_fd,
			 const char *dir)
{
	struct snapshot_kept *k = &b->kept[0];
	struct stat st;

	if (!still_there(dir_fd, k, &st)) {
		forget(b, 0);	/* its owner removed or replaced it */
		return 0;
	}
	if (unlinkat(dir_fd, k->name, 0) < 0 && errno != ENOENT)
		return log_error_errno(-errno, "Cannot remove snapshot %s/%s to keep the snapshots within their budget",
				       dir, k->name);
	log_info("Removed snapshot %s/%s (%llu bytes), the oldest, to keep the snapshots within %llu bytes and %u files (tracectl start --snapshot-max-bytes, --snapshot-max-files); %llu removed so far",
		 dir, k->name, (unsigned long long)k->bytes,
		 (unsigned long long)b->max_bytes, b->max_files,
		 (unsigned long long)b->removed_files + 1);
	b->removed_files++;
	b->removed_bytes += k->bytes;
	forget(b, 0);
	return 0;
}

int snapshot_budget_make_room(struct snapshot_budget *b, int dir_fd,
			      const char *dir, uint64_t bytes)
{
	int r;

	snapshot_budget_refresh(b, dir_fd);
	if (bytes > b->max_bytes) {
		b->not_kept++;
		return -EFBIG;
	}
	while (b->nkept && (b->nkept >= b->max_files ||
			    b->kept_bytes > b->max_bytes - bytes)) {
		r = remove_oldest(b, dir_fd, dir);
		if (r < 0) {
			b->not_kept++;
			return r;
		}
	}
	return 0;
}

void snapshot_budget_add(struct snapshot_budget *b, const struct stat *st,
			 const char *name, uint64_t bytes)
{
	struct snapshot_kept *k;

	/* make_room() left room: only a bug could make this false. */
	if (b->nkept >= FXT_CTL_SNAPSHOT_FILES_MAX ||
	    strlen(name) >= sizeof(k->name))
		return;
	k = &b->kept[b->nkept++];
	memset(k, 0, sizeof(*k));
	k->dev = (uint64_t)st->st_dev;
	k->ino = (uint64_t)st->st_ino;
	k->ctime_ns = ctime_ns(st);
	k->bytes = bytes;
	strcpy(k->name, name);
	b->kept_bytes += bytes;
}

void snapshot_budget_restore(struct snapshot_budget *b, int dir_fd,
			     const struct snapshot_kept *k, uid_t owner)
{
	struct stat st;

	if (!memchr(k->name, '\0', sizeof(k->name)) || !k->name[0] ||
	    k->name[0] == '.' || strchr(k->name, '/') ||
	    !still_there(dir_fd, k, &st) ||
	    (st.st_uid != owner && st.st_uid != geteuid()))
		return;
	snapshot_budget_add(b, &st, k->name, (uint64_t)st.st_size);
}

void snapshot_budget_describe(const struct snapshot_budget *b,
			      struct fxt_ctl_trigger *row)
{
	fxt_msg_init(row, FXT_MSG_CTL_TRIGGER, sizeof(*row));
	row->flags = FXT_CTL_TRIGGER_BUDGET;
	row->kept_files = b->nkept;
	row->kept_bytes = b->kept_bytes;
	row->max_files = b->max_files;
	row->max_bytes = b->max_bytes;
	row->removed_files = b->removed_files;
	row->removed_bytes = b->removed_bytes;
	row->not_kept = b->not_kept;
}
