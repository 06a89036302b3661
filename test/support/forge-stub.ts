// A stub of the two REST endpoints the CI recipes' comment steps call, on 127.0.0.1 (a free port), for
// test/e2e/ci-recipes.test.ts and test/e2e/action.test.ts: GitHub's issue comments
// (`GET|POST /repos/OWNER/REPO/issues/N/comments`, `PATCH /repos/OWNER/REPO/issues/comments/ID`) and
// GitLab's merge request notes (`GET|POST /api/v4/projects/P/merge_requests/N/notes`, `PUT …/notes/ID`),
// both paged by `per_page`/`page` as the real APIs are, and who the token is (`GET /user`, GitLab's
// `GET /api/v4/user`). It checks the token header, keeps the comments in memory, answers 403 to every write
// when `readOnly` (what GitHub gives a fork's pull request token) and to an edit of another author's comment,
// and records each request, so a test asserts what was listed, written and updated.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A comment or note as both APIs return it (the fields the recipes read, plus the author). */
export interface StubComment {
  id: number;
  body: string;
  author: string;
}

export interface ForgeStub {
  /** `http://127.0.0.1:PORT`: GitHub's API root; GitLab's is `${url}/api/v4`. */
  url: string;
  comments: StubComment[];
  /** `METHOD path` of each request, in order (query strings kept). */
  requests: string[];
  /** Writes answer 403 (a fork's read-only token). */
  readOnly: boolean;
  /** Edits answer this status instead of writing (a comment deleted since it was listed: 404). */
  failEdits?: number;
  close(): Promise<void>;
}

export interface ForgeStubOptions {
  /** The token the recipe must send (`Authorization: Bearer T` on GitHub, `PRIVATE-TOKEN: T` on GitLab). */
  token: string;
  comments?: StubComment[];
  readOnly?: boolean;
  /**
   * GitHub: the login of a user token (GET /user answers it); none, the GITHUB_TOKEN, which GET /user refuses
   * with 403 and whose comments GitHub shows as `github-actions[bot]`'s. GitLab: the token's bot user.
   */
  login?: string;
}

const GITHUB_LIST = /^\/repos\/[\w.-]+\/[\w.-]+\/issues\/(\d+)\/comments$/;
const GITHUB_ONE = /^\/repos\/[\w.-]+\/[\w.-]+\/issues\/comments\/(\d+)$/;
const GITLAB_LIST = /^\/api\/v4\/projects\/\d+\/merge_requests\/(\d+)\/notes$/;
const GITLAB_ONE = /^\/api\/v4\/projects\/\d+\/merge_requests\/\d+\/notes\/(\d+)$/;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the stub; `close()` stops it. */
export async function startForgeStub(opts: ForgeStubOptions): Promise<ForgeStub> {
  let nextId = 1000;
  const stub: ForgeStub = { url: '', comments: [...(opts.comments ?? [])], requests: [], readOnly: opts.readOnly ?? false, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stub');
      stub.requests.push(`${req.method} ${url.pathname}${url.search}`);
      const body = await readBody(req);
      const send = (status: number, value: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      const gitlab = url.pathname.startsWith('/api/v4/');
      const authorized = gitlab ? req.headers['private-token'] === opts.token : req.headers.authorization === `Bearer ${opts.token}`;
      if (!authorized) return send(401, { message: 'Bad credentials' });
      const shape = (c: StubComment): unknown => (gitlab ? { id: c.id, body: c.body, author: { username: c.author } } : { id: c.id, body: c.body, user: { login: c.author } });
      const self = opts.login ?? (gitlab ? 'project_7_bot' : 'github-actions[bot]');
      if (req.method === 'GET' && url.pathname === (gitlab ? '/api/v4/user' : '/user')) {
        if (!gitlab && opts.login === undefined) return send(403, { message: 'Resource not accessible by integration' });
        return send(200, gitlab ? { id: 1, username: self } : { login: self, type: 'User' });
      }
      const list = (gitlab ? GITLAB_LIST : GITHUB_LIST).exec(url.pathname);
      const one = (gitlab ? GITLAB_ONE : GITHUB_ONE).exec(url.pathname);
      if (list && req.method === 'GET') {
        const perPage = Number(url.searchParams.get('per_page') ?? 30);
        const page = Number(url.searchParams.get('page') ?? 1);
        return send(200, stub.comments.slice((page - 1) * perPage, page * perPage).map(shape));
      }
      const write = (list && req.method === 'POST') || (one && req.method === (gitlab ? 'PUT' : 'PATCH'));
      if (!write) return send(404, { message: 'Not Found' });
      if (stub.readOnly) return send(403, { message: 'Resource not accessible by integration' });
      let text: unknown;
      try {
        text = (JSON.parse(body) as { body?: unknown }).body;
      } catch {
        return send(400, { message: 'Problems parsing JSON' });
      }
      if (typeof text !== 'string') return send(422, { message: 'body is missing' });
      if (list) {
        const created = { id: nextId++, body: text, author: self };
        stub.comments.push(created);
        return send(201, shape(created));
      }
      if (stub.failEdits !== undefined) return send(stub.failEdits, { message: 'refused' });
      const existing = stub.comments.find((c) => c.id === Number(one![1]));
      if (!existing) return send(404, { message: 'Not Found' });
      if (existing.author !== self) return send(403, { message: 'Resource not accessible by integration' });
      existing.body = text;
      return send(200, shape(existing));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return stub;
}
