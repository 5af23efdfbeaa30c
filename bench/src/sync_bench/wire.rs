//! The push loop's HTTP client: one keep-alive HTTP/1.1 connection, written and read by hand.
//!
//! Why not reqwest here: the client runs on the same cores as the server it measures. On the
//! 2-core bench machine, reqwest's client (a URL parsed per request, header maps, the pool, a
//! JSON tree per answer, glibc's malloc under all of it) took about 0.56× the CPU our server
//! took per push, and every microsecond of it is one the server did not get. A phone talking
//! to a real server spends nothing on the server's machine, so the lighter the bench's client,
//! the nearer the figure is to what the server can do. Every side (ours, the old build,
//! PocketBase) goes through this same client, so their ratios stay like for like.
//!
//! It speaks just enough HTTP/1.1 for that: a POST with a JSON body, an answer with a
//! Content-Length or chunked body. Setup and one-off requests keep using reqwest.

use std::net::SocketAddr;

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

/// One keep-alive connection to `addr`.
pub struct Connection {
    addr: SocketAddr,
    host: String,
    stream: Option<TcpStream>,
    /// Bytes read past the end of the last answer (none while a server answers one request
    /// at a time, kept for correctness).
    read: Vec<u8>,
    request: Vec<u8>,
}

/// An answer: its status and its (de-chunked) body.
pub struct Answer {
    pub status: u16,
    pub body: Vec<u8>,
}

/// The address of a loopback server's `base` URL (`http://127.0.0.1:PORT`, as both servers
/// are started).
pub fn addr(base: &str) -> SocketAddr {
    base.strip_prefix("http://")
        .and_then(|authority| authority.parse().ok())
        .unwrap_or_else(|| panic!("not a loopback base URL: {base}"))
}

impl Connection {
    /// A connection to the server at `base` (see `addr`).
    pub fn to(base: &str) -> Connection {
        Connection::new(addr(base))
    }

    pub fn new(addr: SocketAddr) -> Connection {
        Connection {
            addr,
            host: addr.to_string(),
            stream: None,
            read: Vec::with_capacity(16 * 1024),
            request: Vec::with_capacity(8 * 1024),
        }
    }

    /// POSTs `body` as JSON to `path`, with `header` (name, value) when given. A connection
    /// the server closed between requests is opened again once and the request resent; both
    /// servers are measured with keep-alive, so this only covers an idle timeout.
    pub async fn post_json(
        &mut self,
        path: &str,
        header: Option<(&str, &str)>,
        body: &[u8],
    ) -> Answer {
        self.request.clear();
        self.request.extend_from_slice(b"POST ");
        self.request.extend_from_slice(path.as_bytes());
        self.request.extend_from_slice(b" HTTP/1.1\r\nhost: ");
        self.request.extend_from_slice(self.host.as_bytes());
        self.request
            .extend_from_slice(b"\r\ncontent-type: application/json\r\n");
        if let Some((name, value)) = header {
            self.request.extend_from_slice(name.as_bytes());
            self.request.extend_from_slice(b": ");
            self.request.extend_from_slice(value.as_bytes());
            self.request.extend_from_slice(b"\r\n");
        }
        self.request.extend_from_slice(b"content-length: ");
        self.request
            .extend_from_slice(body.len().to_string().as_bytes());
        self.request.extend_from_slice(b"\r\n\r\n");
        self.request.extend_from_slice(body);
        for attempt in 0..2 {
            match self.exchange().await {
                Ok(answer) => return answer,
                Err(error) if attempt == 0 && error.kind() == std::io::ErrorKind::UnexpectedEof => {
                    self.stream = None;
                }
                Err(error) => panic!("POST {path} to {}: {error}", self.addr),
            }
        }
        unreachable!("the second attempt returns or panics")
    }

    async fn exchange(&mut self) -> std::io::Result<Answer> {
        if self.stream.is_none() {
            let stream = TcpStream::connect(self.addr).await?;
            stream.set_nodelay(true)?;
            self.stream = Some(stream);
            self.read.clear();
        }
        let stream = self.stream.as_mut().expect("connected above");
        stream.write_all(&self.request).await?;
        let head_end = loop {
            if let Some(end) = find(&self.read, b"\r\n\r\n") {
                break end + 4;
            }
            fill(stream, &mut self.read).await?;
        };
        let head = std::str::from_utf8(&self.read[..head_end]).map_err(invalid)?;
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .ok_or_else(|| invalid("no status line"))?;
        let header = |name: &str| {
            head.split("\r\n").skip(1).find_map(|line| {
                let (key, value) = line.split_once(':')?;
                key.eq_ignore_ascii_case(name)
                    .then(|| value.trim().to_owned())
            })
        };
        let length = header("content-length");
        let chunked =
            header("transfer-encoding").is_some_and(|te| te.eq_ignore_ascii_case("chunked"));
        self.read.drain(..head_end);
        let body = match (length, chunked) {
            (_, true) => read_chunked(stream, &mut self.read).await?,
            (Some(length), false) => {
                let length: usize = length.parse().map_err(invalid)?;
                read_exactly(stream, &mut self.read, length).await?
            }
            (None, false) => return Err(invalid("an answer without a length")),
        };
        Ok(Answer { status, body })
    }
}

/// Reads more of the stream onto `read`; the end of the stream is an UnexpectedEof.
async fn fill(stream: &mut TcpStream, read: &mut Vec<u8>) -> std::io::Result<()> {
    let start = read.len();
    read.resize(start + 16 * 1024, 0);
    let n = stream.read(&mut read[start..]).await;
    read.truncate(start + *n.as_ref().unwrap_or(&0));
    match n? {
        0 => Err(std::io::ErrorKind::UnexpectedEof.into()),
        _ => Ok(()),
    }
}

/// The next `length` bytes, taken off the front of `read`.
async fn read_exactly(
    stream: &mut TcpStream,
    read: &mut Vec<u8>,
    length: usize,
) -> std::io::Result<Vec<u8>> {
    while read.len() < length {
        fill(stream, read).await?;
    }
    Ok(read.drain(..length).collect())
}

async fn read_chunked(stream: &mut TcpStream, read: &mut Vec<u8>) -> std::io::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line_end = loop {
            if let Some(end) = find(read, b"\r\n") {
                break end;
            }
            fill(stream, read).await?;
        };
        let size_text = std::str::from_utf8(&read[..line_end]).map_err(invalid)?;
        let size_text = size_text.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_text, 16).map_err(invalid)?;
        read.drain(..line_end + 2);
        // The chunk and its CRLF (the last chunk, of size 0, is followed by a bare CRLF here:
        // neither server sends trailers).
        let chunk = read_exactly(stream, read, size + 2).await?;
        body.extend_from_slice(&chunk[..size]);
        if size == 0 {
            return Ok(body);
        }
    }
}

/// Where `needle` (a CRLF or two) starts in `haystack`. It looks for the first byte and only
/// then compares, so a head of 200 bytes is not 200 calls to memcmp (which showed in profiles).
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    haystack
        .iter()
        .enumerate()
        .filter(|&(_, &byte)| byte == first)
        .map(|(at, _)| at)
        .find(|&at| haystack[at + 1..].starts_with(rest))
}

fn invalid(error: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::net::TcpListener;

    /// A one-connection server that answers each request with the next of `answers`, and
    /// hands back what it was sent.
    async fn serve(answers: Vec<&'static str>) -> (SocketAddr, tokio::task::JoinHandle<Vec<u8>>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let task = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut received = Vec::new();
            for answer in answers {
                let mut buffer = [0u8; 4096];
                // Each test request is small: one read holds it whole.
                let n = socket.read(&mut buffer).await.unwrap();
                received.extend_from_slice(&buffer[..n]);
                socket.write_all(answer.as_bytes()).await.unwrap();
            }
            received
        });
        (addr, task)
    }

    #[test]
    fn finds_a_needle_only_where_it_is_whole() {
        assert_eq!(find(b"ab\r\ncd\r\n\r\nef", b"\r\n\r\n"), Some(6));
        assert_eq!(find(b"ab\r\ncd\r\n\r", b"\r\n\r\n"), None);
        assert_eq!(find(b"\r\n", b"\r\n"), Some(0));
        assert_eq!(find(b"", b"\r\n"), None);
    }

    #[tokio::test]
    async fn reads_answers_with_a_length_and_chunked_ones_on_one_connection() {
        let (addr, server) = serve(vec![
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
            "HTTP/1.1 201 Created\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n",
        ])
        .await;
        let mut connection = Connection::new(addr);
        let first = connection
            .post_json("/one", Some(("cookie", "s=1")), b"{}")
            .await;
        assert_eq!((first.status, first.body.as_slice()), (200, &b"hello"[..]));
        let second = connection.post_json("/two", None, b"[1]").await;
        assert_eq!(
            (second.status, second.body.as_slice()),
            (201, &b"abcde"[..])
        );
        let sent = String::from_utf8(server.await.unwrap()).unwrap();
        assert!(sent.starts_with("POST /one HTTP/1.1\r\n"), "{sent}");
        assert!(
            sent.contains("\r\ncookie: s=1\r\ncontent-length: 2\r\n\r\n{}POST /two"),
            "{sent}"
        );
        assert!(sent.ends_with("content-length: 3\r\n\r\n[1]"), "{sent}");
    }
}
