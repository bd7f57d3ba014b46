/**
 * The phone's dialler: `tel:` with the digits of `mobile` (and a leading +), nothing else of the text. Opening it is a
 * module of its own so a test stands in for the navigation (jsdom has none).
 */
export const telHref = (mobile: string): string => `tel:${mobile.replace(/[^\d+]/g, '')}`;

/** Opens the dialler at `href` (a tel: address). */
export function openTel(href: string): void {
  window.location.href = href;
}
