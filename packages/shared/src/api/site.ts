import { GET, IdAnswer, POST, extraOf } from './define';
import { AboutUs, DataDownloadPage, FilePreview, PageConfigAnswer, ResourcePage, SiteResource, UploadedFile } from '../answers/site';
import { EmptyInput } from '../schemas/auth';
import { AddResourceInput, DataDownloadQuery, DelResourceInput, ResourceAdminQuery, ResourceQuery } from '../schemas/resources';
import { PreviewQuery } from '../schemas/courseware';
import { AboutUsInput, PageConfigInput } from '../schemas/site';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('site');

/** The actions of module `site` (docs/modules/site.md). */
export const siteActions = [
  GET('index', EmptyInput, PageConfigAnswer),
  GET('aboutUs', EmptyInput, AboutUs),
  GET('resource', ResourceQuery, ResourcePage),
  GET('dataDownload', DataDownloadQuery, DataDownloadPage),
  GET('preview', PreviewQuery, FilePreview),
  POST('upload', EmptyInput, UploadedFile),
  POST('index', PageConfigInput, PageConfigAnswer, extra(['O'], 'platform operator saves the start-up page configuration')),
  POST('aboutUs', AboutUsInput, AboutUs, extra(['O'], 'platform operator saves the about-us rich text (sanitised)')),
  GET(
    'resourceAdminList',
    ResourceAdminQuery,
    ResourcePage,
    extra(['O'], "platform operator's list of public resources and school materials, paged, by audience and keyword"),
  ),
  POST(
    'addResource',
    AddResourceInput,
    SiteResource,
    extra(['O'], 'platform operator publishes an uploaded file as a public resource or as material for signed-in schools (subject, grade)'),
  ),
  POST('delResource', DelResourceInput, IdAnswer, extra(['O'], 'platform operator removes a resource (kept as removed, by whom and when)')),
] as const;
