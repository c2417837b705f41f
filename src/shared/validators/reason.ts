/** A validator's answer for a bad value: the user-facing message in both languages (DESIGN §7: zh and en). */
export interface Reason {
  zh: string;
  en: string;
}
