//! Timing helpers shared by the binaries.

use std::time::Instant;

/// Median of `samples` (mean of the middle two for an even count); 0 for none.
pub fn median(samples: &[f64]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut v = samples.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let mid = v.len() / 2;
    if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    }
}

/// Run `f` and return its result with the elapsed wall time in milliseconds.
pub fn time_ms<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed().as_secs_f64() * 1000.0)
}

/// Minimal `--flag value` parsing for the bench binaries (no clap: these tools must not
/// add build time to the suite they measure).
pub struct Args(Vec<String>);

impl Args {
    pub fn from_env() -> Self {
        Args(std::env::args().skip(1).collect())
    }

    pub fn value(&self, flag: &str) -> Option<&str> {
        self.0
            .iter()
            .position(|a| a == flag)
            .and_then(|i| self.0.get(i + 1))
            .map(String::as_str)
    }

    pub fn values(&self, flag: &str) -> Vec<&str> {
        self.0
            .iter()
            .enumerate()
            .filter(|(_, a)| *a == flag)
            .filter_map(|(i, _)| self.0.get(i + 1).map(String::as_str))
            .collect()
    }

    pub fn flag(&self, flag: &str) -> bool {
        self.0.iter().any(|a| a == flag)
    }

    /// Parse a flag's value, or exit with a usage message naming it.
    pub fn parsed<T: std::str::FromStr>(&self, flag: &str, default: T) -> T {
        match self.value(flag) {
            None => default,
            Some(v) => v.parse().unwrap_or_else(|_| {
                eprintln!("invalid value `{v}` for {flag}");
                std::process::exit(2)
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_odd_even_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
    }

    #[test]
    fn args_lookup() {
        let a = Args(vec![
            "--n".into(),
            "10".into(),
            "--root".into(),
            "a".into(),
            "--root".into(),
            "b".into(),
            "--force".into(),
        ]);
        assert_eq!(a.parsed("--n", 0usize), 10);
        assert_eq!(a.values("--root"), vec!["a", "b"]);
        assert!(a.flag("--force"));
        assert_eq!(a.value("--missing"), None);
    }
}
