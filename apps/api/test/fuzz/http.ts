import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { FuzzRequest } from './cases';

export interface FuzzResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** the parsed JSON answer, when it is JSON */
  json?: unknown;
  /** no answer at all: the connection failed */
  error?: string;
}

/**
 * A raw HTTP client for the fuzz test: sends exactly the bytes and headers of a case (supertest would re-encode
 * bodies and queries), over one keep-alive connection to the app listening on an ephemeral port.
 */
export class FuzzClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private constructor(
    private readonly server: Server,
    private readonly port: number,
  ) {}

  static async listen(server: Server): Promise<FuzzClient> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new FuzzClient(server, (server.address() as AddressInfo).port);
  }

  send(req: FuzzRequest, token?: string): Promise<FuzzResponse> {
    const headers: Record<string, string | number> = { ...req.headers };
    if (token !== undefined) headers.token = token;
    if (req.body) headers['content-length'] = req.body.length;
    // a body the server refuses before reading it (413) may leave the connection unusable: send those alone
    const agent = req.body && req.body.length > 512 * 1024 ? false : this.agent;
    return new Promise((resolve) => {
      const r = request({ host: '127.0.0.1', port: this.port, method: req.method, path: req.path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '', error: String(e) }));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          if (/json/i.test(String(res.headers['content-type'] ?? ''))) {
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      });
      r.on('error', (e) => resolve({ status: 0, headers: {}, text: '', error: String(e) }));
      r.setTimeout(30_000, () => r.destroy(new Error('no answer in 30 s')));
      r.end(req.body);
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A request written down so a person can send it again (long bodies shortened, bytes escaped). */
export function describeRequest(req: FuzzRequest, caller: string): string {
  const short = (s: string, max = 400) => (s.length > max ? `${s.slice(0, max)}… (${s.length} characters)` : s);
  const lines = [`${req.method} ${short(req.path, 300)}`];
  for (const [k, v] of Object.entries(req.headers)) lines.push(`${k}: ${short(v, 120)}`);
  if (caller !== 'anonymous') lines.push(`token: <a session of ${caller}>`);
  if (req.body) {
    const text = req.body.toString('utf8');
    const exact = Buffer.from(text, 'utf8').equals(req.body);
    lines.push(
      exact
        ? `body (${req.body.length} bytes, as a JS string): ${short(JSON.stringify(text))}`
        : `body (${req.body.length} bytes, base64): ${short(req.body.toString('base64'))}`,
    );
  }
  return lines.map((l) => `    ${l}`).join('\n');
}
