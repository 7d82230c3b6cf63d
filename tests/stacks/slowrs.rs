// SPDX-License-Identifier: GPL-2.0-only
//! slowrs SECONDS: a Rust release binary burning in slowrs::checksum()
//! (its symbol mangled, legacy with a hash or v0 by how it is built),
//! for stacks_demangle.sh. No crates: rustc builds it offline.
use std::time::{Duration, Instant};

#[inline(never)]
fn checksum(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf29ce484222325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let data: Vec<u8> = (0..65536u32).map(|i| (i * 7) as u8).collect();
    let until = Instant::now() + Duration::from_secs_f64(seconds);
    let mut sum = 0u64;
    while Instant::now() < until {
        sum = sum.wrapping_add(checksum(std::hint::black_box(&data)));
    }
    println!("{}", sum);
}
