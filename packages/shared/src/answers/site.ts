// The answer schemas of module `site` (what `data` carries, as JSON), declared in api/site.ts.
import { z } from 'zod';
import { pageOf } from '../api/define';
import { RESOURCE_AUDIENCES } from '../schemas/resources';

/** Start-up page configuration (`index`), edited by the platform operator. */
export const PageConfig = z.object({
  site_name: z.string(),
  logo: z.string().nullable(),
  nav: z.array(z.object({ title: z.string(), path: z.string() })),
  banners: z.array(z.object({ image: z.string(), title: z.string(), link: z.string().nullable() })),
  /** police_filing: the public-security filing number (公安备案号); null when none (rows saved before the field have none) */
  footer: z.object({ text: z.string(), icp: z.string().nullable(), police_filing: z.string().nullable() }),
  contact: z.object({ phone: z.string().nullable(), email: z.string().nullable(), address: z.string().nullable() }),
});
export type PageConfig = z.infer<typeof PageConfig>;

/** `data` of GET and POST index: the configuration and the version an edit must carry. */
export const PageConfigAnswer = PageConfig.extend({ version: z.number().int() });
export type PageConfigAnswer = z.infer<typeof PageConfigAnswer>;

/** `data` of GET and POST aboutUs: the (sanitised) rich text. */
export const AboutUs = z.object({ content: z.string(), version: z.number().int(), updated_at: z.string() });
export type AboutUs = z.infer<typeof AboutUs>;

/** `data` of upload: the stored file (its id is what addResource and other actions take). */
export const UploadedFile = z.object({ id: z.string(), url: z.string(), name: z.string(), mime: z.string(), size: z.number().int() });
export type UploadedFile = z.infer<typeof UploadedFile>;

/** A published resource (resource, dataDownload, resourceAdminList rows; addResource). */
export const SiteResource = z.object({
  id: z.number().int(),
  audience: z.enum(RESOURCE_AUDIENCES),
  title: z.string(),
  description: z.string(),
  subject: z.string().nullable(),
  grade: z.string().nullable(),
  file_name: z.string(),
  mime: z.string(),
  size: z.number().int(),
  /** the download address */
  url: z.string(),
  created_at: z.string(),
});
export type SiteResource = z.infer<typeof SiteResource>;

/** `data` of resource and resourceAdminList. */
export const ResourcePage = pageOf(SiteResource);
export type ResourcePage = z.infer<typeof ResourcePage>;

/** dataDownload also answers the subjects and grades that have materials (the filters' choices). */
export const DataDownloadPage = ResourcePage.extend({ subjects: z.array(z.string()), grades: z.array(z.string()) });
export type DataDownloadPage = z.infer<typeof DataDownloadPage>;

/** `data` of preview: where and how a file is shown. */
export const FilePreview = z.object({
  id: z.string(),
  name: z.string(),
  mime: z.string(),
  /** pdf and image: shown here; html: an office file (.docx/.xlsx/.pptx) converted to sanitised HTML; download: other types, offered for download only */
  kind: z.enum(['pdf', 'image', 'html', 'download']),
  url: z.string(),
  /** pages of a PDF (1 for an image); for kind html: the document's 1, the workbook's sheets, the presentation's slides */
  pages: z.number().int().nullable(),
  /** kind html: the converted content, sanitised (no script, style or event attributes); null for the other kinds */
  html: z.string().nullable(),
  /** kind html: only the first sheets / rows / columns / slides are shown (OFFICE_PREVIEW_LIMITS) */
  truncated: z.boolean(),
  /** a signed URL's end (courseware files); null for public uploads */
  expires_at: z.string().nullable(),
});
export type FilePreview = z.infer<typeof FilePreview>;

/** What an office preview shows at most: the rest is cut (the answer says truncated) and stays in the download. */
export const OFFICE_PREVIEW_LIMITS = { sheets: 5, rows: 200, columns: 30, slides: 200 } as const;
/** The office formats `preview` converts to HTML (Office Open XML); the legacy binary .doc/.xls/.ppt are download-only. */
export const OFFICE_PREVIEW_MIMES: Readonly<Record<string, 'docx' | 'xlsx' | 'pptx'>> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
};
