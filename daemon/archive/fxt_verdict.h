/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the reader (fxt_reader.h) would do with one record of a provider
 * buffer, judged from its sizes alone: all fxtraced needs of the reader
 * to pass a provider's records on without decoding them.
 */
#ifndef FXT_VERDICT_H
#define FXT_VERDICT_H

#include <stdint.h>

/* What fxt_reader_next() does with one record of a provider buffer. */
enum fxt_record_verdict {
	FXT_RECORD_KEEP,	/* decoded and handed out */
	FXT_RECORD_SKIP,	/* malformed, unknown or metadata: skipped */
	FXT_RECORD_STOP,	/* reading ends before it (a byte-swapped archive) */
};

/*
 * The verdict of a reader in provider-buffer mode on the record at
 * record, of words = fxt_record_words(header) >= 1 words, all present:
 * the same decisions, from the sizes alone, without decoding. Nothing a
 * verdict depends on is kept from record to record (string and thread
 * references and bad UTF-8 only make a record nonconforming, still
 * kept), so each record is judged alone. record need not be aligned.
 */
enum fxt_record_verdict fxt_provider_record_verdict(const void *record,
						    uint64_t words);

#endif /* FXT_VERDICT_H */
