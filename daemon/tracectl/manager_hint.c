// SPDX-License-Identifier: GPL-2.0-only
/* Where fxtraced should be started from: see manager_hint.h. */
#include <string.h>
#include <sys/stat.h>

#include <fxt/provider_abi.h>

#include "manager_hint.h"

bool manager_hint_systemd(void)
{
	struct stat st;

	return lstat("/run/systemd/system", &st) == 0 && S_ISDIR(st.st_mode);
}

void manager_hint_unreachable(FILE *out, const char *path)
{
	bool default_path = !strcmp(path, FXT_MANAGER_SOCKET);

	if (manager_hint_systemd() && default_path) {
		fprintf(out, "is fxtraced running? start it with: sudo systemctl start fxtraced.socket\n");
	} else if (default_path) {
		fprintf(out, "is fxtraced running? PID 1 is not systemd here: start it with: sudo fxtraced &\n");
	} else {
		/* FXTRACE_SOCKET already names path: fxtraced must listen there. */
		fprintf(out, "is fxtraced running on %s (%s)? start it with: fxtraced --socket %s &\n",
			path, FXT_SOCKET_ENV, path);
	}
}
