/** What the API answers when something is refused: `{ detail, code }`, and a 422's field errors. */
export interface FieldError {
  /** e.g. `body.name`, `querystring.limit`. */
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors: FieldError[] = [],
    /** Seconds to wait, from Retry-After (429). */
    readonly retryAfter: number | null = null,
    /** The stable code from the service's catalogue (`server_not_found`…); the console translates it. */
    readonly code: string | null = null,
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  /** The field errors by body field name (`body.name` → `name`), for forms. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of this.errors) {
      // Only the body names form fields; a bad query or path parameter is no field of a form.
      if (!e.path.startsWith('body.')) continue;
      const field = e.path.slice('body.'.length).split('.')[0];
      if (field && !out[field]) out[field] = e.message;
    }
    return out;
  }
}

/** The network itself failed (offline, the service down): shown as a banner with a retry. */
export class NetworkError extends Error {
  constructor(message = 'The service cannot be reached') {
    super(message);
    this.name = 'NetworkError';
  }
}

export async function apiErrorFrom(res: Response): Promise<ApiError> {
  let body: { detail?: unknown; code?: unknown; errors?: unknown } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // not JSON: the status says enough
  }
  const detail = typeof body.detail === 'string' ? body.detail : res.statusText || `HTTP ${res.status}`;
  const errors = Array.isArray(body.errors) ? (body.errors as FieldError[]).filter((e) => typeof e?.path === 'string') : [];
  const ra = Number(res.headers.get('retry-after'));
  const code = typeof body.code === 'string' ? body.code : null;
  return new ApiError(res.status, detail, errors, Number.isFinite(ra) && ra > 0 ? ra : null, code);
}
