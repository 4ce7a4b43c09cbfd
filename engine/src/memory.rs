//! Memory for the large lookup tables: backed by huge pages where the OS allows it.
//!
//! With 4 KB pages nearly every probe of a table of megabytes (the transposition table) also
//! misses the TLB. Linux backs an aligned 2 MB region with one huge page when asked
//! (`madvise(MADV_HUGEPAGE)`, the default `transparent_hugepage` mode) before the memory is
//! first written. (The 860 KB slider attack tables gained nothing from it.)

/// The huge-page size of x86-64 Linux (and of most ARM64 Linux kernels).
pub const HUGE_PAGE: usize = 2 << 20;

/// An empty table that is about to hold up to `n` elements: a vector of `start` elements of
/// `fill` (the returned length), whose element `start` sits on a huge-page boundary, with room
/// for `n` more elements, and whose whole huge pages from there have been advised to the kernel.
/// Push or resize from `start` on. Where huge pages are unavailable (another OS, huge pages
/// disabled) or the element size does not divide a page, the table works the same, only slower.
pub fn huge_page_vec<T: Clone>(n: usize, fill: T) -> Vec<T> {
    let size = std::mem::size_of::<T>();
    if size == 0 || !size.is_power_of_two() || size > 4096 {
        return Vec::with_capacity(n);
    }
    let span = (n * size).next_multiple_of(HUGE_PAGE);
    let mut v: Vec<T> = Vec::with_capacity((span + HUGE_PAGE) / size);
    let addr = v.as_ptr() as usize;
    let start = (addr.next_multiple_of(HUGE_PAGE) - addr) / size;
    advise_huge_pages(addr + start * size, span);
    v.resize(start, fill);
    v
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(addr: usize, len: usize) {
    // SAFETY: the range lies inside this process's own allocation, reserved and not yet written
    // (its capacity covers it); madvise only changes how the kernel backs it, and a failure
    // leaves ordinary pages.
    unsafe { libc::madvise(addr as *mut libc::c_void, len, libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_addr: usize, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_starts_on_a_huge_page_boundary_with_room_for_n() {
        for n in [1, 1000, 1 << 16, 3 << 20] {
            let v = huge_page_vec(n, 7u64);
            let start = v.len();
            assert!(v.capacity() >= start + n);
            assert_eq!(v.as_ptr().wrapping_add(start) as usize % HUGE_PAGE, 0);
            assert!(v.iter().all(|&x| x == 7));
        }
        // An odd element size gets an ordinary vector.
        let v = huge_page_vec(10, [0u8; 3]);
        assert!(v.is_empty() && v.capacity() >= 10);
    }
}
