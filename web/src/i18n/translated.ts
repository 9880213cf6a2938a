/**
 * Another language's resources: the English keys, but the plural forms other than `_other` are
 * optional, since each language has its own (Chinese has only `_other`; a test checks each has
 * exactly the forms CLDR gives it).
 */
type PluralOnly = `${string}_${'zero' | 'one' | 'two' | 'few' | 'many'}`;
export type Translated<T> = { [K in keyof T as K extends PluralOnly ? never : K]: T[K] extends string ? string : Translated<T[K]> } & {
  [K in keyof T as K extends PluralOnly ? K : never]?: string;
};
