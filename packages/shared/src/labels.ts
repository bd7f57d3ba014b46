/**
 * A label in both languages (Chinese first). The labels of stored states live next to the states (contracts.ts,
 * meals.ts, schemas/school.ts …) and are the one wording of a state: the web's screens and the API's exports both
 * read them, so a spreadsheet never says 待付款 where the screen says 待支付.
 */
export interface BilingualLabel {
  zh: string;
  en: string;
}
