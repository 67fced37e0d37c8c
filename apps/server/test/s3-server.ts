import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../src/config.ts';

/** s3rver's one account. */
const ACCESS_KEY = 'S3RVER';

export interface TestS3Server {
  settings: S3Settings;
  /** The same, as the environment the server reads (STORAGE=s3 and its S3_* settings). */
  env: Record<string, string>;
  /** The bucket's directory on disk: what the server holds, read behind the API's back. */
  directory: string;
  /** Stops the server; its data goes too unless `keepData` (a restart on the same port and directory). */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver: the S3 REST API over a directory) on loopback, with one bucket: by
 * default a new, empty one on a free port; given a port and a directory, the same server started again.
 */
export async function startS3Server(bucket = 'vetcall-test', port = 0, existing?: string): Promise<TestS3Server> {
  const directory = existing ?? (await mkdtemp(path.join(tmpdir(), 'vetcall-s3-')));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = (await s3.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  const settings: S3Settings = {
    endpoint,
    bucket,
    region: 'us-east-1',
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
    forcePathStyle: true,
  };
  return {
    settings,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: settings.region,
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    directory,
    async stop(options: { keepData?: boolean } = {}) {
      // Clients keep connections alive; they would hold close() until they time out.
      (s3 as unknown as { httpServer: Server }).httpServer.closeAllConnections();
      await s3.close();
      if (!options.keepData) await rm(directory, { recursive: true, force: true });
    },
  };
}
