/** A file of a multipart form. */
export interface FilePart {
  name: string;
  content: Buffer;
}

/** The form as a browser sends it: file_data (JSON text) and files[]. */
export async function multipartBody(fileData: unknown, files: FilePart[]) {
  const form = new FormData();
  if (fileData !== undefined) {
    form.append('file_data', typeof fileData === 'string' ? fileData : JSON.stringify(fileData));
  }
  for (const file of files) form.append('files[]', new Blob([new Uint8Array(file.content)]), file.name);
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type')!,
  };
}
