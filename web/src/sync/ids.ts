import { sha1 } from './sha1';

/** 16 bytes as a UUID's text, with the version nibble and the RFC 4122 variant set. */
function uuidText(bytes: Uint8Array, version: number): string {
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | (version << 4);
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// UUIDv7: time-ordered ids made on the device, so offline creates need no round trip.
export function newId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  const ms = Date.now();
  // 48-bit big-endian millisecond timestamp.
  for (let i = 0; i < 6; i += 1) bytes[i] = Math.floor(ms / 2 ** (8 * (5 - i))) & 0xff;
  return uuidText(bytes, 7);
}

/**
 * A name-based UUID (version 5: SHA-1 of the namespace's bytes, then the name's): the same
 * namespace and name give the same id on every device, with no round trip. An import uses it
 * so two offline devices reading the same file write the same record ids, which the server
 * then holds as one record each (a put of an id it has is an update).
 */
export async function nameId(namespace: string, name: string): Promise<string> {
  const hexNamespace = namespace.replaceAll('-', '');
  if (!/^[0-9a-f]{32}$/i.test(hexNamespace)) throw new Error(`The namespace ${namespace} is not a UUID`);
  const nameBytes = new TextEncoder().encode(name);
  const input = new Uint8Array(16 + nameBytes.length);
  for (let i = 0; i < 16; i += 1) input[i] = parseInt(hexNamespace.slice(i * 2, i * 2 + 2), 16);
  input.set(nameBytes, 16);
  const digest = sha1(input);
  return uuidText(digest.slice(0, 16), 5);
}
