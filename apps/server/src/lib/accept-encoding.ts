/**
 * Whether a request's Accept-Encoding takes gzip (and does not refuse it with q=0). Browsers send one of a
 * handful of headers, always the same text, so answers are remembered per header text: a hot read asks on
 * every request, and the parse allocates.
 */
const remembered = new Map<string, boolean>();
const REMEMBERED_HEADERS = 64;

export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let accepts = remembered.get(header);
  if (accepts === undefined) {
    accepts = parseAcceptsGzip(header);
    if (remembered.size >= REMEMBERED_HEADERS) remembered.clear();
    remembered.set(header, accepts);
  }
  return accepts;
}

function parseAcceptsGzip(header: string): boolean {
  return header.split(',').some((part) => {
    const [coding, ...parameters] = part.trim().toLowerCase().split(';');
    if (coding?.trim() !== 'gzip' && coding?.trim() !== '*') return false;
    const quality = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}
