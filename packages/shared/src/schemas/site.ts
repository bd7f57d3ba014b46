import { z } from 'zod';
import { lineText, plainText, text } from './common';

/** A link of the page: a path of this site or an http(s) URL (never javascript:, data: or the like), no spaces or quotes. */
const LINK_RE = /^(\/(?!\/)|https?:\/\/)[^\s<>"'`\\]*$/;
const link = text(500).regex(LINK_RE, { error: 'v.link_invalid' });

/** Saves carry the version they were read at: a concurrent edit is detected, never overwritten. */
const version = z.number().int().min(1).max(2_147_483_647);

export const PageConfigInput = z.strictObject({
  version,
  site_name: lineText(60).min(1),
  logo: link.nullable(),
  nav: z.array(z.strictObject({ title: lineText(20).min(1), path: text(200).min(1).regex(LINK_RE, { error: 'v.link_invalid' }) })).max(20),
  banners: z.array(z.strictObject({ image: link.min(1), title: lineText(60), link: link.nullable() })).max(10),
  footer: z.strictObject({
    text: plainText(500),
    icp: lineText(60).nullable(),
    /** 公安备案号 (e.g. 京公网安备11010502030143号); left out by clients older than the field: none */
    police_filing: lineText(60).nullable().default(null),
  }),
  contact: z.strictObject({ phone: lineText(30).nullable(), email: lineText(100).nullable(), address: lineText(200).nullable() }),
});

export const AboutUsInput = z.strictObject({
  version,
  /** rich text; sanitised on the server before it is stored */
  content: text(100_000),
});
