import { useQuery } from '@tanstack/react-query';
import { Card, Input, Typography } from 'antd';
import type { SiteResource } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { useResourceColumns } from './common';
import { resourceStrings } from './strings';

const PAGE_SIZE = 20;

/** /resource: the platform's public files (resource), paged on the server, searchable by title; no sign-in needed. */
export default function PublicResources() {
  const s = resourceStrings.use();
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const input = { page, limit: PAGE_SIZE, ...(keyword ? { keyword } : {}) };
  const q = useQuery({ queryKey: queryKey('resource', input), queryFn: () => get('resource', input) });
  const columns = useResourceColumns();
  return (
    <Card title={s('public.title')}>
      <Typography.Paragraph type="secondary">{s('public.lead')}</Typography.Paragraph>
      <Input.Search
        allowClear
        placeholder={s('search')}
        maxLength={50}
        style={{ maxWidth: 320, marginBottom: 12 }}
        onSearch={(v) => {
          setKeyword(v.trim());
          setPage(1);
        }}
      />
      <ServerTable<SiteResource>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE_SIZE}
        columns={columns}
        size="middle"
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <EmptyState description={s('public.empty')} /> }}
        pagination={{ hideOnSinglePage: true }}
      />
    </Card>
  );
}
