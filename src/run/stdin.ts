import type { Readable } from 'node:stream';
import { decodeUtf8, FROM_STDIN, type TextOrigin } from '../core/utf8.js';

/** Everything on a stream, as bytes. */
export async function readAllBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(chunks);
}

/**
 * Everything on standard input as text, through the one strict decoder: bytes that are not UTF-8
 * are refused (exit 2) naming standard input, the flag that asked for it and the offset.
 */
export async function readAll(stream: Readable, flag?: string): Promise<string> {
  const origin: TextOrigin = { name: 'standard input', flag, fix: FROM_STDIN };
  return decodeUtf8(await readAllBytes(stream), origin);
}
