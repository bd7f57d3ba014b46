import { Button, Flex, InputNumber, Space, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Document, Page } from 'react-pdf';
import { useSearchParams } from 'react-router';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { coursewareStrings } from '../courseware/strings';
import { PDF_OPTIONS } from './pdfjs';

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

/** Only files of this site (public uploads, signed courseware URLs): never another origin. */
export const isViewerUrl = (url: string) => /^\/(uploads|api)\/[\w\-./%?=&]+$/.test(url) && !url.includes('..');

/**
 * /pdf-viewer?url=…&title=…: a PDF of this site with PDF.js (react-pdf): one page at a time, previous/next and a page
 * number, zoom, fit to width (the default, so a phone shows the whole width), download. A courseware PDF's URL is
 * signed and short-lived: an expired one says so.
 */
export default function PdfViewer() {
  const s = coursewareStrings.use();
  const [params] = useSearchParams();
  const url = params.get('url') ?? '';
  const title = params.get('title') ?? '';
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [pages, setPages] = useState(0);
  const [page, setPage] = useState(1);
  // null: fit to width; else a zoom of the page's own size
  const [zoom, setZoom] = useState<number | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(([e]) => setWidth(Math.floor(e.contentRect.width)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  if (!isViewerUrl(url)) return <EmptyState description={s('pdf.bad_url')} />;
  const step = (dir: 1 | -1) => {
    const current = zoom ?? 1;
    const next = dir > 0 ? ZOOMS.find((z) => z > current) : [...ZOOMS].reverse().find((z) => z < current);
    if (next) setZoom(next);
  };
  return (
    <Flex vertical gap={8} style={{ minHeight: 'calc(100vh - 160px)' }}>
      <Flex
        wrap
        gap={8}
        justify="space-between"
        align="center"
        style={{ position: 'sticky', top: 0, zIndex: 2, background: 'var(--ant-color-bg-container, #fff)', padding: '8px 0' }}
      >
        <Typography.Text strong ellipsis style={{ maxWidth: '100%' }}>
          {title}
        </Typography.Text>
        <Space wrap size={4}>
          <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)} aria-label={s('pdf.prev')}>
            ‹
          </Button>
          <InputNumber
            size="small"
            min={1}
            max={Math.max(1, pages)}
            value={page}
            onChange={(v) => v && setPage(Math.min(Math.max(1, v), pages || 1))}
            style={{ width: 64 }}
            aria-label="page"
          />
          <span data-testid="pdf-page-info">{s('pdf.page', { page, pages: pages || '…' })}</span>
          <Button size="small" disabled={pages === 0 || page >= pages} onClick={() => setPage(page + 1)} aria-label={s('pdf.next')}>
            ›
          </Button>
          <Tooltip title={s('pdf.zoom_out')}>
            <Button size="small" onClick={() => step(-1)} aria-label={s('pdf.zoom_out')}>
              −
            </Button>
          </Tooltip>
          {zoom !== null && <span style={{ minWidth: 44, textAlign: 'center', display: 'inline-block' }}>{`${Math.round(zoom * 100)}%`}</span>}
          <Tooltip title={s('pdf.zoom_in')}>
            <Button size="small" onClick={() => step(1)} aria-label={s('pdf.zoom_in')}>
              +
            </Button>
          </Tooltip>
          <Button size="small" type={zoom === null ? 'primary' : 'default'} onClick={() => setZoom(null)}>
            {s('pdf.fit_width')}
          </Button>
          <Button size="small" href={url} target="_blank" rel="noreferrer">
            {s('pdf.download')}
          </Button>
        </Space>
      </Flex>
      <div ref={box} style={{ width: '100%', overflow: 'auto', background: '#f0f2f5', textAlign: 'center' }}>
        <Document
          file={url}
          options={PDF_OPTIONS}
          loading={<Loading />}
          error={<LoadError message={s('pdf.failed')} />}
          onLoadSuccess={(doc) => {
            setPages(doc.numPages);
            setPage((p) => Math.min(p, doc.numPages));
          }}
        >
          {width > 0 && (
            <Page
              pageNumber={page}
              width={zoom === null ? width : undefined}
              scale={zoom ?? undefined}
              loading={<Loading />}
              renderAnnotationLayer
              renderTextLayer
              className="pdf-page"
            />
          )}
        </Document>
      </div>
    </Flex>
  );
}
