import { useSearchParams } from 'react-router';
import { EmptyState } from '../../components/states';

/** PDF viewer (no title): shows a PDF of this site (uploads or API files) with the browser's own viewer. */
export default function PdfViewer() {
  const [params] = useSearchParams();
  const url = params.get('url') ?? '';
  // only files of this site: never frame another origin
  const safe = /^\/(uploads|api)\/[\w\-./%]+$/.test(url) && !url.includes('..');
  if (!safe) return <EmptyState />;
  return <iframe title="PDF" src={url} style={{ width: '100%', height: 'calc(100vh - 160px)', border: 0 }} />;
}
