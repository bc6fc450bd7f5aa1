//! The machine a result was measured on, and the process's peak memory.

use serde_json::{json, Value};

pub struct Machine {
    pub host: String,
    pub cpu: String,
    pub logical_cpus: usize,
}

impl Machine {
    pub fn here() -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".to_string());
        Machine {
            host: hostname(),
            cpu,
            logical_cpus: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0),
        }
    }

    pub fn to_json(&self) -> Value {
        json!({"host": self.host, "cpu": self.cpu, "logical_cpus": self.logical_cpus})
    }
}

fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most buf.len() bytes into buf.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return "unknown".to_string();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// Peak resident memory of this process so far, in MiB (getrusage; Linux reports KiB).
pub fn peak_rss_mb() -> f64 {
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct it is given.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    if rc != 0 {
        return f64::NAN;
    }
    u.ru_maxrss as f64 / 1024.0
}

/// CPU seconds (user + system, all threads) this process has used so far: on a shared
/// machine, wall time depends on the other jobs and CPU time much less.
pub fn cpu_seconds() -> f64 {
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct it is given.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    if rc != 0 {
        return f64::NAN;
    }
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_memory_is_positive_and_never_decreases() {
        // (Tests share the process, so a larger peak may already be recorded: only
        // monotonicity can be asserted.)
        let before = peak_rss_mb();
        assert!(before > 0.0);
        let v = vec![1u8; 64 << 20];
        std::hint::black_box(&v);
        assert!(peak_rss_mb() >= before.max(64.0));
    }

    #[test]
    fn cpu_seconds_grow_with_work() {
        let before = cpu_seconds();
        let mut x = 0u64;
        let t = std::time::Instant::now();
        while t.elapsed().as_millis() < 50 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        assert!(cpu_seconds() > before, "{x}");
    }

    #[test]
    fn machine_is_described() {
        let m = Machine::here();
        assert!(!m.host.is_empty());
        assert!(m.logical_cpus >= 1);
    }
}
