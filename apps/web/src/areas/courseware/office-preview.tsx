import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Modal, Typography } from 'antd';
import { OFFICE_PREVIEW_LIMITS, OFFICE_PREVIEW_MIMES, type CoursewareFileRow } from '@wantuo/shared';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import './office-preview.css';
import { coursewareStrings } from './strings';

/** Whether `preview` converts this file to HTML (.docx, .xlsx, .pptx); the legacy formats stay download-only. */
export const isOfficePreviewable = (f: Pick<CoursewareFileRow, 'mime' | 'file_id'>): boolean =>
  Boolean(f.file_id && f.mime && OFFICE_PREVIEW_MIMES[f.mime]);

/**
 * An office file's content in a dialog: `preview` converts it on the API (sanitised HTML, cached there), so nothing
 * of an office suite is loaded here; loading, error (with retry), empty, and a note when only the first sheets, rows
 * or slides are shown. Fits a 375 px phone (the dialog is the screen's width, the content scrolls, tables sideways).
 */
export function OfficePreviewDialog({ file, onClose }: { file: Pick<CoursewareFileRow, 'file_id' | 'name' | 'mime' | 'url'>; onClose: () => void }) {
  const s = coursewareStrings.use();
  const q = useQuery({
    queryKey: queryKey('preview', { id: file.file_id! }),
    queryFn: () => get('preview', { id: file.file_id! }),
    staleTime: 300_000,
    retry: false,
  });
  const format = file.mime ? OFFICE_PREVIEW_MIMES[file.mime] : undefined;
  const count = q.data?.pages ?? null;
  return (
    <Modal
      open
      title={file.name}
      onCancel={onClose}
      width={880}
      destroyOnHidden
      footer={
        <Button href={q.data?.url ?? file.url} target="_blank" rel="noreferrer">
          {s('file.download')}
        </Button>
      }
    >
      {q.isLoading && <Loading />}
      {q.isError && <LoadError message={q.error.message} onRetry={() => void q.refetch()} />}
      {q.data && (
        <>
          {count !== null && format !== 'docx' && (
            <Typography.Text type="secondary">{s(format === 'xlsx' ? 'file.sheets' : 'file.slides', { n: count })}</Typography.Text>
          )}
          {q.data.truncated && (
            <Alert
              type="info"
              showIcon
              style={{ margin: '8px 0' }}
              message={s(
                format === 'xlsx' ? 'file.truncated_sheet' : format === 'pptx' ? 'file.truncated_slides' : 'file.truncated_doc',
                OFFICE_PREVIEW_LIMITS,
              )}
            />
          )}
          {q.data.html ? (
            // the API converted and sanitised this HTML (sanitize-html: no scripts, styles, handlers or unsafe links)
            <div className="office-preview rich-text" data-testid="office-preview" dangerouslySetInnerHTML={{ __html: q.data.html }} />
          ) : (
            <EmptyState description={s('file.preview_empty')} />
          )}
        </>
      )}
    </Modal>
  );
}
