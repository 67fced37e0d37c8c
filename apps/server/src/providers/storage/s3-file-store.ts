import { Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import type * as S3Storage from '@aws-sdk/lib-storage';
import type { S3Settings } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { packageOnFirstUse } from '../../lib/package-on-first-use.ts';
import {
  assertStorageKey,
  type CheckedUpload,
  checkedChunks,
  cleanFileName,
  type FileStore,
  isStorageKey,
  newStorageKey,
} from './file-store.ts';

/** Loaded only with STORAGE=s3: the SDK takes a noticeable part of a start. */
const s3Sdk = packageOnFirstUse<typeof S3>('@aws-sdk/client-s3');
const s3Storage = packageOnFirstUse<typeof S3Storage>('@aws-sdk/lib-storage');

/** S3's smallest part; an upload under it is one PutObject, a larger one a multipart upload of such parts. */
const PART_SIZE = 5 * 1024 * 1024;
/** Parts in flight at once per upload: bounds the memory one upload holds to two parts. */
const PARTS_IN_FLIGHT = 2;
const LIST_PAGE = 500;

/** The bucket could not be reached or refused us: the request fails, with nothing stored. */
export const storageUnavailable = (cause: unknown) =>
  new AppError('service_unavailable', 503, {
    message: 'File storage is not reachable right now; try again later.',
    cause,
  });

function errorName(error: unknown): string | undefined {
  return (error as { name?: string; Code?: string } | undefined)?.name;
}

/** The bytes as they come, keeping what stopped them (a check, the client) apart from the bucket's failures. */
async function* recordingFailure(
  chunks: AsyncIterable<Uint8Array>,
  reading: { failure?: unknown },
): AsyncGenerator<Uint8Array> {
  try {
    yield* chunks;
  } catch (error) {
    reading.failure = error;
    throw error;
  }
}

export function createS3Client(settings: S3Settings): S3.S3Client {
  const { S3Client } = s3Sdk();
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // Checksums only where S3 requires them: many S3-compatible servers refuse the SDK's default trailing
    // checksums (aws-chunked bodies); the bytes' integrity on the wire is TLS's.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 5000, requestTimeout: 60_000 },
  });
}

/**
 * Attachment bytes as objects `<prefix><storage key>` of one bucket, shared by every instance. An upload is
 * streamed through lib-storage's Upload: small files as one PutObject, larger ones as a multipart upload of
 * PART_SIZE parts, so memory stays bounded whatever the size. The checks (checkedChunks) run while the bytes
 * flow; when one throws, or the client or the bucket fails, no object appears: an object exists only once the
 * PutObject or CompleteMultipartUpload succeeded, after the last check. The Upload then aborts its multipart
 * upload; parts that an abort could not remove, or that a process dying mid-upload left, are not objects, and
 * removeAbandonedUploads aborts them (a bucket lifecycle rule should too, docs/deployment.md).
 */
export function createS3FileStore(settings: S3Settings, client: S3.S3Client = createS3Client(settings)): FileStore {
  const bucket = settings.bucket;
  const deleteObject = async (key: string) => {
    const { DeleteObjectCommand } = s3Sdk();
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  };

  return {
    kind: 's3',

    async put(source, options) {
      const fileName = cleanFileName(options.fileName);
      const storageKey = newStorageKey();
      const checked: CheckedUpload = { fileSize: 0 };
      const reading: { failure?: unknown } = {};
      const body = Readable.from(
        recordingFailure(checkedChunks(source, { fileName, maxBytes: options.maxBytes }, checked), reading),
        { objectMode: false },
      );
      const upload = new (s3Storage().Upload)({
        client,
        params: { Bucket: bucket, Key: storageKey, Body: body, ContentType: 'application/octet-stream' },
        partSize: PART_SIZE,
        queueSize: PARTS_IN_FLIGHT,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        body.destroy();
        // Nothing should be there; a PutObject whose answer was lost on the way back may have stored it all.
        await deleteObject(storageKey).catch(() => undefined);
        // The upload's own failure (a check, the client going away) is the answer, whatever aborting it said.
        throw reading.failure ?? storageUnavailable(error);
      }
      return { storageKey, fileName, fileType: checked.fileType!, fileSize: checked.fileSize };
    },

    async discard(files) {
      await Promise.all(files.map((file) => deleteObject(assertStorageKey(file.storageKey)).catch(() => undefined)));
    },

    async open(storageKey): Promise<Readable | null> {
      const { GetObjectCommand } = s3Sdk();
      const key = assertStorageKey(storageKey);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return answer.Body as Readable;
      } catch (error) {
        if (errorName(error) === 'NoSuchKey' || errorName(error) === 'NotFound') return null;
        throw storageUnavailable(error);
      }
    },

    async *listStoredBefore(cutoff) {
      const { ListObjectsV2Command } = s3Sdk();
      let continuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, MaxKeys: LIST_PAGE, ContinuationToken: continuationToken }),
        );
        const keys = (page.Contents ?? [])
          .filter((object) => object.Key !== undefined && isStorageKey(object.Key))
          .filter((object) => object.LastModified !== undefined && object.LastModified < cutoff)
          .map((object) => object.Key!);
        if (keys.length > 0) yield keys;
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
    },

    async removeAbandonedUploads(cutoff) {
      const { AbortMultipartUploadCommand, ListMultipartUploadsCommand } = s3Sdk();
      let removed = 0;
      let keyMarker: string | undefined;
      let uploadIdMarker: string | undefined;
      do {
        let page: S3.ListMultipartUploadsCommandOutput;
        try {
          page = await client.send(
            new ListMultipartUploadsCommand({ Bucket: bucket, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
          );
        } catch (error) {
          // Some S3-compatible servers cannot list uploads; there the bucket's lifecycle rule is the only sweep.
          if (errorName(error) === 'NotImplemented') return removed;
          throw error;
        }
        for (const abandoned of page.Uploads ?? []) {
          if (!abandoned.Key || !abandoned.UploadId || !isStorageKey(abandoned.Key)) continue;
          if (!abandoned.Initiated || abandoned.Initiated >= cutoff) continue;
          await client.send(
            new AbortMultipartUploadCommand({ Bucket: bucket, Key: abandoned.Key, UploadId: abandoned.UploadId }),
          );
          removed += 1;
        }
        keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
        uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
      } while (keyMarker);
      return removed;
    },
  };
}
