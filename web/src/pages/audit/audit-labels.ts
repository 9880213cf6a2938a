/**
 * Audit actions and target types in the reader's language. Other areas add actions over time:
 * one this console has no text for is shown as its code, which is still what the filter takes.
 */
import type { TFunction, i18n as I18n } from 'i18next';

export function actionLabel(action: string, t: TFunction, i18n: Pick<I18n, 'exists'>): string {
  const key = `audit.actions.${action}`;
  return i18n.exists(key) ? t(key) : action;
}

export function targetTypeLabel(type: string, t: TFunction, i18n: Pick<I18n, 'exists'>): string {
  const key = `audit.targetTypes.${type}`;
  return i18n.exists(key) ? t(key) : type;
}
