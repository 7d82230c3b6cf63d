/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What tracectl prints of a provider the manager describes (stop, status,
 * record): its name escaped, its drop count or the mark of one the
 * manager did not believe.
 */
#ifndef FXT_TRACECTL_PROVIDER_TEXT_H
#define FXT_TRACECTL_PROVIDER_TEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "control_proto.h"

/* Each byte takes at most four (\xNN), and the NUL. */
#define PROVIDER_TEXT_NAME_MAX (4 * FXT_PROVIDER_NAME_MAX + 1)
#define PROVIDER_TEXT_DROPS_MAX 24
/* What a drop count the manager did not believe prints as. */
#define PROVIDER_TEXT_IMPLAUSIBLE "implausible"

/* p's name as dump prints strings: no control character reaches a terminal. */
const char *provider_text_name(const struct fxt_ctl_provider *p,
			       char buf[PROVIDER_TEXT_NAME_MAX]);
/*
 * What became of a provider that did not end with the trace: " (exited)",
 * " (did not acknowledge stop)", or "".
 */
const char *provider_text_note(const struct fxt_ctl_provider *p);
/* p's records dropped, or PROVIDER_TEXT_IMPLAUSIBLE. */
const char *provider_text_drops(const struct fxt_ctl_provider *p,
				char buf[PROVIDER_TEXT_DROPS_MAX]);
static inline bool provider_drops_implausible(const struct fxt_ctl_provider *p)
{
	return p->flags & FXT_CTL_PROVIDER_DROPS_IMPLAUSIBLE;
}

/*
 * The providers among n rows (the kernel counts as one; the rows of its
 * categories do not).
 */
size_t provider_text_count(const struct fxt_ctl_provider *p, size_t n);

/* sum + p's records dropped, saturating; an implausible count adds none. */
uint64_t provider_add_drops(uint64_t sum, const struct fxt_ctl_provider *p);

#endif /* FXT_TRACECTL_PROVIDER_TEXT_H */
