import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Input } from 'antd';
import { type OwnedCoursewareRow } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { CoursewareTags, OwnedTag } from './common';
import { coursewareStrings } from './strings';

const PAGE = 20;

/** /principal_courseware and /principal_teaching: the courseware the institution owns (bought and its own); open one. */
export default function OwnedCourseware() {
  const s = coursewareStrings.use();
  const clock = useSchoolClock();
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const params = { keyword: keyword || undefined, page, limit: PAGE };
  const list = useQuery({
    queryKey: queryKey('schoolCoursewareList', params),
    queryFn: () => get('schoolCoursewareList', params),
    placeholderData: keepPreviousData,
  });
  return (
    <Card>
      <Flex vertical gap={16}>
        <Flex wrap gap={8} justify="space-between">
          <Input.Search
            allowClear
            placeholder={s('keyword')}
            style={{ width: 240 }}
            onSearch={(v) => {
              setPage(1);
              setKeyword(v.trim());
            }}
          />
          <Button onClick={() => navigate('/CoursewareResource')}>{s('owned.browse')}</Button>
        </Flex>
        <ServerTable<OwnedCoursewareRow>
          query={list}
          page={page}
          onPage={setPage}
          pageSize={PAGE}
          scroll={{ x: 680 }}
          locale={{
            emptyText: keyword ? (
              <EmptyState description={s('empty')} />
            ) : (
              <EmptyState description={s('owned.empty')}>
                <Button type="primary" onClick={() => navigate('/CoursewareResource')}>
                  {s('owned.browse')}
                </Button>
              </EmptyState>
            ),
          }}
          columns={[
            { title: s('col.title'), dataIndex: 'title' },
            { title: s('col.tags'), key: 'tags', render: (_, r) => <CoursewareTags row={r} /> },
            { title: s('col.sections'), dataIndex: 'sections', width: 80, render: (n: number) => s('sections_n', { n }) },
            { title: s('col.state'), key: 'state', width: 90, render: (_, r) => <OwnedTag row={r} /> },
            { title: s('col.bought_at'), dataIndex: 'bought_at', width: 150, render: (v: string | null) => (v ? clock.dateTime(v) : '—') },
            { title: s('col.method'), dataIndex: 'method', width: 90, render: (m: 'balance' | 'wechat' | null) => (m ? s(`method.${m}`) : '—') },
            {
              title: s('col.actions'),
              key: 'open',
              width: 110,
              render: (_, r) => (
                <Button size="small" type="primary" onClick={() => navigate(`/principalCenter_lessonware?id=${r.id}`)}>
                  {s('open')}
                </Button>
              ),
            },
          ]}
        />
      </Flex>
    </Card>
  );
}
