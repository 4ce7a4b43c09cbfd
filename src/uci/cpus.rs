//! Which cores a thread may run on (Linux's sched_getaffinity and sched_setaffinity): the
//! operating-system layer under `--affinity`, used by the runner for its own threads and between
//! fork and exec for an engine.

/// The cores the calling thread may run on, in increasing order.
#[cfg(target_os = "linux")]
pub fn available() -> std::io::Result<Vec<usize>> {
    // SAFETY: cpu_set_t is plain data; sched_getaffinity writes at most its size.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok((0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect())
    }
}

/// Pins the calling thread to `cpus`. Only async-signal-safe work (bit operations and one
/// system call), so that it may also run between fork and exec.
#[cfg(target_os = "linux")]
pub fn set_this_thread(cpus: &[usize]) -> std::io::Result<()> {
    // SAFETY: cpu_set_t is plain data; CPU_SET only sets bits within it (indices are checked).
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &c in cpus {
            if c < libc::CPU_SETSIZE as usize {
                libc::CPU_SET(c, &mut set);
            }
        }
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Not supported off Linux.
#[cfg(not(target_os = "linux"))]
pub fn available() -> std::io::Result<Vec<usize>> {
    Err(std::io::Error::other(
        "CPU pinning is only supported on Linux",
    ))
}

/// Not supported off Linux.
#[cfg(not(target_os = "linux"))]
pub fn set_this_thread(_cpus: &[usize]) -> std::io::Result<()> {
    Err(std::io::Error::other(
        "CPU pinning is only supported on Linux",
    ))
}
