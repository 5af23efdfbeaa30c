import { isOptional, isRecord, isString, type Validator } from './guards';

/**
 * Every failed call surfaces as an ApiError, so screens map one shape to messages.
 * `code` is the server's error code (docs/api.md), or one of ours:
 *   'network'          the request never got an answer (offline, DNS, connection reset)
 *   'invalid-response' the server answered, but not with the JSON we expect
 *   'unknown'          an error status without our JSON error body (e.g. a proxy's 502 page)
 * `message` is the server's human text, or '' when there is none, so callers can fall back.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string[]> | undefined;
  /** Seconds to wait before retrying, from a 429's Retry-After header. */
  readonly retryAfter: number | undefined;

  constructor(init: {
    status: number;
    code: string;
    message?: string;
    fields?: Record<string, string[]> | undefined;
    retryAfter?: number | undefined;
    cause?: unknown;
  }) {
    super(init.message ?? '', { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields;
    this.retryAfter = init.retryAfter;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export interface ErrorBody {
  code: string;
  message?: string | undefined;
  fields?: Record<string, string[]> | undefined;
}

/** A field's own keys as zod's z.record reads them: `__proto__` is skipped, whatever it holds. */
const fieldEntries = <T>(fields: Record<string, T>) => Object.entries(fields).filter(([name]) => name !== '__proto__');

const isFields = (value: unknown): value is Record<string, string[]> =>
  isRecord(value) && fieldEntries(value).every(([, messages]) => Array.isArray(messages) && messages.every(isString));

/** The server's error shape (docs/api.md), `{error: {code, message?, fields?}}`; undefined if not. */
export function readErrorBody(body: unknown): ErrorBody | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  const { code, message, fields } = body.error;
  if (!isString(code) || code === '' || !isOptional(message, isString) || !isOptional(fields, isFields)) return undefined;
  const error: ErrorBody = { code };
  if ('message' in body.error) error.message = message;
  if ('fields' in body.error) error.fields = fields && Object.fromEntries(fieldEntries(fields));
  return error;
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

export async function parseErrorResponse(response: Response): Promise<ApiError> {
  const retryAfter = parseRetryAfter(response.headers.get('Retry-After'));
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const error = readErrorBody(body);
  if (!error) return new ApiError({ status: response.status, code: 'unknown', retryAfter });
  const { code, message, fields } = error;
  return new ApiError({ status: response.status, code, message: message ?? '', fields, retryAfter });
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Validates the success body; a mismatch is an 'invalid-response' ApiError, not a crash later. */
  schema?: Validator<T>;
  signal?: AbortSignal;
  /** Where requests go; the browser's fetch unless a test or simulation brings its own. */
  fetchImpl?: typeof fetch;
}

/**
 * JSON request to our own server: the one fetch core every screen and the sync engine use.
 * The session cookie rides along (same-origin), and no custom CSRF header is added: the server
 * checks Fetch Metadata / Origin, which browsers send themselves.
 */
export async function request<T = void>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const { method = 'GET', body, schema, signal, fetchImpl = fetch } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetchImpl(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    // An abort is the caller's own decision, not a network failure.
    if (signal?.aborted) throw cause;
    throw new ApiError({ status: 0, code: 'network', cause });
  }

  if (!response.ok) throw await parseErrorResponse(response);
  if (response.status === 204 || !schema) return undefined as T;

  let json: unknown;
  try {
    json = await response.json();
  } catch (cause) {
    throw new ApiError({ status: response.status, code: 'invalid-response', cause });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError({ status: response.status, code: 'invalid-response', cause: parsed.error });
  }
  return parsed.data;
}
