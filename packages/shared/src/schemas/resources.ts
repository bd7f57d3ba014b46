import { z } from 'zod';
import { lineText, pageQuery, plainText } from './common';

/**
 * Public resources and school materials (issue 15, item 6): files the platform operator publishes to everyone (the
 * public /resource page) or to signed-in schools (dataDownload, by subject and grade).
 */
export const RESOURCE_AUDIENCES = ['public', 'schools'] as const;
export type ResourceAudience = (typeof RESOURCE_AUDIENCES)[number];

/** A subject or grade label (数学, 三年级): free text the operator types, filtered by exact match. */
const label = lineText(20).min(1, { error: 'resources.v.label_required' });

export const ResourceQuery = z.strictObject({ ...pageQuery, keyword: lineText(50).optional() });
export type ResourceQuery = z.infer<typeof ResourceQuery>;

export const DataDownloadQuery = z.strictObject({
  ...pageQuery,
  subject: label.optional(),
  grade: label.optional(),
  keyword: lineText(50).optional(),
});
export type DataDownloadQuery = z.infer<typeof DataDownloadQuery>;

/** The operator's list: both audiences, or one. */
export const ResourceAdminQuery = z.strictObject({ ...pageQuery, audience: z.enum(RESOURCE_AUDIENCES).optional(), keyword: lineText(50).optional() });
export type ResourceAdminQuery = z.infer<typeof ResourceAdminQuery>;

export const AddResourceInput = z
  .strictObject({
    audience: z.enum(RESOURCE_AUDIENCES, { error: 'resources.v.audience' }),
    title: lineText(100).min(1, { error: 'resources.v.title_required' }),
    description: plainText(500).optional(),
    subject: label.nullable().optional(),
    grade: label.nullable().optional(),
    /** a file from the `upload` action */
    file_id: z.uuid({ error: 'resources.v.file_required' }),
  })
  .refine((v) => v.audience === 'schools' || ((v.subject ?? null) === null && (v.grade ?? null) === null), {
    error: 'resources.v.public_no_subject',
    path: ['subject'],
  });
export type AddResourceInput = z.infer<typeof AddResourceInput>;

export const DelResourceInput = z.strictObject({ id: z.number().int().min(1).max(2_147_483_647) });
export type DelResourceInput = z.infer<typeof DelResourceInput>;
