//! How much memory SQLite may use for the database: the writer's page cache and the memory
//! map, sized from the machine unless SQLITE_CACHE_MB / SQLITE_MMAP_MB say otherwise.
//!
//! Why: SQLite's default page cache is 2 MB. On a grown database (a million records) the
//! indexes a push touches are hundreds of MB, so with 2 MB nearly every mutation read its
//! index pages from the OS again (7-8 page reads each, issue 30). A larger cache keeps the
//! upper levels and the hot leaves of the B-trees in the writer's memory; the memory map
//! lets every connection read pages straight from the OS page cache without copying them.
//!
//! The cache only fills as pages are used, so a small database costs no more than before;
//! the mapped pages count as file-backed memory the kernel can drop under pressure.

/// The sizes in force for one store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Memory {
    /// Page cache of the writing connection, in MB (readers keep SQLite's 2 MB).
    pub cache_mb: u32,
    /// Memory-mapped I/O per connection, in MB of the file (0: off).
    pub mmap_mb: u32,
}

/// A 64th of the machine's memory for the cache, between these bounds.
const CACHE_MB: (u64, u64) = (8, 64);
/// An eighth of the machine's memory for the map, at most this.
const MMAP_MAX_MB: u64 = 1_024;
/// Assumed when the machine's memory cannot be read.
const UNKNOWN_MEMORY_MB: u64 = 1_024;

impl Memory {
    /// The configured sizes, each defaulting to the share of `machine_mb` above.
    pub fn sized(cache_mb: Option<u32>, mmap_mb: Option<u32>, machine_mb: u64) -> Memory {
        let share = |divisor: u64, (low, high): (u64, u64)| {
            u32::try_from((machine_mb / divisor).clamp(low, high)).unwrap_or(u32::MAX)
        };
        Memory {
            cache_mb: cache_mb.unwrap_or_else(|| share(64, CACHE_MB)),
            mmap_mb: mmap_mb.unwrap_or_else(|| share(8, (0, MMAP_MAX_MB))),
        }
    }

    /// The defaults on this machine.
    pub fn for_machine() -> Memory {
        Memory::sized(None, None, machine_mb())
    }

    /// The PRAGMAs for the writing connection.
    pub fn writer_pragmas(self) -> String {
        // A negative cache_size is in KiB rather than pages.
        format!(
            "PRAGMA cache_size = -{}; {}",
            u64::from(self.cache_mb) * 1024,
            self.reader_pragmas()
        )
    }

    /// The PRAGMAs for a reading connection.
    pub fn reader_pragmas(self) -> String {
        format!("PRAGMA mmap_size = {};", u64::from(self.mmap_mb) << 20)
    }
}

/// The memory this process may use, in MB: the machine's (MemTotal), or the cgroup's limit
/// when a container sets a smaller one.
pub fn machine_mb() -> u64 {
    let total_kib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|line| line.strip_prefix("MemTotal:"))
                .and_then(|rest| rest.split_whitespace().next()?.parse::<u64>().ok())
        });
    // cgroup v2; "max" (no limit) does not parse.
    let limit_bytes = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|limit| limit.trim().parse::<u64>().ok());
    match (
        total_kib.map(|kib| kib / 1024),
        limit_bytes.map(|b| b >> 20),
    ) {
        (Some(total), Some(limit)) => total.min(limit),
        (Some(mb), None) | (None, Some(mb)) => mb,
        (None, None) => UNKNOWN_MEMORY_MB,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_machine_within_bounds() {
        // A 512 MB VPS, a 4 GB one, a 64 GB server.
        assert_eq!(
            Memory::sized(None, None, 512),
            Memory {
                cache_mb: 8,
                mmap_mb: 64
            }
        );
        assert_eq!(
            Memory::sized(None, None, 4_096),
            Memory {
                cache_mb: 64,
                mmap_mb: 512
            }
        );
        assert_eq!(
            Memory::sized(None, None, 65_536),
            Memory {
                cache_mb: 64,
                mmap_mb: 1_024
            }
        );
    }

    #[test]
    fn configured_sizes_win() {
        assert_eq!(
            Memory::sized(Some(2), Some(0), 65_536),
            Memory {
                cache_mb: 2,
                mmap_mb: 0
            }
        );
        assert_eq!(
            Memory {
                cache_mb: 2,
                mmap_mb: 0
            }
            .writer_pragmas(),
            "PRAGMA cache_size = -2048; PRAGMA mmap_size = 0;"
        );
    }

    #[test]
    fn this_machine_has_some_memory() {
        assert!(machine_mb() > 0);
    }
}
