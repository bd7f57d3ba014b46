import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Input, Segmented, Space, Typography } from 'antd';
import { formatFen, type CoursewareCenterQuery, type CoursewareDictKind, type CoursewareRow } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { BuyDialog, CoursewareTags, DetailDrawer, DICT_KINDS, DictSelect, OwnedTag } from './common';
import { coursewareStrings } from './strings';

const PAGE = 20;
type Owned = 'all' | 'yes' | 'no';

/** /CoursewareResource: the catalogue by subject, stage, grade, term, series and edition, with price and whether the school owns it; buy. */
export default function CoursewareCatalogue() {
  const s = coursewareStrings.use();
  const [filters, setFilters] = useState<Partial<Record<`${CoursewareDictKind}_id`, number>>>({});
  const [keyword, setKeyword] = useState('');
  const [owned, setOwned] = useState<Owned>('all');
  const [page, setPage] = useState(1);
  const [detail, setDetail] = useState<number | null>(null);
  const [buying, setBuying] = useState<CoursewareRow | null>(null);
  const params: Partial<CoursewareCenterQuery> = {
    ...filters,
    keyword: keyword || undefined,
    owned: owned === 'all' ? undefined : owned === 'yes',
    page,
    limit: PAGE,
  };
  const list = useQuery({
    queryKey: queryKey('coursewareCenter', params),
    queryFn: () => get('coursewareCenter', params),
    placeholderData: keepPreviousData,
  });
  const filtered = Object.keys(filters).length > 0 || keyword !== '' || owned !== 'all';

  return (
    <Card>
      <Flex vertical gap={16}>
        <Flex wrap gap={8}>
          {DICT_KINDS.map((kind) => (
            <DictSelect
              key={kind}
              kind={kind}
              value={filters[`${kind}_id`]}
              onChange={(v) => {
                setPage(1);
                setFilters((f) => {
                  const next = { ...f };
                  if (v === undefined) delete next[`${kind}_id`];
                  else next[`${kind}_id`] = v;
                  return next;
                });
              }}
            />
          ))}
          <Input.Search
            allowClear
            placeholder={s('keyword')}
            style={{ width: 220 }}
            onSearch={(v) => {
              setPage(1);
              setKeyword(v.trim());
            }}
          />
          <Segmented<Owned>
            value={owned}
            onChange={(v) => {
              setPage(1);
              setOwned(v);
            }}
            options={[
              { value: 'all', label: s('owned.all') },
              { value: 'yes', label: s('owned.yes') },
              { value: 'no', label: s('owned.no') },
            ]}
          />
        </Flex>
        <ServerTable<CoursewareRow>
          query={list}
          page={page}
          onPage={setPage}
          pageSize={PAGE}
          scroll={{ x: 760 }}
          locale={{ emptyText: <EmptyState description={filtered ? s('empty') : undefined} /> }}
          columns={[
            {
              title: s('col.title'),
              dataIndex: 'title',
              render: (title: string, r) => (
                <Button type="link" style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }} onClick={() => setDetail(r.id)}>
                  {title}
                </Button>
              ),
            },
            { title: s('col.tags'), key: 'tags', render: (_, r) => <CoursewareTags row={r} /> },
            { title: s('col.sections'), dataIndex: 'sections', width: 80, render: (n: number) => s('sections_n', { n }) },
            {
              title: s('col.price'),
              dataIndex: 'price_fen',
              width: 100,
              render: (f: number) => <Typography.Text strong>¥{formatFen(f)}</Typography.Text>,
            },
            { title: s('col.state'), key: 'owned', width: 90, render: (_, r) => <OwnedTag row={r} /> },
            {
              title: s('col.actions'),
              key: 'actions',
              width: 150,
              render: (_, r) => (
                <Space size={4}>
                  <Button size="small" onClick={() => setDetail(r.id)}>
                    {s('detail')}
                  </Button>
                  {!r.owned && (
                    <Button size="small" type="primary" onClick={() => setBuying(r)}>
                      {s('buy')}
                    </Button>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Flex>
      <DetailDrawer id={detail} onClose={() => setDetail(null)} onBuy={(r) => setBuying(r)} />
      <BuyDialog row={buying} onClose={() => setBuying(null)} />
    </Card>
  );
}
