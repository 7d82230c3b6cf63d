// SPDX-License-Identifier: GPL-2.0-only
/* What tracectl prints of a provider: see provider_text.h. */
#include <stdio.h>
#include <string.h>

#include "provider_text.h"
#include "text_out.h"

const char *provider_text_name(const struct fxt_ctl_provider *p,
			       char buf[PROVIDER_TEXT_NAME_MAX])
{
	/* Room for the worst case: the text is never flushed to fd -1. */
	struct text_out o = {
		.buf = buf, .cap = PROVIDER_TEXT_NAME_MAX - 1, .fd = -1,
	};

	text_put_c_escaped(&o, p->name, strnlen(p->name, sizeof(p->name)),
			   false);
	buf[o.len] = '\0';
	return buf;
}

const char *provider_text_drops(const struct fxt_ctl_provider *p,
				char buf[PROVIDER_TEXT_DROPS_MAX])
{
	if (provider_drops_implausible(p))
		return PROVIDER_TEXT_IMPLAUSIBLE;
	snprintf(buf, PROVIDER_TEXT_DROPS_MAX, "%llu",
		 (unsigned long long)p->records_dropped);
	return buf;
}

uint64_t provider_add_drops(uint64_t sum, const struct fxt_ctl_provider *p)
{
	if (provider_drops_implausible(p))
		return sum;
	return __builtin_add_overflow(sum, p->records_dropped, &sum) ?
		       UINT64_MAX : sum;
}

size_t provider_text_count(const struct fxt_ctl_provider *p, size_t n)
{
	size_t i, count = 0;

	for (i = 0; i < n; i++)
		count += !(p[i].flags & FXT_CTL_PROVIDER_CATEGORY);
	return count;
}

const char *provider_text_note(const struct fxt_ctl_provider *p)
{
	if (p->flags & FXT_CTL_PROVIDER_KERNEL)
		return "";
	if (p->flags & FXT_CTL_PROVIDER_NO_STOPPED)
		return " (did not acknowledge stop)";
	if (!(p->flags & FXT_CTL_PROVIDER_ALIVE))
		return " (exited)";
	return "";
}
