import { readStoredAccountId } from './account-storage.ts';
import { ApiError } from './api.ts';

/**
 * POSTs raw bytes to our server with upload progress, which fetch cannot report: through
 * XMLHttpRequest, with the session cookie and the headers apiRequest sends. Resolves with the
 * answer's text; a non-2xx answer throws ApiError like apiRequest, an abort a DOMException.
 */
export function uploadWithProgress({
  url,
  body,
  onProgress,
  signal,
}: {
  url: string;
  body: Blob;
  /** Bytes sent so far and in all. */
  onProgress: (sent: number, total: number) => void;
  signal?: AbortSignal;
}): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.withCredentials = true;
    request.setRequestHeader('Accept', 'application/json');
    request.setRequestHeader('Content-Type', 'application/octet-stream');
    const accountId = readStoredAccountId();
    if (accountId) request.setRequestHeader('x-account-id', accountId);
    request.upload.onprogress = (event) => {
      onProgress(event.loaded, event.lengthComputable ? event.total : body.size);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) resolve(request.responseText);
      else reject(new ApiError(request.status, request.statusText, request.responseText));
    };
    request.onerror = () => reject(new TypeError('Network error while uploading'));
    request.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(body);
  });
}
