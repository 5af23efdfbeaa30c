//! A real SMTP server on a loopback port that keeps what it receives, so lettre talks to it
//! exactly as to a mail relay. It speaks ESMTP without TLS (the server's plain mode for
//! localhost), takes AUTH PLAIN and can be told to refuse DATA with a 554.

use std::{
    net::SocketAddr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU32, Ordering},
    },
    time::Duration,
};

use base64::Engine;
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::{TcpListener, TcpStream},
};

/// One message as the relay received it.
#[derive(Debug, Clone, Default)]
pub struct ReceivedMail {
    pub mail_from: String,
    pub rcpt_to: Vec<String>,
    /// `user:password` from AUTH PLAIN, if the client authenticated.
    pub auth: Option<String>,
    /// The message as sent after DATA, dot-stuffing undone, CRLF line ends.
    pub data: String,
}

impl ReceivedMail {
    /// The header block, unfolded: one (name, value) per header, in order.
    pub fn headers(&self) -> Vec<(String, String)> {
        let head = self.data.split("\r\n\r\n").next().unwrap_or_default();
        let mut headers: Vec<(String, String)> = Vec::new();
        for line in head.split("\r\n") {
            if line.starts_with([' ', '\t']) {
                if let Some(last) = headers.last_mut() {
                    last.1.push_str(line);
                }
            } else if let Some((name, value)) = line.split_once(':') {
                headers.push((name.to_owned(), value.trim().to_owned()));
            } else {
                headers.push((line.to_owned(), String::new()));
            }
        }
        headers
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers()
            .into_iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }

    /// The body, transfer encoding undone, with LF line ends.
    pub fn body(&self) -> String {
        let raw = self
            .data
            .split_once("\r\n\r\n")
            .map(|(_, body)| body)
            .unwrap_or_default();
        let encoding = self
            .header("Content-Transfer-Encoding")
            .unwrap_or_default()
            .to_ascii_lowercase();
        let bytes = match encoding.as_str() {
            "quoted-printable" => decode_quoted_printable(raw),
            "base64" => base64::engine::general_purpose::STANDARD
                .decode(raw.replace("\r\n", ""))
                .expect("base64 body"),
            _ => raw.as_bytes().to_vec(),
        };
        String::from_utf8(bytes)
            .expect("UTF-8 body")
            .replace("\r\n", "\n")
    }
}

#[derive(Default)]
struct State {
    mails: Mutex<Vec<ReceivedMail>>,
    /// DATA commands seen, accepted or refused.
    data_commands: AtomicU32,
    refuse_next: AtomicU32,
    refuse_all: AtomicBool,
}

pub struct SmtpSink {
    pub addr: SocketAddr,
    state: Arc<State>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl SmtpSink {
    pub async fn start() -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let state = Arc::new(State::default());
        let shared = state.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(session(stream, shared.clone()));
            }
        });
        SmtpSink { addr, state, task }
    }

    /// `smtp://[credentials@]127.0.0.1:PORT`, for SMTP_URL.
    pub fn url(&self, credentials: Option<&str>) -> String {
        match credentials {
            Some(credentials) => format!("smtp://{credentials}@{}", self.addr),
            None => format!("smtp://{}", self.addr),
        }
    }

    /// The next `n` DATA commands are answered 554.
    pub fn refuse_next(&self, n: u32) {
        self.state.refuse_next.store(n, Ordering::SeqCst);
    }

    pub fn refuse_all(&self, refuse: bool) {
        self.state.refuse_all.store(refuse, Ordering::SeqCst);
    }

    pub fn data_commands(&self) -> u32 {
        self.state.data_commands.load(Ordering::SeqCst)
    }

    pub fn mails(&self) -> Vec<ReceivedMail> {
        self.state.mails.lock().unwrap().clone()
    }

    /// Polls until `count` messages arrived; panics after `deadline`.
    pub async fn wait_for(&self, count: usize, deadline: Duration) -> Vec<ReceivedMail> {
        let until = tokio::time::Instant::now() + deadline;
        loop {
            let mails = self.mails();
            if mails.len() >= count {
                return mails;
            }
            assert!(
                tokio::time::Instant::now() < until,
                "{count} mail(s) expected within {deadline:?}, got {}",
                mails.len()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

async fn session(stream: TcpStream, state: Arc<State>) {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read);
    let mut mail = ReceivedMail::default();
    let mut auth = None;
    macro_rules! reply {
        ($text:expr) => {
            if write.write_all($text.as_bytes()).await.is_err() {
                return;
            }
        };
    }
    reply!("220 sink.test ESMTP test sink\r\n");
    let mut line = String::new();
    loop {
        line.clear();
        match lines.read_line(&mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let command = line.trim_end_matches(['\r', '\n']);
        let verb = command
            .split(' ')
            .next()
            .unwrap_or_default()
            .to_ascii_uppercase();
        match verb.as_str() {
            "EHLO" => reply!("250-sink.test\r\n250-8BITMIME\r\n250 AUTH PLAIN\r\n"),
            "HELO" => reply!("250 sink.test\r\n"),
            "AUTH" => {
                let encoded = command.split(' ').nth(2).unwrap_or_default();
                let decoded = base64::engine::general_purpose::STANDARD
                    .decode(encoded)
                    .unwrap_or_default();
                let parts: Vec<_> = decoded
                    .split(|b| *b == 0)
                    .map(|p| String::from_utf8_lossy(p).into_owned())
                    .collect();
                auth = parts.get(1..3).map(|p| p.join(":"));
                reply!("235 2.7.0 authenticated\r\n");
            }
            "MAIL" => {
                mail = ReceivedMail {
                    mail_from: between_angles(command),
                    auth: auth.clone(),
                    ..ReceivedMail::default()
                };
                reply!("250 2.1.0 ok\r\n");
            }
            "RCPT" => {
                mail.rcpt_to.push(between_angles(command));
                reply!("250 2.1.5 ok\r\n");
            }
            "DATA" => {
                state.data_commands.fetch_add(1, Ordering::SeqCst);
                let refuse_one = state
                    .refuse_next
                    .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                    .is_ok();
                if refuse_one || state.refuse_all.load(Ordering::SeqCst) {
                    reply!("554 5.7.1 refused by the test sink\r\n");
                    continue;
                }
                reply!("354 end with <CRLF>.<CRLF>\r\n");
                let mut data = String::new();
                loop {
                    line.clear();
                    match lines.read_line(&mut line).await {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {}
                    }
                    if line == ".\r\n" {
                        break;
                    }
                    data.push_str(line.strip_prefix('.').unwrap_or(&line));
                }
                mail.data = data;
                state.mails.lock().unwrap().push(std::mem::take(&mut mail));
                reply!("250 2.0.0 queued\r\n");
            }
            "RSET" => {
                mail = ReceivedMail::default();
                reply!("250 2.0.0 ok\r\n");
            }
            "NOOP" => reply!("250 2.0.0 ok\r\n"),
            "QUIT" => {
                reply!("221 2.0.0 bye\r\n");
                return;
            }
            _ => reply!("502 5.5.2 not implemented\r\n"),
        }
    }
}

/// A header value with its RFC 2047 `=?utf-8?b?…?=` words decoded (adjacent words joined, as
/// the RFC says), whitespace runs collapsed to one space.
pub fn decode_words(value: &str) -> String {
    let mut out = String::new();
    let mut last_was_word = false;
    for token in value.split_whitespace() {
        let word = token
            .strip_prefix("=?utf-8?b?")
            .and_then(|t| t.strip_suffix("?="))
            .and_then(|b64| base64::engine::general_purpose::STANDARD.decode(b64).ok())
            .map(|bytes| String::from_utf8(bytes).expect("UTF-8 word"));
        let joined_to_previous_word = last_was_word && word.is_some();
        if !out.is_empty() && !joined_to_previous_word {
            out.push(' ');
        }
        last_was_word = word.is_some();
        out.push_str(&word.unwrap_or_else(|| token.to_owned()));
    }
    out
}

fn decode_quoted_printable(text: &str) -> Vec<u8> {
    let text = text.replace("=\r\n", "");
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
        match (bytes[i], hex) {
            (b'=', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

fn between_angles(command: &str) -> String {
    command
        .split_once('<')
        .and_then(|(_, rest)| rest.split_once('>'))
        .map(|(address, _)| address.to_owned())
        .unwrap_or_default()
}
