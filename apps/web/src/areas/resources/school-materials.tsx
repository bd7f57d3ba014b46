import { useQuery } from '@tanstack/react-query';
import { Card, Flex, Input, Select, Typography } from 'antd';
import type { SiteResource } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { useResourceColumns } from './common';
import { resourceStrings } from './strings';

const PAGE_SIZE = 20;

/** /principal_downloads: the platform's materials for schools (dataDownload) by subject, grade and title, paged on the server. */
export default function SchoolMaterials() {
  const s = resourceStrings.use();
  const [page, setPage] = useState(1);
  const [subject, setSubject] = useState<string | undefined>();
  const [grade, setGrade] = useState<string | undefined>();
  const [keyword, setKeyword] = useState('');
  const input = { page, limit: PAGE_SIZE, ...(subject ? { subject } : {}), ...(grade ? { grade } : {}), ...(keyword ? { keyword } : {}) };
  const q = useQuery({ queryKey: queryKey('dataDownload', input), queryFn: () => get('dataDownload', input), placeholderData: (prev) => prev });
  const columns = useResourceColumns({ subject: true });
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  return (
    <Card title={s('school.title')}>
      <Typography.Paragraph type="secondary">{s('school.lead')}</Typography.Paragraph>
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <Select
          allowClear
          aria-label={s('col.subject')}
          placeholder={s('all_subjects')}
          style={{ width: 140 }}
          value={subject}
          onChange={reset(setSubject)}
          options={(q.data?.subjects ?? []).map((v) => ({ value: v, label: v }))}
        />
        <Select
          allowClear
          aria-label={s('col.grade')}
          placeholder={s('all_grades')}
          style={{ width: 140 }}
          value={grade}
          onChange={reset(setGrade)}
          options={(q.data?.grades ?? []).map((v) => ({ value: v, label: v }))}
        />
        <Input.Search allowClear placeholder={s('search')} maxLength={50} style={{ maxWidth: 260 }} onSearch={(v) => reset(setKeyword)(v.trim())} />
      </Flex>
      <ServerTable<SiteResource>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE_SIZE}
        columns={columns}
        size="middle"
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <EmptyState description={s('school.empty')} /> }}
      />
    </Card>
  );
}
