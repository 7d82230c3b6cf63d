// SPDX-License-Identifier: GPL-2.0-only
/* RowBinary rows in a buffer: see rowbinary.h. */
#include <stdlib.h>

#include "rowbinary.h"

uint8_t *rowbinary_grow(struct rowbinary *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 4096;
	uint8_t *p;

	if (b->oom || n > SIZE_MAX / 4 - b->len)
		goto oom;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p)
		goto oom;
	b->data = p;
	b->cap = cap;
	return b->data + b->len;
oom:
	b->oom = true;
	return NULL;
}

void rowbinary_free(struct rowbinary *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->oom = false;
}
