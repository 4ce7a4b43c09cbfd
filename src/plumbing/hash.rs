//! One fingerprint for caches: FNV-1a, 64 bits. A `rev:` build of a working tree is keyed by
//! the hash of its changes, bisect's worktrees by the hash of the build command, and the tuner's
//! dataset cache by the hash of its sources (streamed with [`fnv_extend`]). Not cryptographic:
//! it tells files apart, it does not defend against anyone.

/// FNV-1a: a stable short fingerprint of the working tree's changes (and of `bisect`'s build
/// commands, which key their own caches).
pub fn fnv(bytes: &[u8]) -> u64 {
    fnv_extend(FNV_START, bytes)
}

/// The FNV-1a hash of no bytes, where a streamed hash starts.
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// Continues the FNV-1a hash `h` over `bytes` (so a file can be hashed a piece at a time; the
/// tuner's dataset cache fingerprints its sources and checksums itself this way).
pub fn fnv_extend(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_1a_matches_its_published_vectors_and_streams() {
        // The FNV-1a 64-bit test vectors of the algorithm's authors (isthe.com/chongo/tech/comp/fnv).
        assert_eq!(fnv(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(fnv_extend(fnv(b"foo"), b"bar"), fnv(b"foobar"));
    }
}
