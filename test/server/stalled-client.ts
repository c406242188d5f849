import { randomBytes } from 'node:crypto';
import net from 'node:net';

/** A WebSocket client on a bare TCP socket that stopped reading: whatever the server sends piles up. */
export interface StalledClient {
  /** Sends a text frame (masked, as a client must). */
  send(text: string): void;
  /** Whether the server has closed or cut the TCP connection (seen through the write side). */
  readonly socket: net.Socket;
  destroy(): void;
}

/**
 * Opens `/ws` by hand with these headers (the token among them), reads the handshake's answer,
 * then never reads again: the server's messages fill the socket buffers and its close frame is
 * never answered.
 */
export function openStalledClient(port: number, headers: Record<string, string>): Promise<StalledClient> {
  const socket = net.connect({ host: '127.0.0.1', port });
  const request = [
    'GET /ws HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    let answer = '';
    const onData = (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      const end = answer.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      socket.pause();
      if (!answer.startsWith('HTTP/1.1 101')) {
        socket.destroy();
        reject(new Error(`upgrade refused: ${answer.split('\r\n')[0]}`));
        return;
      }
      resolve({
        send: (text) => socket.write(maskedTextFrame(text)),
        socket,
        destroy: () => socket.destroy(),
      });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(request);
  });
}

function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const mask = randomBytes(4);
  const length =
    payload.length < 126
      ? Buffer.from([0x80 | payload.length])
      : Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  if (payload.length > 0xffff) throw new Error('frame too long for this client');
  const masked = Buffer.from(payload.map((byte, index) => byte ^ mask[index % 4]!));
  return Buffer.concat([Buffer.from([0x81]), length, mask, masked]);
}
