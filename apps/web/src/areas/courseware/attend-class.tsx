import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Button, Drawer, Flex, Select, Space, Typography } from 'antd';
import { planMinutes, planSlides, Role, type LessonPlanDetail, type LessonPlanItem } from '@wantuo/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Document, Page } from 'react-pdf';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSession } from '../../stores/session';
import { PDF_OPTIONS } from '../public/pdfjs';
import { lessonStrings } from './lesson-strings';
import './attend-class.css';

/** Where "end" goes when the class was opened directly: each role's lesson list. */
const LESSONS_OF: Partial<Record<Role, string>> = {
  [Role.Admin]: '/sparePart',
  [Role.Teacher]: '/teacher_lessons',
  [Role.HeadTeacher]: '/A_lessons',
};
/** The plan is fetched again every 5 minutes: its file URLs are signed for 10. */
const REFRESH_MS = 300_000;

/** The bytes of a PDF of the plan, fetched once per file and kept while the class goes on (a signed URL expires; the bytes do not). */
const pdfQuery = (fileId: number, url: () => string | null) => ({
  queryKey: ['lessonPdf', fileId],
  queryFn: async () => {
    const href = url();
    if (!href) throw new Error('locked');
    const res = await fetch(href, { credentials: 'same-origin' });
    if (!res.ok) throw new Error(String(res.status));
    return res.arrayBuffer();
  },
  staleTime: Infinity,
  gcTime: 3_600_000,
  retry: 1,
});

/**
 * /attendClass?id=<plan>: a lesson plan in class. Full screen (the header hidden; a button puts the stage itself in
 * full screen), the plan's courseware pages one after another: a PDF's chosen pages fitted to the screen, images,
 * videos (opened in their own window), other files to download, a locked file said plainly. Turn pages with the
 * buttons, the arrow keys or a swipe; the steps and objectives in a side panel.
 */
export default function AttendClass() {
  const s = lessonStrings.use();
  const user = useSession((st) => st.user);
  const location = useLocation();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const info = useQuery({
    queryKey: queryKey('prepareLessonsInfo', { id }),
    queryFn: () => get('prepareLessonsInfo', { id }),
    enabled: id !== null && user !== null,
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: true,
  });
  if (!user)
    return (
      <EmptyState description={s('attend.sign_in')}>
        <Link to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`}>
          <Button type="primary">{s('attend.login')}</Button>
        </Link>
      </EmptyState>
    );
  if (id === null)
    return (
      <EmptyState description={s('attend.no_plan')}>
        {LESSONS_OF[user.role] && (
          <Link to={LESSONS_OF[user.role]!}>
            <Button type="primary">{s('back')}</Button>
          </Link>
        )}
      </EmptyState>
    );
  if (info.isLoading) return <Loading />;
  if (info.isError || !info.data) return <LoadError message={info.error?.message} onRetry={() => void info.refetch()} />;
  return <Stage plan={info.data} home={LESSONS_OF[user.role] ?? '/'} />;
}

function Stage({ plan, home }: { plan: LessonPlanDetail; home: string }) {
  const s = lessonStrings.use();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const stage = useRef<HTMLDivElement>(null);
  const area = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ w: 0, h: 0 });
  const [index, setIndex] = useState(0);
  const [full, setFull] = useState(false);
  const [stepsOpen, setStepsOpen] = useState(false);
  const slides = useMemo(
    () => planSlides(plan.items_list.map((i) => ({ kind: i.kind, pages: i.pages, total: i.total_pages, open: i.open }))),
    [plan.items_list],
  );
  // a file's latest URL, read when it is fetched: the plan in the cache is fetched again before its URLs expire
  const urlOf = useCallback(
    (fileId: number) => () =>
      qc.getQueryData<LessonPlanDetail>(queryKey('prepareLessonsInfo', { id: plan.id }))?.items_list.find((i) => i.file_id === fileId)?.url ?? null,
    [qc, plan.id],
  );

  const last = slides.length - 1;
  const go = useCallback((to: number) => setIndex(Math.max(0, Math.min(last, to))), [last]);
  const toggleFull = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void stage.current?.requestFullscreen?.().catch(() => undefined);
  }, []);

  useEffect(() => {
    const el = area.current;
    if (!el) return;
    const ro = new ResizeObserver(([e]) => setSize({ w: Math.floor(e.contentRect.width), h: Math.floor(e.contentRect.height) }));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  useEffect(() => {
    const onChange = () => setFull(document.fullscreenElement === stage.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLElement && e.target.closest('input, textarea, .ant-select')) return;
      if (['ArrowRight', 'PageDown', ' ', 'Enter'].includes(e.key)) setIndex((i) => Math.min(last, i + 1));
      else if (['ArrowLeft', 'PageUp', 'Backspace'].includes(e.key)) setIndex((i) => Math.max(0, i - 1));
      else if (e.key === 'Home') setIndex(0);
      else if (e.key === 'End') setIndex(last);
      else if (e.key === 'f' || e.key === 'F') toggleFull();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [last, toggleFull]);
  // the next PDF is fetched while this page is shown
  useEffect(() => {
    const next = slides
      .slice(index + 1)
      .find(
        (x) =>
          !x.locked && plan.items_list[x.item].kind === 'pdf' && plan.items_list[x.item].file_id !== plan.items_list[slides[index]?.item]?.file_id,
      );
    if (next) prefetch(qc, plan.items_list[next.item], urlOf);
  }, [index, slides, plan.items_list, qc, urlOf]);

  const swipe = useRef<number | null>(null);
  const slide = slides[index];
  const item = slide ? plan.items_list[slide.item] : null;
  const leave = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    if ((window.history.state as { idx?: number } | null)?.idx) navigate(-1);
    else navigate(home);
  };

  return (
    <div ref={stage} className={`attend${full ? ' attend-full' : ''}`}>
      <div className="attend-bar">
        <Flex vertical style={{ minWidth: 0, flex: '1 1 auto' }}>
          <Typography.Text strong ellipsis className="attend-title" data-testid="attend-title">
            {plan.title}
          </Typography.Text>
          <Typography.Text ellipsis className="attend-sub">
            {plan.class_name} · {plan.lesson_date}
            {item ? ` · ${item.name}${slide.page ? ` · ${s('attend.page_of', { page: slide.page })}` : ''}` : ''}
          </Typography.Text>
        </Flex>
        <Space size={4} wrap={false}>
          <Button size="small" ghost onClick={() => setStepsOpen(true)}>
            {s('attend.steps')}
          </Button>
          {document.fullscreenEnabled && (
            <Button size="small" ghost onClick={toggleFull}>
              {full ? s('attend.exit_fullscreen') : s('attend.fullscreen')}
            </Button>
          )}
          <Button size="small" danger onClick={leave}>
            {s('attend.leave')}
          </Button>
        </Space>
      </div>
      <div
        ref={area}
        className="attend-area"
        onPointerDown={(e) => (swipe.current = e.pointerType === 'mouse' ? null : e.clientX)}
        onPointerUp={(e) => {
          if (swipe.current === null) return;
          const dx = e.clientX - swipe.current;
          swipe.current = null;
          if (Math.abs(dx) > 50) go(index + (dx < 0 ? 1 : -1));
        }}
      >
        {!slide || !item ? (
          <EmptyState description={s('attend.no_slides')} />
        ) : slide.locked ? (
          <EmptyState description={`${item.name}：${s('locked')}`} />
        ) : item.kind === 'pdf' ? (
          <PdfSlide key={item.position} item={item} page={slide.page ?? 1} w={size.w} h={size.h} url={urlOf(item.file_id)} />
        ) : item.kind === 'image' ? (
          <img className="attend-image" src={item.url ?? undefined} alt={item.name} style={{ maxWidth: size.w, maxHeight: size.h }} />
        ) : (
          <Flex vertical align="center" gap={16} className="attend-file">
            <Typography.Title level={3} style={{ color: 'inherit', margin: 0, textAlign: 'center' }}>
              {item.name}
            </Typography.Title>
            {item.kind === 'other' && <Typography.Text style={{ color: 'inherit' }}>{s('attend.download_only')}</Typography.Text>}
            <Button type="primary" size="large" href={item.url ?? undefined} target="_blank" rel="noreferrer">
              {item.kind === 'video' ? s('attend.open_video') : s('attend.download')}
            </Button>
          </Flex>
        )}
      </div>
      <div className="attend-nav">
        <Button onClick={() => go(index - 1)} disabled={index <= 0} aria-label={s('attend.prev')}>
          ‹ {s('attend.prev')}
        </Button>
        <Flex align="center" gap={8} style={{ minWidth: 0 }}>
          <span className="attend-counter" data-testid="attend-counter">
            {s('attend.counter', { n: slides.length ? index + 1 : 0, total: slides.length })}
          </span>
          {plan.items_list.length > 1 && (
            <Select<number>
              size="small"
              aria-label={s('attend.jump')}
              placeholder={s('attend.jump')}
              value={slide?.item}
              onChange={(itemIndex) => go(slides.findIndex((x) => x.item === itemIndex))}
              options={plan.items_list.map((i, n) => ({ value: n, label: `${n + 1}. ${i.name}` }))}
              popupMatchSelectWidth={false}
              className="attend-jump"
              getPopupContainer={() => stage.current ?? document.body}
            />
          )}
        </Flex>
        <Button type="primary" onClick={() => go(index + 1)} disabled={index >= last} aria-label={s('attend.next')}>
          {s('attend.next')} ›
        </Button>
      </div>
      <Drawer
        open={stepsOpen}
        onClose={() => setStepsOpen(false)}
        title={s('attend.steps')}
        getContainer={() => stage.current ?? document.body}
        size="default"
      >
        {plan.objectives && (
          <>
            <Typography.Text strong>{s('objectives')}</Typography.Text>
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{plan.objectives}</Typography.Paragraph>
          </>
        )}
        <Typography.Text type="secondary">{s('minutes_total', { n: planMinutes(plan.steps) })}</Typography.Text>
        <ol className="attend-steps">
          {plan.steps.map((st, i) => (
            <li key={i}>
              <Typography.Text strong>
                {st.title}
                {st.minutes ? s('attend.minutes', { n: st.minutes }) : ''}
              </Typography.Text>
              {st.content && <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{st.content}</Typography.Paragraph>}
            </li>
          ))}
        </ol>
        <Typography.Text type="secondary">{s('attend.keys')}</Typography.Text>
      </Drawer>
    </div>
  );
}

function prefetch(qc: QueryClient, item: LessonPlanItem, urlOf: (fileId: number) => () => string | null) {
  void qc.prefetchQuery(pdfQuery(item.file_id, urlOf(item.file_id)));
}

/** One page of a PDF item, as large as the stage allows (its width or its height, whichever binds). */
function PdfSlide({ item, page, w, h, url }: { item: LessonPlanItem; page: number; w: number; h: number; url: () => string | null }) {
  const s = lessonStrings.use();
  const bytes = useQuery(pdfQuery(item.file_id, url));
  // pdf.js takes the bytes it is given (transfers them to its worker): a copy, so the cached ones stay whole
  const file = useMemo(() => (bytes.data ? { data: new Uint8Array(bytes.data.slice(0)) } : null), [bytes.data]);
  const [ratio, setRatio] = useState(1.414);
  if (bytes.isLoading) return <Loading />;
  if (bytes.isError || !file) return <LoadError message={s('attend.pdf_failed')} onRetry={() => void bytes.refetch()} />;
  const width = Math.max(100, Math.floor(Math.min(w, h / ratio)));
  return (
    <Document file={file} options={PDF_OPTIONS} loading={<Loading />} error={<LoadError message={s('attend.pdf_failed')} />}>
      {w > 0 && h > 0 && (
        <Page
          pageNumber={Math.min(page, item.total_pages ?? page)}
          width={width}
          renderTextLayer={false}
          renderAnnotationLayer={false}
          loading={<Loading />}
          className="attend-pdf-page"
          onLoadSuccess={(p) => setRatio(p.originalHeight / p.originalWidth)}
        />
      )}
    </Document>
  );
}
