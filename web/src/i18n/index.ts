/**
 * i18next with English and Simplified Chinese, each its own chunk loaded when first used (with
 * every area's strings they no longer fit the first visit's budget together): the entry waits
 * for the chosen language (`i18nReady`) before it renders, so there is no flash of keys, and a
 * switch loads the other before it changes. The choice is remembered per browser; the first
 * visit follows the browser's language.
 */
import i18n from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'zh-CN', label: '简体中文' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

const KEY = 'fleet.language';

export function initialLanguage(): Language {
  const saved = typeof localStorage !== 'undefined' ? localStorage.getItem(KEY) : null;
  if (saved === 'en' || saved === 'zh-CN') return saved;
  const nav = typeof navigator !== 'undefined' ? navigator.language : 'en';
  return nav.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

export function setLanguage(lang: Language): void {
  localStorage.setItem(KEY, lang);
  // The page switches (and says its language: see languageChanged below) once the strings are there.
  void i18n.changeLanguage(lang);
}

const bundles: Record<Language, () => Promise<object>> = {
  en: async () => (await import('./en')).en,
  'zh-CN': async () => (await import('./zh-CN')).zhCN,
};

/** Resolves once the chosen language's strings are loaded (the entry renders after it). */
export const i18nReady = i18n
  .use(initReactI18next)
  .use(resourcesToBackend((lng: string) => bundles[lng as Language]?.() ?? Promise.resolve({})))
  .init({
    lng: initialLanguage(),
    // zh-CN has every key (a test checks), so English is loaded only when it is the language.
    fallbackLng: false,
    supportedLngs: LANGUAGES.map((l) => l.code),
    load: 'currentOnly',
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
// The document says the language it shows: set when the strings of the first language, or of a
// new one, have arrived (before that i18next has no language yet).
if (typeof document !== 'undefined') {
  document.documentElement.lang = initialLanguage();
  i18n.on('languageChanged', (lng) => {
    document.documentElement.lang = lng;
  });
}

export default i18n;
