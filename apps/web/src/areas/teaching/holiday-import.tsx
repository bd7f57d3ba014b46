import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Collapse, Flex, Modal, Select, Spin, Tag, Typography } from 'antd';
import type { HolidayImportPreview, HolidayYearsAnswer } from '@wantuo/shared';
import { useState, type ReactNode } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { LoadError } from '../../components/states';
import { useSchoolToday } from '../../lib/school-time';
import { wdKey } from './common';
import { holidayStrings } from './holiday-strings';
import { teachingStrings } from './strings';

/**
 * 导入法定节假日 on the school calendar (issue 27, item 3): pick a year of the API's national table (holidayYears: the
 * built-in years and those of its NATIONAL_HOLIDAYS_FILE), read what it would do
 * (the days to set, the school's own days kept, the sessions and dinner bookings it cancels, the make-up days and the
 * day contracts concerned), confirm. `onImported` refreshes the calendar.
 */
export default function HolidayImport({ onImported }: { onImported: () => void }) {
  const h = holidayStrings.use();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button data-testid="holiday-import" onClick={() => setOpen(true)}>
        {h('open')}
      </Button>
      {open && (
        <HolidayImportDialog
          onClose={() => setOpen(false)}
          onImported={() => {
            setOpen(false);
            onImported();
          }}
        />
      )}
    </>
  );
}

/** The year offered first: next year's when the table has it (published in November), else this year's, else the latest. */
export function defaultHolidayYear(years: readonly number[], today: string): number | undefined {
  const thisYear = Number(today.slice(0, 4));
  return years.includes(thisYear + 1) ? thisYear + 1 : years.includes(thisYear) ? thisYear : years.at(-1);
}

function HolidayImportDialog({ onClose, onImported }: { onClose: () => void; onImported: () => void }) {
  const h = holidayStrings.use();
  const today = useSchoolToday();
  const yq = useQuery({ queryKey: queryKey('holidayYears'), queryFn: () => get('holidayYears'), staleTime: 60_000 });
  return (
    <Modal
      open
      title={h('title')}
      onCancel={onClose}
      width={720}
      footer={
        yq.data?.list.length
          ? null
          : [
              <Button key="c" onClick={onClose}>
                {h('close')}
              </Button>,
            ]
      }
    >
      {yq.isError ? (
        <LoadError onRetry={() => void yq.refetch()} />
      ) : !yq.data ? (
        <Flex justify="center" style={{ padding: 24 }}>
          <Spin />
        </Flex>
      ) : yq.data.list.length === 0 ? (
        <Alert type="info" title={h('no_years')} />
      ) : (
        <HolidayYearPreview
          years={yq.data.list}
          initial={defaultHolidayYear(
            yq.data.list.map((y) => y.year),
            today,
          )}
          onClose={onClose}
          onImported={onImported}
        />
      )}
    </Modal>
  );
}

function HolidayYearPreview({
  years,
  initial,
  onClose,
  onImported,
}: {
  years: HolidayYearsAnswer['list'];
  initial: number | undefined;
  onClose: () => void;
  onImported: () => void;
}) {
  const h = holidayStrings.use();
  const [year, setYear] = useState<number | undefined>(initial);
  const q = useQuery({
    queryKey: queryKey('holidayImportPreview', { year: year! }),
    queryFn: () => get('holidayImportPreview', { year: year! }),
    enabled: year !== undefined,
  });
  const nothing = q.data !== undefined && q.data.set.length === 0;
  const importing = useAction('importHolidays', {
    success: (a) => h('done', { set: a.set, sessions: a.sessions_cancelled, bookings: a.bookings_cancelled, created: a.sessions_created }),
    onDone: onImported,
    // shown by the request wrapper; the plan may have changed: read it again
    onError: () => void q.refetch(),
  });
  const confirm = async () => {
    if (!q.data || year === undefined) return;
    await importing.run({ year, fingerprint: q.data.fingerprint });
  };
  return (
    <Flex vertical gap={12}>
      <Flex gap={8} align="center" wrap>
        <span>{h('year')}</span>
        <Select
          data-testid="holiday-year"
          value={year}
          onChange={setYear}
          options={years.map((y) => ({ value: y.year, label: y.from_file ? h('year_file', { year: y.year }) : String(y.year) }))}
          style={{ minWidth: 120 }}
        />
      </Flex>
      {q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : !q.data ? (
        <Flex justify="center" style={{ padding: 24 }}>
          <Spin />
        </Flex>
      ) : (
        <HolidayPreviewView p={q.data} />
      )}
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{h('close')}</Button>
        <Button
          type="primary"
          data-testid="holiday-import-confirm"
          loading={importing.busy}
          disabled={!q.data || nothing || q.isFetching}
          onClick={() => void confirm()}
        >
          {h('confirm')}
        </Button>
      </Flex>
    </Flex>
  );
}

/** What an import would do, read from holidayImportPreview (exported for its test). */
export function HolidayPreviewView({ p }: { p: HolidayImportPreview }) {
  const h = holidayStrings.use();
  const s = teachingStrings.use();
  const kindOf = (kind: 'holiday' | 'makeup', worksAs: number | null) =>
    kind === 'holiday' ? h('holiday') : h('makeup', { wd: s(wdKey(worksAs ?? 1)) });
  const tagOf = (kind: 'holiday' | 'makeup', worksAs: number | null) => (
    <Tag color={kind === 'holiday' ? 'red' : 'orange'}>{kindOf(kind, worksAs)}</Tag>
  );
  const none = <Typography.Text type="secondary">{h('none')}</Typography.Text>;
  return (
    <Flex vertical gap={8} data-testid="holiday-preview">
      <Typography.Text type="secondary">{h('source', { notice: p.notice, issued: p.issued })}</Typography.Text>
      {p.set.length === 0 ? (
        <Alert type="success" showIcon title={h('nothing')} data-testid="holiday-nothing" />
      ) : (
        <Alert type="info" showIcon title={h('today_hint', { today: p.today })} />
      )}
      {p.same.length > 0 && <Typography.Text type="secondary">{h('sec.same', { n: p.same.length })}</Typography.Text>}
      <Collapse
        size="small"
        defaultActiveKey={['sessions', 'bookings', 'makeup_sessions', 'skipped']}
        items={[
          {
            key: 'set',
            label: h('sec.set', { n: p.set.length }),
            children: p.set.length ? (
              <Rows
                testid="holiday-set"
                rows={p.set}
                render={(d) => (
                  <Flex wrap gap={8}>
                    <span>{d.day}</span>
                    {tagOf(d.kind, d.works_as)}
                    <Typography.Text type="secondary">{d.note}</Typography.Text>
                  </Flex>
                )}
              />
            ) : (
              none
            ),
          },
          {
            key: 'skipped',
            label: h('sec.skipped', { n: p.skipped.length }),
            children: p.skipped.length ? (
              <Rows
                testid="holiday-skipped"
                rows={p.skipped}
                render={(d) => (
                  <Flex wrap gap={8}>
                    <span>{d.day}</span>
                    <Typography.Text delete>{kindOf(d.kind, d.works_as)}</Typography.Text>
                    <Tag color="blue">{h('own', { what: kindOf(d.own.kind, d.own.works_as) })}</Tag>
                  </Flex>
                )}
              />
            ) : (
              none
            ),
          },
          {
            key: 'sessions',
            label: h('sec.sessions', { n: p.sessions.length }),
            children: p.sessions.length ? <Rows testid="holiday-sessions" rows={p.sessions} render={(x) => <SessionLine session={x} />} /> : none,
          },
          {
            key: 'bookings',
            label: h('sec.bookings', { n: p.bookings.count }),
            children: p.bookings.count ? (
              <>
                <Typography.Text type="secondary">{h('sec.bookings_hint')}</Typography.Text>
                <Rows
                  testid="holiday-bookings"
                  rows={p.bookings.list}
                  render={(b) => (
                    <Flex wrap gap={8}>
                      <span>{b.day}</span>
                      <strong>{b.student_name}</strong>
                      <Tag>{b.status === 'unpaid' ? h('unpaid') : h('booked')}</Tag>
                    </Flex>
                  )}
                />
              </>
            ) : (
              none
            ),
          },
          {
            key: 'makeup',
            label: h('sec.makeup', { n: p.makeup.length }),
            children: p.makeup.length ? (
              <>
                <Typography.Text type="secondary">{h('sec.makeup_hint')}</Typography.Text>
                <Rows
                  testid="holiday-makeup"
                  rows={p.makeup}
                  render={(m) => (
                    <Flex vertical gap={2}>
                      <Flex wrap gap={8}>
                        <span>{m.day}</span>
                        {tagOf('makeup', m.works_as)}
                        <Typography.Text type="secondary">{h('care_students', { n: m.care_students })}</Typography.Text>
                      </Flex>
                      <Typography.Text type="secondary">
                        {h('classes', { names: m.classes.length ? m.classes.map((c) => c.class_name).join('、') : h('none') })}
                      </Typography.Text>
                    </Flex>
                  )}
                />
              </>
            ) : (
              none
            ),
          },
          {
            key: 'makeup_sessions',
            label: h('sec.makeup_sessions', { n: p.makeup_sessions.length }),
            children: p.makeup_sessions.length ? (
              <Rows
                testid="holiday-makeup-sessions"
                rows={p.makeup_sessions}
                render={(x) => <SessionLine session={x} note={h('from_day', { day: x.from_day })} />}
              />
            ) : (
              none
            ),
          },
          {
            key: 'contracts',
            label: h('sec.contracts', { n: p.contracts.length }),
            children: p.contracts.length ? (
              <>
                <Typography.Text type="secondary">{h('sec.contracts_hint')}</Typography.Text>
                <Rows
                  testid="holiday-contracts"
                  rows={p.contracts}
                  render={(k) => (
                    <Flex wrap gap={8}>
                      <strong>{k.student_name}</strong>
                      <span>{k.no}</span>
                      <Typography.Text type="secondary">{h('closed_days', { start: k.start_day, end: k.end_day, n: k.closed_days })}</Typography.Text>
                    </Flex>
                  )}
                />
              </>
            ) : (
              none
            ),
          },
        ]}
      />
    </Flex>
  );
}

/** A plain list of rows, one per line, divided as the design's lists are. */
function Rows<T>({ testid, rows, render }: { testid: string; rows: T[]; render: (row: T) => ReactNode }) {
  return (
    <div data-testid={testid}>
      {rows.map((r, i) => (
        <div key={i} style={{ padding: '6px 0', borderBottom: i < rows.length - 1 ? '1px solid rgba(5, 5, 5, 0.06)' : undefined }}>
          {render(r)}
        </div>
      ))}
    </div>
  );
}

/** One session of the preview: its day, time, class and teacher (a make-up one also the day it copies). */
function SessionLine({
  session: x,
  note,
}: {
  session: { day: string; start_time: string; end_time: string; class_name: string; teacher_name: string };
  note?: string;
}) {
  return (
    <Flex wrap gap={8}>
      <span>{x.day}</span>
      <span>
        {x.start_time}-{x.end_time}
      </span>
      <strong>{x.class_name}</strong>
      <Typography.Text type="secondary">{x.teacher_name}</Typography.Text>
      {note && <Typography.Text type="secondary">{note}</Typography.Text>}
    </Flex>
  );
}
