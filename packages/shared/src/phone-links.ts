/**
 * The phone app (apps/web/src/phone, its pages under /m) is where a guardian's messages open: a WeChat template
 * message, an SMS link. These parent pages have a phone page at /m + the same path (the web's phone route table
 * declares each as the twin of the desktop route; its test checks this list against it).
 */
export const GUARDIAN_PHONE_PAGES = [
  '/parent',
  '/parent_report',
  '/parent_contracts',
  '/parent_meals',
  '/parent_homework',
  '/parent_notices',
  '/parent_scores',
  '/parent_points',
  '/parent_messages',
  '/parent_pickup',
] as const;

/** `/parent_notices` → `/m/parent_notices`, the query and fragment kept; a path without a phone page stays as it is. */
export function guardianPhoneLink(path: string): string {
  const page = path.split(/[?#]/)[0];
  return (GUARDIAN_PHONE_PAGES as readonly string[]).includes(page) ? `/m${path}` : path;
}
