// A CONNECT proxy on loopback (what undici's ProxyAgent speaks) that records each tunnel's target.
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

export interface ConnectProxy {
  url: string;
  /** host:port of every tunnel opened, in order. */
  tunnels: string[];
  close(): Promise<void>;
}

export async function startConnectProxy(): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, socket, head) => {
    tunnels.push(String(req.url));
    const [host, port] = String(req.url).split(':');
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
