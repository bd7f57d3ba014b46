import { z } from 'zod';
import { text } from './common';

const link = text(500);

/** Saves carry the version they were read at: a concurrent edit is detected, never overwritten. */
const version = z.number().int().min(1);

export const PageConfigInput = z.strictObject({
  version,
  site_name: text(60).min(1),
  logo: link.nullable(),
  nav: z.array(z.strictObject({ title: text(20).min(1), path: text(200).min(1) })).max(20),
  banners: z.array(z.strictObject({ image: link.min(1), title: text(60), link: link.nullable() })).max(10),
  footer: z.strictObject({ text: text(500), icp: text(60).nullable() }),
  contact: z.strictObject({ phone: text(30).nullable(), email: text(100).nullable(), address: text(200).nullable() }),
});

export const AboutUsInput = z.strictObject({
  version,
  /** rich text; sanitised on the server before it is stored */
  content: text(100_000),
});
