// SPDX-License-Identifier: GPL-2.0-only
/*
 * The open-addressing index (daemon/common/hash_index.h): many keys put
 * and found again across many doublings, every key on one probe when
 * their hash is one, a size past the cap refused, and FNV-1a as
 * published.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "hash_index.h"

#define NKEYS 100000u

struct keys {
	uint64_t *key;
	uint32_t n;
	bool same_hash;	/* every key hashed alike: one long probe */
};

static uint64_t key_hash(const struct keys *k, uint64_t key)
{
	return k->same_hash ? 7 : hash_u64(key);
}

static uint64_t hash_of(const void *ctx, uint32_t i)
{
	const struct keys *k = ctx;

	return key_hash(k, k->key[i]);
}

/* The index of key, or -1; *slot where it would go. */
static int64_t find(const struct hash_index *x, const struct keys *k,
		    uint64_t key, uint32_t *slot)
{
	uint32_t i, e;

	for (i = hash_index_first(x, key_hash(k, key)); (e = x->slots[i]);
	     i = hash_index_next(x, i))
		if (k->key[e - 1] == key)
			return e - 1;
	*slot = i;
	return -1;
}

static void put_all(struct hash_index *x, struct keys *k, uint32_t n,
		    uint32_t first)
{
	uint32_t i, slot;

	for (i = 0; i < n; i++) {
		uint64_t key = (uint64_t)i * 7919 + 1;

		assert_int_equal(hash_index_reserve(x, k->n + 1, first,
						    hash_of, k), 0);
		assert_true(hash_index_fits(x, k->n + 1));
		assert_int_equal(find(x, k, key, &slot), -1);
		k->key[k->n] = key;
		x->slots[slot] = ++k->n;
	}
}

static void check_all(const struct hash_index *x, const struct keys *k)
{
	uint32_t i, slot;

	for (i = 0; i < k->n; i++)
		assert_int_equal(find(x, k, k->key[i], &slot), i);
	assert_int_equal(find(x, k, 2, &slot), -1);
}

static void test_many(void **state)
{
	struct keys k = { .key = calloc(NKEYS, sizeof(uint64_t)) };
	struct hash_index x = { 0 };

	(void)state;
	assert_non_null(k.key);
	put_all(&x, &k, NKEYS, 4);
	/* from 4 slots, doubled 16 times: at most half full */
	assert_int_equal(hash_index_size(&x), 1u << 18);
	check_all(&x, &k);
	hash_index_free(&x);
	assert_null(x.slots);
	free(k.key);
}

static void test_collisions(void **state)
{
	struct keys k = { .key = calloc(2000, sizeof(uint64_t)),
			  .same_hash = true };
	struct hash_index x = { 0 };

	(void)state;
	assert_non_null(k.key);
	put_all(&x, &k, 2000, 64);
	assert_int_equal(hash_index_size(&x), 4096);
	check_all(&x, &k);
	hash_index_free(&x);
	free(k.key);
}

static void test_sizes(void **state)
{
	struct hash_index x = { 0 };
	struct keys k = { 0 };

	(void)state;
	assert_int_equal(hash_index_size_for(&x, 0, 64), 0);
	assert_int_equal(hash_index_size_for(&x, 1, 64), 64);
	assert_int_equal(hash_index_size_for(&x, 32, 64), 64);
	assert_int_equal(hash_index_size_for(&x, 33, 64), 128);
	assert_int_equal(hash_index_size_for(&x, 1u << 30, 64), 1ll << 31);
	/* past the cap, and counts whose double would wrap */
	assert_int_equal(hash_index_size_for(&x, (1u << 30) + 1, 64), -E2BIG);
	assert_int_equal(hash_index_size_for(&x, UINT32_MAX, 64), -E2BIG);
	assert_int_equal(hash_index_size_for(&x, UINT64_MAX / 2 + 1, 64),
			 -E2BIG);
	assert_int_equal(hash_index_reserve(&x, (1u << 30) + 1, 64, hash_of,
					    &k), -E2BIG);
	assert_null(x.slots);
	/* not a power of two, or a shrink */
	assert_int_equal(hash_index_resize(&x, 48, hash_of, &k), -EINVAL);
	assert_int_equal(hash_index_resize(&x, 64, hash_of, &k), 0);
	assert_int_equal(hash_index_resize(&x, 32, hash_of, &k), -EINVAL);
	assert_int_equal(hash_index_size(&x), 64);
	hash_index_free(&x);
}

static void test_fnv1a(void **state)
{
	(void)state;
	assert_true(hash_bytes(HASH_SEED, "", 0) == 0xcbf29ce484222325ull);
	assert_true(hash_bytes(HASH_SEED, "a", 1) == 0xaf63dc4c8601ec8cull);
	assert_true(hash_bytes(HASH_SEED, "foobar", 6) ==
		    0x85944171f73967e8ull);
	/* in parts as in one go */
	assert_true(hash_bytes(hash_bytes(HASH_SEED, "foo", 3), "bar", 3) ==
		    0x85944171f73967e8ull);
	assert_true(hash_u64(1) == 0x9e3779b9ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_collisions),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_fnv1a),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
