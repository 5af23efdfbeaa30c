import { ApiError } from '@/lib/api';
import type { SyncFailure } from '@/sync/api';

/** The error a real sync request fails with, for a fake SyncApi that fails on purpose. */
export function syncFailure(failure: SyncFailure): ApiError {
  switch (failure.kind) {
    case 'offline':
      return new ApiError({ status: 0, code: 'network' });
    case 'unauthenticated':
      return new ApiError({ status: 401, code: 'unauthenticated' });
    case 'password-change':
      return new ApiError({ status: 403, code: 'password-change-required' });
    case 'server':
      return new ApiError({ status: failure.status, code: 'unknown', retryAfter: failure.retryAfterMs === undefined ? undefined : failure.retryAfterMs / 1000 });
    case 'refused':
      return new ApiError({ status: failure.status, code: 'refused', message: failure.message });
  }
}
