/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The libFuzzer entry points. A target is linked either with libFuzzer
 * (clang, -Dfuzzing=true) or with replay_main.c, which feeds it every
 * file of the directories it is given (the regression test).
 */
#ifndef FXT_FUZZ_TARGET_H
#define FXT_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

#endif /* FXT_FUZZ_TARGET_H */
