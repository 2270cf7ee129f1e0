import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isPrivateAddress, RefusedUrlError } from './address-guard.js';
import { sendWebhook } from './sender.js';

describe('webhook address guard', () => {
  it('refuses loopback, private, link-local, metadata and mapped addresses; lets public ones through', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '::1',
      '::',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::10.0.0.1',
      '2002:a00:1::1',
      'not-an-address',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('refuses a host when any of its addresses is private, and follows the answer of each check', async () => {
    const answers = [
      [{ address: '93.184.216.34', family: 4 }],
      [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
    ];
    let call = 0;
    const resolve = async () => answers[Math.min(call++, answers.length - 1)] ?? [];
    const options = { allowHttp: false, allowPrivate: false, resolve };
    // Registration: public. The next check (a delivery) sees the rebinding and refuses.
    expect((await checkWebhookUrl('https://hooks.example.com/x', options)).address).toBe('93.184.216.34');
    await expect(checkWebhookUrl('https://hooks.example.com/x', options)).rejects.toBeInstanceOf(
      RefusedUrlError,
    );
  });

  it('wants https unless http is allowed, and no credentials in the URL', async () => {
    const options = { allowHttp: false, allowPrivate: true };
    await expect(checkWebhookUrl('http://127.0.0.1/x', options)).rejects.toThrow('must be https');
    await expect(checkWebhookUrl('https://u:p@127.0.0.1/x', options)).rejects.toThrow('credentials');
    await expect(checkWebhookUrl('ftp://127.0.0.1/x', { ...options, allowHttp: true })).rejects.toThrow();
  });

  it('connects to the checked address, never resolving the host again', async () => {
    const seen: string[] = [];
    const server = http.createServer((request, response) => {
      seen.push(request.headers.host ?? '');
      response.statusCode = 302; // a redirect is not followed: a failed attempt
      response.setHeader('location', 'http://169.254.169.254/');
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      // `.invalid` never resolves: reaching the server proves the pinned address was used.
      const url = new URL(`http://hooks.example.invalid:${port}/x`);
      const result = await sendWebhook({ url, address: '127.0.0.1', family: 4 }, {}, '{}');
      expect(result).toEqual({ status: 302, error: 'HTTP 302' });
      expect(seen).toEqual([`hooks.example.invalid:${port}`]);
    } finally {
      server.close();
    }
  });

  it('takes the status of a receiver whose answer is far longer than it reads, and stops reading it', async () => {
    // 16 MiB in chunks, each written when the client has taken the one before.
    let closed: (finished: boolean) => void = () => undefined;
    const finished = new Promise<boolean>((resolve) => {
      closed = resolve;
    });
    const server = http.createServer(async (_request, response) => {
      response.statusCode = 200;
      response.on('close', () => closed(response.writableFinished));
      const chunk = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 256 && !response.destroyed; i += 1)
        if (!response.write(chunk))
          await new Promise((resolve) => response.once('drain', resolve).once('close', resolve));
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const target = { url: new URL(`http://127.0.0.1:${port}/x`), address: '127.0.0.1', family: 4 } as const;
      expect(await sendWebhook(target, {}, '{}')).toEqual({ status: 200, error: null });
      // The answer was cut off past 64 KiB: the receiver never got to finish writing it.
      expect(await finished).toBe(false);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const server = http.createServer(() => undefined); // never answers
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const url = new URL(`http://127.0.0.1:${port}/x`);
      const result = await sendWebhook({ url, address: '127.0.0.1', family: 4 }, {}, '{}', 200);
      expect(result).toEqual({ status: null, error: 'timeout after 0.2 s' });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
