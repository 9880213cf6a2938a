/**
 * The text shown for an error: a refusal whose code the console knows is shown in the
 * operator's language (`errors.codes.<code>`, with the service's `detail` where the text keeps
 * a place for it); an unknown code, from a newer service, falls back to the English `detail`.
 */
import { ApiError, NetworkError } from '../api/errors';
import { en } from './en';

/** `t` of react-i18next, narrowed to what is used here. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

export type KnownErrorCode = keyof typeof en.errors.codes;

export function isKnownErrorCode(code: string | null | undefined): code is KnownErrorCode {
  return typeof code === 'string' && Object.hasOwn(en.errors.codes, code);
}

export function errorText(error: unknown, t: Translate): string {
  if (error instanceof NetworkError) return t('errors.network');
  if (error instanceof ApiError) {
    return isKnownErrorCode(error.code) ? t(`errors.codes.${error.code}`, { detail: error.detail }) : error.detail;
  }
  return error instanceof Error ? error.message : String(error);
}
