/** One message in both languages, side by side: `{name}` marks are filled from params, and both texts carry the same marks. */
export interface Bilingual {
  zh: string;
  en: string;
}
