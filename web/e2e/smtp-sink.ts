// A real SMTP server on a loopback port that keeps what it receives, as the Rust tests' own
// (crates/server/tests/integration/common/smtp.rs): the server binary talks to it exactly as to a mail relay,
// in its plain mode for this machine (`smtp://127.0.0.1:PORT`). ESMTP without TLS or AUTH.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message after DATA, dot-stuffing undone, CRLF line ends. */
  data: string;
}

export interface SmtpSink {
  /** For SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** Resolves once `count` messages arrived (the spec's own timeout bounds the wait). */
  waitFor(count: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const waiters: { count: number; resolve: (mails: ReceivedMail[]) => void }[] = [];
  const sockets = new Set<Socket>();
  const received = (mail: ReceivedMail) => {
    mails.push(mail);
    for (const waiter of waiters.filter((w) => mails.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve([...mails]);
    }
  };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    session(socket, received);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor(count) {
      if (mails.length >= count) return Promise.resolve([...mails]);
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function session(socket: Socket, received: (mail: ReceivedMail) => void) {
  let buffer = '';
  let mail: ReceivedMail = { from: '', to: [], data: '' };
  let inData = false;
  const reply = (line: string) => socket.write(`${line}\r\n`);
  const between = (command: string) => /<([^>]*)>/.exec(command)?.[1] ?? '';
  reply('220 sink.test ESMTP e2e sink');
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\r\n')) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (inData) {
        if (line === '.') {
          inData = false;
          received(mail);
          mail = { from: '', to: [], data: '' };
          reply('250 2.0.0 queued');
        } else {
          mail.data += `${line.startsWith('.') ? line.slice(1) : line}\r\n`;
        }
        continue;
      }
      const verb = line.split(' ')[0]?.toUpperCase() ?? '';
      if (verb === 'EHLO') reply('250-sink.test\r\n250 8BITMIME');
      else if (verb === 'HELO') reply('250 sink.test');
      else if (verb === 'MAIL') {
        mail = { from: between(line), to: [], data: '' };
        reply('250 2.1.0 ok');
      } else if (verb === 'RCPT') {
        mail.to.push(between(line));
        reply('250 2.1.5 ok');
      } else if (verb === 'DATA') {
        inData = true;
        reply('354 end with <CRLF>.<CRLF>');
      } else if (verb === 'RSET' || verb === 'NOOP') reply('250 2.0.0 ok');
      else if (verb === 'QUIT') {
        reply('221 2.0.0 bye');
        socket.end();
      } else reply('502 5.5.2 not implemented');
    }
  });
}

/** A message's body, quoted-printable undone (lettre encodes long lines that way), LF ends. */
export function bodyOf(mail: ReceivedMail): string {
  const [head = '', ...rest] = mail.data.split('\r\n\r\n');
  const body = rest.join('\r\n\r\n');
  const text = /content-transfer-encoding:\s*quoted-printable/i.test(head)
    ? body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : /content-transfer-encoding:\s*base64/i.test(head)
      ? Buffer.from(body.replace(/\r\n/g, ''), 'base64').toString('utf8')
      : body;
  return text.replace(/\r\n/g, '\n');
}
