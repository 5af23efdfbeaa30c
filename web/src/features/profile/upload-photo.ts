// The picture upload: the one action here that needs the network (a file is not queued in
// the outbox). XMLHttpRequest rather than fetch, because only XHR reports upload progress.
import { ApiError, parseErrorResponse } from '@/lib/api';
import { apiPaths } from '@/lib/paths';
import { sessionResponseSchema, type User } from '@/lib/session/user';

/** Spec §9: 2 MB. */
export const MAX_PHOTO_BYTES = 2_097_152;

export const photoMessages = {
  notAnImage: 'Please select an image file',
  tooLarge: 'Image size must be less than 2MB',
  uploadFailed: (reason: string) => `Failed to upload image: ${reason || 'Unknown error'}`,
} as const;

/** Spec §5 "Picture", checked before anything is sent. Null when the file may go. */
export function checkPhoto(file: Pick<File, 'type' | 'size'>): string | null {
  if (!file.type.startsWith('image/')) return photoMessages.notAnImage;
  if (file.size > MAX_PHOTO_BYTES) return photoMessages.tooLarge;
  return null;
}

/**
 * Sends the picture as multipart/form-data (one part named `file`) with the session cookie.
 * `onProgress` gets 0..1 as the bytes go out. Resolves with the updated user; rejects with an
 * ApiError (the server's error shape, or code 'network').
 */
export function uploadPhoto(file: File, onProgress: (fraction: number) => void): Promise<User> {
  return new Promise<User>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    // A same-origin request: the session cookie goes along, as with fetch's 'same-origin'.
    xhr.open('POST', apiPaths.profilePhoto);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status > 599) {
        reject(new ApiError({ status: xhr.status, code: 'network' }));
        return;
      }
      const noBody = xhr.status === 204 || xhr.status === 205 || xhr.status === 304;
      const response = new Response(noBody ? null : xhr.responseText, {
        status: xhr.status,
        headers: { 'Content-Type': xhr.getResponseHeader('Content-Type') ?? 'application/json' },
      });
      if (!response.ok) {
        void parseErrorResponse(response).then(reject);
        return;
      }
      response.json().then(
        (body: unknown) => {
          const parsed = sessionResponseSchema.safeParse(body);
          if (parsed.success) resolve(parsed.data.user);
          else reject(new ApiError({ status: xhr.status, code: 'invalid-response', cause: parsed.error }));
        },
        (cause: unknown) => reject(new ApiError({ status: xhr.status, code: 'invalid-response', cause })),
      );
    };
    xhr.onerror = () => reject(new ApiError({ status: 0, code: 'network' }));
    xhr.onabort = () => reject(new ApiError({ status: 0, code: 'network' }));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** The reason shown after "Failed to upload image: ". */
export function uploadFailure(error: unknown): string {
  const reason = error instanceof ApiError ? error.message : '';
  return photoMessages.uploadFailed(reason);
}
