// SPDX-License-Identifier: GPL-2.0-only
// Two hot functions for the JIT naming test (stacks_jit.sh): each round
// spends about 70% of its time in hotA and 30% in hotB, for argv[2]
// seconds (default 2.5).
'use strict';

function hotA(n) {
	let x = 0;
	for (let i = 0; i < n; i++)
		x = (x * 31 + i) | 0;
	return x;
}

function hotB(n) {
	let x = 0;
	for (let i = 0; i < n; i++)
		x = (x * 17 + i) | 0;
	return x;
}

const seconds = Number(process.argv[2] || 2.5);
const end = Date.now() + seconds * 1000;
let sum = 0;
while (Date.now() < end) {
	sum += hotA(70000);
	sum += hotB(30000);
}
console.log(sum);
