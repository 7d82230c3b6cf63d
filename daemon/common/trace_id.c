// SPDX-License-Identifier: GPL-2.0-only
/* A fresh trace id: see trace_id.h. */
#include <systemd/sd-id128.h>

#include "trace_id.h"

_Static_assert(SD_ID128_STRING_MAX == FXT_HOST_TRACE_ID_LEN + 1,
	       "a trace id is an sd_id128 as a string");

int trace_id_new(char id[FXT_HOST_TRACE_ID_LEN + 1])
{
	sd_id128_t uuid;
	int r = sd_id128_randomize(&uuid);

	if (r < 0)
		return r;
	sd_id128_to_string(uuid, id);
	return 0;
}
