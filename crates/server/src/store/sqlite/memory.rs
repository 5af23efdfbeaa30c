//! How much memory SQLite may use for the database: the writer's page cache and the memory
//! map, SQLite's own defaults (a 2 MB cache, no map) unless SQLITE_CACHE_MB / SQLITE_MMAP_MB
//! say otherwise.
//!
//! Why the defaults: sizing both from the machine (up to a 64 MB cache and a 1 GB map) was
//! measured on a grown database of a million records (issue 30) and gave no more pushes
//! (0.88–1.05× SQLite's defaults, over interleaved rounds) while costing 1–18 % more CPU per
//! mutation; and every connection's cached and mapped pages grew the server's memory past its
//! goal (122 MB with 500 event streams open, against 60 MB). An operator with a large database
//! and memory to spare can still raise them.

/// The sizes in force for one store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Memory {
    /// Page cache of the writing connection, in MB (readers keep SQLite's 2 MB).
    pub cache_mb: u32,
    /// Memory-mapped I/O per connection, in MB of the file (0: off).
    pub mmap_mb: u32,
}

/// SQLite's own page cache size, in MB.
const DEFAULT_CACHE_MB: u32 = 2;
/// No memory map, as SQLite has it.
const DEFAULT_MMAP_MB: u32 = 0;

impl Memory {
    /// The configured sizes, each defaulting to SQLite's own.
    pub fn sized(cache_mb: Option<u32>, mmap_mb: Option<u32>) -> Memory {
        Memory {
            cache_mb: cache_mb.unwrap_or(DEFAULT_CACHE_MB),
            mmap_mb: mmap_mb.unwrap_or(DEFAULT_MMAP_MB),
        }
    }

    /// The defaults.
    pub fn defaults() -> Memory {
        Memory::sized(None, None)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_sqlites_own() {
        assert_eq!(
            Memory::defaults(),
            Memory {
                cache_mb: 2,
                mmap_mb: 0
            }
        );
    }

    #[test]
    fn configured_sizes_win() {
        assert_eq!(
            Memory::sized(Some(64), Some(512)),
            Memory {
                cache_mb: 64,
                mmap_mb: 512
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
}
