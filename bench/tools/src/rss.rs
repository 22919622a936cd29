//! Memory of the current process, from `/proc/self/status` (Linux). `None` elsewhere, so
//! callers print "n/a" instead of a made-up number.

fn status_kib(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line[key.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// Resident set size now, in KiB.
pub fn current_kib() -> Option<u64> {
    status_kib("VmRSS:")
}

/// Peak resident set size so far, in KiB.
pub fn peak_kib() -> Option<u64> {
    status_kib("VmHWM:")
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(target_os = "linux")]
    fn peak_is_at_least_current() {
        let now = super::current_kib().expect("linux has /proc/self/status");
        let peak = super::peak_kib().expect("linux has /proc/self/status");
        assert!(now > 0 && peak >= now);
    }
}
