import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Flex, List, Modal, Select, Space, Tag, Typography } from 'antd';
import {
  formatFen,
  type CoursewareDictKind,
  type CoursewareFileRow,
  type CoursewareRow,
  type CoursewareSectionRow,
  type FilePreview,
  type GetAction,
} from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { feedback } from '../../api/feedback';
import { get, post } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { PaymentDialog } from '../money/payment-dialog';
import { useMoneyRefresh, useSchool } from '../money/use-school';
import { isOfficePreviewable, OfficePreviewDialog } from './office-preview';
import { coursewareStrings } from './strings';

/** The action of each dictionary. */
export const DICT_ACTIONS = {
  subject: 'subjectList',
  discipline: 'disciplineList',
  grade: 'grade',
  term: 'term',
  tixi: 'tixi',
  edition: 'edition',
} as const satisfies Record<CoursewareDictKind, GetAction>;
export const DICT_KINDS = Object.keys(DICT_ACTIONS) as CoursewareDictKind[];

/** The owned courseware of the pickers (one read for the lessonware and files pages). */
export const OWNED_PICKER = { page: 1, limit: 100 };

/** One dictionary (they change rarely: kept for 10 minutes). */
export function useDict(kind: CoursewareDictKind, all = false) {
  const input = all ? { all: 1 as const } : {};
  return useQuery({
    queryKey: queryKey(DICT_ACTIONS[kind], input),
    queryFn: () => get(DICT_ACTIONS[kind], input),
    staleTime: 600_000,
  });
}

/** A select over one dictionary ("all" = no filter). */
export function DictSelect({
  kind,
  value,
  onChange,
  allowAll = true,
  style,
}: {
  kind: CoursewareDictKind;
  value?: number | null;
  onChange: (v: number | undefined) => void;
  allowAll?: boolean;
  style?: React.CSSProperties;
}) {
  const s = coursewareStrings.use();
  const dict = useDict(kind);
  return (
    <Select<number>
      aria-label={s(`dict.${kind}`)}
      placeholder={s(`dict.${kind}`)}
      allowClear={allowAll}
      loading={dict.isLoading}
      value={value ?? undefined}
      onChange={(v) => onChange(v ?? undefined)}
      options={(dict.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
      style={{ minWidth: 120, ...style }}
    />
  );
}

/** The dictionaries of a courseware as tags. */
export function CoursewareTags({ row }: { row: CoursewareRow }) {
  const tags = [row.discipline, row.grade, row.term, row.subject, row.edition, row.tixi].filter(Boolean);
  return (
    <Flex wrap gap={4}>
      {tags.map((t) => (
        <Tag key={t} style={{ marginInlineEnd: 0 }}>
          {t}
        </Tag>
      ))}
    </Flex>
  );
}

export function OwnedTag({ row }: { row: CoursewareRow }) {
  const s = coursewareStrings.use();
  if (row.own) return <Tag color="purple">{s('own')}</Tag>;
  return row.owned ? <Tag color="green">{s('owned')}</Tag> : <Tag>{s('not_owned')}</Tag>;
}

/** The viewer's address of a PDF file (a signed URL of this site). */
export const viewerHref = (file: { url: string; name: string }) => `/pdf-viewer?${new URLSearchParams({ url: file.url, title: file.name })}`;

/**
 * The files of a section, each with what can be done with it: PDFs in the viewer (coursewarePdf), images shown here
 * (preview), videos played, others downloaded. The list's URLs are signed for a while; opening asks for one signed now.
 */
export function SectionFiles({ sectionId }: { sectionId: number }) {
  const s = coursewareStrings.use();
  const navigate = useNavigate();
  const [opening, setOpening] = useState<number | null>(null);
  const [picture, setPicture] = useState<FilePreview | null>(null);
  const [office, setOffice] = useState<CoursewareFileRow | null>(null);
  const files = useQuery({
    queryKey: queryKey('coursewareFile', { section_id: sectionId }),
    queryFn: () => get('coursewareFile', { section_id: sectionId }),
    staleTime: 300_000,
  });
  /** asks for the file now (the errors are shown by the request wrapper) */
  const view = async (f: CoursewareFileRow) => {
    if (isOfficePreviewable(f)) return setOffice(f);
    setOpening(f.id);
    try {
      if (f.kind === 'pdf') navigate(viewerHref(await get('coursewarePdf', { section_id: sectionId, file_id: f.id })));
      else if (f.file_id) setPicture(await get('preview', { id: f.file_id }));
    } catch {
      // shown by the request wrapper
    } finally {
      setOpening(null);
    }
  };
  if (files.isLoading) return <Loading />;
  if (files.isError) return <LoadError message={files.error.message} onRetry={() => void files.refetch()} />;
  if (!files.data?.length) return <EmptyState description={s('no_files')} />;
  return (
    <>
      <List
        size="small"
        dataSource={files.data}
        renderItem={(f) => (
          <List.Item
            actions={[
              f.kind === 'pdf' || (f.kind === 'image' && f.file_id) || isOfficePreviewable(f) ? (
                <Button key="v" type="link" size="small" loading={opening === f.id} onClick={() => void view(f)}>
                  {s('file.view')}
                </Button>
              ) : f.kind === 'video' ? (
                <Button key="p" type="link" size="small" href={f.url} target="_blank" rel="noreferrer">
                  {s('file.play')}
                </Button>
              ) : (
                <Button key="d" type="link" size="small" href={f.url} target="_blank" rel="noreferrer">
                  {f.kind === 'image' ? s('file.view') : s('file.download')}
                </Button>
              ),
            ]}
          >
            <List.Item.Meta
              title={f.name}
              description={
                <Space size={8} wrap>
                  <Tag>{s(`file.${f.kind}`)}</Tag>
                  {f.pages && f.kind === 'pdf' ? <span>{s('file.pages', { n: f.pages })}</span> : null}
                  {f.kind === 'other' && !isOfficePreviewable(f) ? (
                    <Typography.Text type="secondary">{s('file.download_only')}</Typography.Text>
                  ) : null}
                </Space>
              }
            />
          </List.Item>
        )}
      />
      {office && <OfficePreviewDialog file={office} onClose={() => setOffice(null)} />}
      {picture && (
        <Modal open title={picture.name} footer={null} onCancel={() => setPicture(null)} width={720} destroyOnHidden>
          {picture.kind === 'image' ? (
            <img data-testid="file-preview-image" src={picture.url} alt={picture.name} style={{ maxWidth: '100%' }} />
          ) : (
            <Button href={picture.url} target="_blank" rel="noreferrer">
              {s('file.download')}
            </Button>
          )}
        </Modal>
      )}
    </>
  );
}

/** The sections of a courseware; owned ones unfold into their files. */
export function SectionList({
  sections,
  owned,
  onEdit,
}: {
  sections: CoursewareSectionRow[];
  owned: boolean;
  onEdit?: (s: CoursewareSectionRow) => void;
}) {
  const s = coursewareStrings.use();
  const [open, setOpen] = useState<number | null>(sections[0]?.id ?? null);
  if (!sections.length) return <EmptyState />;
  return (
    <List
      dataSource={sections}
      renderItem={(sec) => (
        <List.Item style={{ display: 'block' }}>
          <Flex justify="space-between" align="center" gap={8} wrap>
            <Space>
              <Typography.Text strong>{sec.title}</Typography.Text>
              {sec.own && <Tag color="purple">{s('section.own_tag')}</Tag>}
              <Typography.Text type="secondary">
                {sec.files} {s('files')}
              </Typography.Text>
            </Space>
            <Space>
              {sec.own && onEdit && (
                <Button size="small" onClick={() => onEdit(sec)}>
                  {s('edit')}
                </Button>
              )}
              {owned && (
                <Button size="small" type={open === sec.id ? 'primary' : 'default'} onClick={() => setOpen(open === sec.id ? null : sec.id)}>
                  {s('files')}
                </Button>
              )}
            </Space>
          </Flex>
          {owned && open === sec.id && <SectionFiles sectionId={sec.id} />}
        </List.Item>
      )}
    />
  );
}

/** Buying a courseware through the one payment dialog: the balance (payment password) or WeChat Pay. */
export function BuyDialog({ row, onClose }: { row: CoursewareRow | null; onClose: () => void }) {
  const s = coursewareStrings.use();
  const school = useSchool(row !== null);
  const refresh = useMoneyRefresh();
  const qc = useQueryClient();
  if (!row || !school.data) return null;
  return (
    <PaymentDialog
      open
      title={s('pay.title', { title: row.title })}
      amountFen={row.price_fen}
      wechat={() => post('wechatPayCourseware', { id: row.id })}
      balance={{
        balanceFen: school.data.balance_fen,
        hasDealPwd: school.data.has_deal_pwd,
        lockedUntil: school.data.deal_pwd_locked_until,
        pay: async (deal_pwd, request_id) => {
          const r = await post('balancePayCourseware', { id: row.id, deal_pwd, request_id });
          if (!r.charged) feedback().message.info(s('pay.already'));
        },
      }}
      onPaid={() => {
        refresh();
        for (const a of ['coursewareCenter', 'coursewareData', 'schoolCoursewareList'] as const) void qc.invalidateQueries({ queryKey: queryKey(a) });
        feedback().message.success(s('pay.done'));
      }}
      onClose={onClose}
    />
  );
}

/** One courseware in a drawer: description, price, its sections (files once owned), buy. */
export function DetailDrawer({ id, onClose, onBuy }: { id: number | null; onClose: () => void; onBuy?: (row: CoursewareRow) => void }) {
  const s = coursewareStrings.use();
  const navigate = useNavigate();
  const detail = useQuery({ queryKey: queryKey('coursewareData', { id }), queryFn: () => get('coursewareData', { id }), enabled: id !== null });
  const c = detail.data;
  return (
    <Drawer open={id !== null} onClose={onClose} title={c?.title ?? ''} size="large" destroyOnHidden>
      {detail.isLoading && <Loading />}
      {detail.isError && <LoadError message={detail.error.message} onRetry={() => void detail.refetch()} />}
      {c && (
        <Flex vertical gap={16}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={s('col.tags')}>
              <CoursewareTags row={c} />
            </Descriptions.Item>
            <Descriptions.Item label={s('col.price')}>¥{formatFen(c.price_fen)}</Descriptions.Item>
            <Descriptions.Item label={s('col.state')}>
              <OwnedTag row={c} />
            </Descriptions.Item>
            <Descriptions.Item label={s('description')}>
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{c.description}</Typography.Paragraph>
            </Descriptions.Item>
          </Descriptions>
          {c.owned ? (
            <Button type="primary" onClick={() => navigate(`/principalCenter_lessonware?id=${c.id}`)}>
              {s('open')}
            </Button>
          ) : (
            onBuy && (
              <Flex align="center" gap={12} wrap>
                <Button type="primary" onClick={() => onBuy(c)}>
                  {s('buy')} ¥{formatFen(c.price_fen)}
                </Button>
                <Typography.Text type="secondary">{s('locked')}</Typography.Text>
              </Flex>
            )
          )}
          <Typography.Title level={5} style={{ margin: 0 }}>
            {s('sections')}
          </Typography.Title>
          <SectionList sections={c.sections_list} owned={c.owned} />
        </Flex>
      )}
    </Drawer>
  );
}
