import { GET, IdAnswer, POST } from './define';
import { AboutUs, DataDownloadPage, FilePreview, PageConfigAnswer, ResourcePage, SiteResource, UploadedFile } from '../answers/site';
import { EmptyInput } from '../schemas/auth';
import { AddResourceInput, DataDownloadQuery, DelResourceInput, ResourceAdminQuery, ResourceQuery } from '../schemas/resources';
import { PreviewQuery } from '../schemas/courseware';
import { AboutUsInput, PageConfigInput } from '../schemas/site';

/** The actions of module `site` (docs/modules/site.md). */
export const siteActions = [
  GET('index', EmptyInput, PageConfigAnswer),
  GET('aboutUs', EmptyInput, AboutUs),
  GET('resource', ResourceQuery, ResourcePage),
  GET('dataDownload', DataDownloadQuery, DataDownloadPage),
  GET('preview', PreviewQuery, FilePreview),
  POST('upload', EmptyInput, UploadedFile),
  POST('index', PageConfigInput, PageConfigAnswer),
  POST('aboutUs', AboutUsInput, AboutUs),
  GET('resourceAdminList', ResourceAdminQuery, ResourcePage),
  POST('addResource', AddResourceInput, SiteResource),
  POST('delResource', DelResourceInput, IdAnswer),
] as const;
