/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which processes a summary keeps to: the process tree of one or more
 * roots, followed through the kernel:proc fork records (kproc.h). The
 * roots are the command an archive of tracectl record marks
 * (<fxt/record_command.h>), a pid, or the processes of a name. Bounded:
 * past PROCESS_TREE_MAX pids or forks, more are counted, not followed.
 *
 * Fork records are kept whoever forks (a fork may be read before the
 * record that makes its parent a member), so the tree at the end is
 * complete whatever the order of the records; a question asked while
 * reading gets the tree as known so far.
 */
#ifndef FXT_PROCESS_TREE_H
#define FXT_PROCESS_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "fxt_reader.h"
#include "hash_index.h"

#define PROCESS_TREE_MAX 65536u
#define PROCESS_TREE_NAME_MAX 64u

enum process_scope {
	/* the command's tree if the archive marks one, else everything */
	PROCESS_SCOPE_DEFAULT = 0,
	PROCESS_SCOPE_ALL, /* everything, marked or not */
	PROCESS_SCOPE_PID, /* the tree of a pid */
	PROCESS_SCOPE_NAME, /* the trees of the processes of a name */
};

struct process_tree_options {
	enum process_scope scope;
	uint64_t pid; /* PROCESS_SCOPE_PID */
	char name[PROCESS_TREE_NAME_MAX]; /* PROCESS_SCOPE_NAME */
};

struct process_fork {
	uint64_t parent, child;
	uint32_t next; /* index + 1 of the parent's next fork */
};

struct process_tree {
	struct process_tree_options opt;
	uint64_t command_pid; /* the first marked command; 0: none */
	/* members: open addressing of pid + 0 never used (pid 0 is no one) */
	uint64_t *members;
	uint32_t nmembers, members_mask;
	struct process_fork *forks;
	uint32_t nforks, forks_cap;
	struct hash_index first_fork; /* by parent: its newest fork */
	uint64_t *stack; /* add_tree()'s work: the pids to add */
	uint32_t stack_cap;
	uint64_t not_followed; /* forks and members past the maximum */
};

void process_tree_init(struct process_tree *t,
		       const struct process_tree_options *opt);
void process_tree_free(struct process_tree *t);
/* Takes in what rec says of processes: marks, forks, names. 0 or -ENOMEM. */
int process_tree_record(struct process_tree *t, const struct fxt_record *rec);
/* Whether the summary keeps to a tree (else everything counts). */
bool process_tree_active(const struct process_tree *t);
/* Whether pid belongs (always true when no tree is kept to). */
bool process_tree_has(const struct process_tree *t, uint64_t pid);
/*
 * What the summary keeps to, for a header: "the command's process tree
 * (pid 1234)", "the process tree of pid 42", "processes named 'make' and
 * their children", or "every process".
 */
void process_tree_describe(const struct process_tree *t, char *buf, size_t len);

#endif /* FXT_PROCESS_TREE_H */
