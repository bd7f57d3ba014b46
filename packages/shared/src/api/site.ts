import { GET, POST, Pending } from './define';
import { EmptyInput } from '../schemas/auth';
import { AddResourceInput, DataDownloadQuery, DelResourceInput, ResourceAdminQuery, ResourceQuery } from '../schemas/resources';
import { PreviewQuery } from '../schemas/courseware';
import { AboutUsInput, PageConfigInput } from '../schemas/site';

/** The actions of module `site` (docs/modules/site.md). */
export const siteActions = [
  GET('index', EmptyInput, Pending),
  GET('aboutUs', EmptyInput, Pending),
  GET('resource', ResourceQuery, Pending),
  GET('dataDownload', DataDownloadQuery, Pending),
  GET('preview', PreviewQuery, Pending),
  POST('upload', EmptyInput, Pending),
  POST('index', PageConfigInput, Pending),
  POST('aboutUs', AboutUsInput, Pending),
  GET('resourceAdminList', ResourceAdminQuery, Pending),
  POST('addResource', AddResourceInput, Pending),
  POST('delResource', DelResourceInput, Pending),
] as const;
