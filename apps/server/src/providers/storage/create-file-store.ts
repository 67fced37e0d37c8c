import path from 'node:path';
import type { Config } from '../../config.ts';
import type { FileStore } from './file-store.ts';
import { createLocalFileStore } from './local-file-store.ts';
import { createS3FileStore } from './s3-file-store.ts';

/** Where the local store keeps attachment bytes (and what a backup carries of them): DATA_DIR/files. */
export function localFilesDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'files');
}

/** The store STORAGE names: DATA_DIR/files by default, the S3 bucket with STORAGE=s3. */
export function fileStoreFor(config: Pick<Config, 'dataDir' | 'storage'>): FileStore {
  return config.storage.kind === 's3'
    ? createS3FileStore(config.storage.s3)
    : createLocalFileStore(localFilesDir(config));
}
