import { createServer, type Server, Socket } from 'node:net';

export type ProxyMode = 'forward' | 'refuse' | 'blackhole';

/**
 * A TCP proxy in front of a service, to play its faults: `forward` passes bytes both ways;
 * `refuse` stops listening, so connections are refused; `blackhole` accepts connections and
 * passes nothing either way, like a network dropping packets. Bytes held in a black hole are
 * passed on when forwarding resumes, as TCP would retransmit them.
 */
export class FaultProxy {
  #mode: ProxyMode = 'forward';
  readonly #links = new Set<Link>();
  #server: Server | undefined;

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<FaultProxy> {
    const probe = createServer();
    const port = await new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)),
    );
    await new Promise((resolve) => probe.close(resolve));
    const proxy = new FaultProxy(target, port);
    await proxy.set('forward');
    return proxy;
  }

  get mode(): ProxyMode {
    return this.#mode;
  }

  async set(mode: ProxyMode): Promise<void> {
    this.#mode = mode;
    if (mode === 'refuse') {
      for (const link of this.#links) link.destroy();
      this.#links.clear();
      const server = this.#server;
      this.#server = undefined;
      if (server) await new Promise((resolve) => server.close(resolve));
      return;
    }
    if (!this.#server) {
      const server = createServer((socket) => this.#accept(socket));
      await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
      this.#server = server;
    }
    if (mode === 'forward') for (const link of this.#links) link.flush();
  }

  async close(): Promise<void> {
    await this.set('refuse');
  }

  #accept(client: Socket): void {
    const link = new Link(client, this.target, () => this.#mode === 'forward');
    this.#links.add(link);
    client.on('close', () => this.#links.delete(link));
    if (this.#mode === 'forward') link.flush();
  }
}

class Link {
  #upstream: Socket | undefined;
  readonly #toUpstream: Buffer[] = [];
  readonly #toClient: Buffer[] = [];

  constructor(
    private readonly client: Socket,
    private readonly target: { host: string; port: number },
    private readonly open: () => boolean,
  ) {
    client.on('data', (d) => {
      this.#toUpstream.push(d);
      if (this.open()) this.flush();
    });
    client.on('error', () => this.destroy());
    client.on('close', () => this.destroy());
  }

  flush(): void {
    if (!this.#upstream) {
      const upstream = new Socket();
      upstream.connect(this.target.port, this.target.host);
      upstream.on('data', (d) => {
        this.#toClient.push(d);
        if (this.open()) this.flush();
      });
      upstream.on('error', () => this.destroy());
      upstream.on('close', () => this.destroy());
      this.#upstream = upstream;
    }
    for (let d = this.#toUpstream.shift(); d; d = this.#toUpstream.shift()) this.#upstream.write(d);
    for (let d = this.#toClient.shift(); d; d = this.#toClient.shift()) this.client.write(d);
  }

  destroy(): void {
    this.client.destroy();
    this.#upstream?.destroy();
  }
}
