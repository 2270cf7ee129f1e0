import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real webhook receiver on loopback: records every request and answers the planned statuses. */
export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

export class Receiver {
  readonly received: Received[] = [];
  /** Statuses to answer, in order; then 204. */
  plan: number[] = [];
  private server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (c) => {
      body += String(c);
    });
    request.on('end', () => {
      this.received.push({ headers: request.headers, body });
      response.statusCode = this.plan.shift() ?? 204;
      response.end();
    });
  });
  url = '';
  async start(port = 0): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
  of(type: string): Received[] {
    return this.received.filter((r) => (JSON.parse(r.body) as { type: string }).type === type);
  }
}
