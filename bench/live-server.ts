// Worker thread for bench/live.ts: the loopback fake API server on its own event loop, so the benchmark
// measures the reader rather than a server sharing its thread. Messages: in {objects, namespaces, delayMs,
// token, pki} → out {url}; in 'count' → out {count}; in 'close' → exits.
import { parentPort, workerData } from 'node:worker_threads';
import { startFakeApiServer, type TestPki } from '../test/support/fake-apiserver.ts';

const { objects, namespaces, delayMs, token, pki } = workerData as {
  objects: number;
  namespaces: number;
  delayMs: number;
  token: string;
  pki: TestPki;
};
const server = await startFakeApiServer(pki, { tokens: [token], answerDelayMs: delayMs });
for (let i = 0; i < objects; i++) {
  server.addSecret(`ns-${i % namespaces}`, `secret-${i}`, { username: 'app', password: `pw-secret-${i}`, 'ca.crt': 'x'.repeat(1500) });
}
parentPort!.on('message', async (msg: string) => {
  if (msg === 'count') parentPort!.postMessage({ count: server.count(), distinct: new Set(server.paths).size });
  if (msg === 'close') {
    await server.close();
    parentPort!.close();
  }
});
parentPort!.postMessage({ url: server.url });
