//! A ZIP of stored (uncompressed) entries, the evidence bundle's container, written as the
//! device's writer does (`web/src/core/evidence-bundle/zip.ts`): each entry's local header and
//! bytes, then the central directory and its end record (PKWARE APPNOTE 6.3); UTF-8 names (flag
//! bit 11); the UTC wall clock as the MS-DOS time. Entries are appended one at a time, so a
//! photo's bytes are in memory once, inside the archive. No ZIP64: the bundle's photos are
//! bounded far below 4 GiB (`MAX_PHOTO_BYTES`).

use time::OffsetDateTime;

/// Version 2.0: stored entries and folders in names.
const VERSION_NEEDED: u16 = 20;
/// Made on Unix (the high byte), version 2.0.
const VERSION_MADE_BY: u16 = (3 << 8) | 20;
const UTF8_NAMES: u16 = 1 << 11;
/// A regular file, rw-r--r--, in the external attributes' high half.
const REGULAR_FILE: u32 = 0o100_644 << 16;

pub struct ZipWriter {
    out: Vec<u8>,
    central: Vec<u8>,
    entries: u16,
    time: u16,
    date: u16,
}

/// The MS-DOS time and date of `at`'s UTC wall clock (two-second steps, years 1980 to 2107).
pub fn dos_time(at: OffsetDateTime) -> (u16, u16) {
    let at = at.to_offset(time::UtcOffset::UTC);
    let year = u16::try_from(at.year().clamp(1980, 2107) - 1980).unwrap_or(0);
    let time =
        (u16::from(at.hour()) << 11) | (u16::from(at.minute()) << 5) | u16::from(at.second() / 2);
    let date = (year << 9) | (u16::from(u8::from(at.month())) << 5) | u16::from(at.day());
    (time, date)
}

/// Why an archive could not be written.
#[derive(Debug, thiserror::Error)]
#[error("the archive would pass 4 GiB or 65,535 entries, which a ZIP without ZIP64 cannot hold")]
pub struct TooLarge;

impl ZipWriter {
    pub fn new(modified: OffsetDateTime) -> ZipWriter {
        let (time, date) = dos_time(modified);
        ZipWriter {
            out: Vec::new(),
            central: Vec::new(),
            entries: 0,
            time,
            date,
        }
    }

    /// Appends one stored entry.
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> Result<(), TooLarge> {
        let size = u32::try_from(bytes.len()).map_err(|_| TooLarge)?;
        let offset = u32::try_from(self.out.len()).map_err(|_| TooLarge)?;
        let name_len = u16::try_from(name.len()).map_err(|_| TooLarge)?;
        self.entries = self.entries.checked_add(1).ok_or(TooLarge)?;
        let crc = crc32fast::hash(bytes);
        let out = &mut self.out;
        out.extend_from_slice(&0x0403_4b50_u32.to_le_bytes());
        for field in [VERSION_NEEDED, UTF8_NAMES, 0, self.time, self.date] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        for field in [crc, size, size] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(&name_len.to_le_bytes());
        out.extend_from_slice(&0_u16.to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(bytes);

        let central = &mut self.central;
        central.extend_from_slice(&0x0201_4b50_u32.to_le_bytes());
        for field in [
            VERSION_MADE_BY,
            VERSION_NEEDED,
            UTF8_NAMES,
            0,
            self.time,
            self.date,
        ] {
            central.extend_from_slice(&field.to_le_bytes());
        }
        for field in [crc, size, size] {
            central.extend_from_slice(&field.to_le_bytes());
        }
        // Name length, extra field, comment, disk, internal attributes.
        for field in [name_len, 0, 0, 0, 0] {
            central.extend_from_slice(&field.to_le_bytes());
        }
        central.extend_from_slice(&REGULAR_FILE.to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
        Ok(())
    }

    /// The archive: the entries, the central directory and its end record.
    pub fn finish(mut self) -> Result<Vec<u8>, TooLarge> {
        let start = u32::try_from(self.out.len()).map_err(|_| TooLarge)?;
        let size = u32::try_from(self.central.len()).map_err(|_| TooLarge)?;
        if u32::try_from(self.out.len() + self.central.len() + 22).is_err() {
            return Err(TooLarge);
        }
        self.out.append(&mut self.central);
        self.out.extend_from_slice(&0x0605_4b50_u32.to_le_bytes());
        for field in [0, 0, self.entries, self.entries] {
            self.out.extend_from_slice(&field.to_le_bytes());
        }
        self.out.extend_from_slice(&size.to_le_bytes());
        self.out.extend_from_slice(&start.to_le_bytes());
        self.out.extend_from_slice(&0_u16.to_le_bytes());
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dos_time_is_the_utc_wall_clock() {
        let at = time::macros::datetime!(2026-11-02 14:03:11 UTC);
        let (t, d) = dos_time(at);
        assert_eq!((t >> 11, (t >> 5) & 63, (t & 31) * 2), (14, 3, 10));
        assert_eq!(((d >> 9) + 1980, (d >> 5) & 15, d & 31), (2026, 11, 2));
    }

    #[test]
    fn the_same_bytes_as_the_device_writer() {
        // The device's zipStored([{name:'a.txt', bytes:'hello'}], 2026-01-01T00:00:00Z), by hand:
        // local header, data, central header, end record.
        let mut zip = ZipWriter::new(time::macros::datetime!(2026-01-01 00:00:00 UTC));
        zip.add("a.txt", b"hello").unwrap();
        let bytes = zip.finish().unwrap();
        assert_eq!(bytes.len(), 30 + 5 + 5 + 46 + 5 + 22);
        assert_eq!(&bytes[..4], b"PK\x03\x04");
        assert_eq!(
            &bytes[14..18],
            &0x3610_a686_u32.to_le_bytes(),
            "CRC-32 of hello"
        );
        let end = &bytes[bytes.len() - 22..];
        assert_eq!(&end[..4], b"PK\x05\x06");
        assert_eq!(
            &end[12..16],
            &51_u32.to_le_bytes(),
            "central directory size"
        );
        assert_eq!(
            &end[16..20],
            &40_u32.to_le_bytes(),
            "central directory offset"
        );
    }
}
