import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Modal, Popconfirm, Segmented, Select, Space, Table, Upload } from 'antd';
import type { StudentImportResult, StudentRow } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAction } from '../../api/action';
import { ApiError, get, upload } from '../../api/http';
import { queryKey } from '../../api/query';
import { feedback } from '../../api/feedback';
import { ListToolbar } from '../../components/list-toolbar';
import { ServerTable } from '../../components/server-table';
import { useSchoolToday } from '../../lib/school-time';
import { download, useStudentColumns } from './student-common';
import { studentStrings } from './strings';

const PAGE_SIZE = 20;

/** The import dialog: template download, dry run with its problems, then the all-or-nothing import. */
function ImportDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: () => void }) {
  const ss = studentStrings.use();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<StudentImportResult | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async (f: File, dryRun: '1' | '0') => {
    const fd = new FormData();
    fd.append('dry_run', dryRun);
    fd.append('file', f);
    setBusy(true);
    try {
      const res = await upload('studentImport', fd);
      setResult(res);
      if (dryRun === '0') {
        feedback().message.success(ss('stu.imported', { count: res.imported }));
        onImported();
        close();
      }
    } catch (e) {
      // the problems of a refused import come back with the error
      if (e instanceof ApiError && e.data && typeof e.data === 'object' && 'problems' in e.data) setResult(e.data as StudentImportResult);
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    setFile(null);
    setResult(null);
    onClose();
  };
  return (
    <Modal open={open} title={ss('stu.import_title')} onCancel={close} footer={null} width={720} destroyOnHidden>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <div>{ss('stu.import_step1')}</div>
        <Button onClick={() => void download('studentImportTemplate', { format: 'xlsx' }, '学生导入模板.xlsx').catch(() => {})}>
          {ss('stu.template_xlsx')}
        </Button>
        <div>{ss('stu.import_step2')}</div>
        <Upload
          accept=".xlsx,.csv"
          showUploadList={false}
          beforeUpload={(f) => {
            setFile(f);
            setResult(null);
            void send(f, '1');
            return false;
          }}
        >
          <Button loading={busy && !result}>{ss('stu.choose_file')}</Button>
        </Upload>
        {file && <div style={{ wordBreak: 'break-all' }}>{file.name}</div>}
        {result && (
          <>
            <Alert
              type={result.problems.length ? 'warning' : 'success'}
              title={ss('stu.check_result', { total: result.total, valid: result.valid, problems: result.problems.length })}
            />
            {result.problems.length > 0 && (
              <Table
                size="small"
                rowKey={(p) => `${p.row}-${p.column}-${p.message}`}
                dataSource={result.problems}
                pagination={{ pageSize: 10, showSizeChanger: false }}
                scroll={{ x: 480 }}
                columns={[
                  { title: ss('stu.row'), dataIndex: 'row', width: 70 },
                  { title: ss('stu.column'), dataIndex: 'column', width: 110 },
                  { title: ss('stu.problem'), dataIndex: 'message' },
                ]}
              />
            )}
            <div>{ss('stu.import_step3')}</div>
            <Button
              type="primary"
              disabled={!file || result.problems.length > 0 || result.valid === 0}
              loading={busy}
              onClick={() => file && void send(file, '0')}
            >
              {ss('stu.do_import', { count: result.valid })}
            </Button>
          </>
        )}
      </Space>
    </Modal>
  );
}

/** /principal_educationals: the school's students, server-paged, searchable and filtered; import, export, archive. */
export default function StudentList() {
  const ss = studentStrings.use();
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const [grade, setGrade] = useState<string | undefined>();
  const [className, setClassName] = useState<string | undefined>();
  const [status, setStatus] = useState<0 | 1>(1);
  const [page, setPage] = useState(1);
  const [importing, setImporting] = useState(false);
  const filters = { status, ...(keyword ? { keyword } : {}), ...(grade ? { grade } : {}), ...(className ? { class_name: className } : {}) };
  const col = useStudentColumns();
  const q = useQuery({
    queryKey: queryKey('studentList', { ...filters, page, limit: PAGE_SIZE }),
    queryFn: () => get('studentList', { ...filters, page, limit: PAGE_SIZE }),
  });
  const grades = useQuery({ queryKey: queryKey('schoolGrade'), queryFn: () => get('schoolGrade') });
  const classes = grades.data?.find((g) => g.grade === grade)?.classes ?? [];
  const del = useAction('delStudent', { success: ss('stu.archived_ok'), onDone: () => q.refetch() });
  const archive = (s: StudentRow) => del.run({ id: s.id, version: s.version });
  const stamp = useSchoolToday().replace(/-/g, '');

  return (
    <Card title={ss('stu.title')}>
      {/* in the body, not the card header: at 375 px the header would squeeze the title to nothing */}
      <ListToolbar
        search={{
          placeholder: ss('stu.search'),
          width: 260,
          onSearch: (v) => {
            setKeyword(v);
            setPage(1);
          },
        }}
        filters={
          <>
            <Select
              allowClear
              placeholder={ss('stu.all_grades')}
              style={{ width: 130 }}
              value={grade}
              options={grades.data?.map((g) => ({ value: g.grade, label: g.grade }))}
              onChange={(v) => {
                setGrade(v);
                setClassName(undefined);
                setPage(1);
              }}
            />
            <Select
              allowClear
              placeholder={ss('stu.all_classes')}
              style={{ width: 120 }}
              value={className}
              disabled={!grade}
              options={classes.map((c) => ({ value: c, label: c }))}
              onChange={(v) => {
                setClassName(v);
                setPage(1);
              }}
            />
            <Segmented
              value={status}
              onChange={(v) => {
                setStatus(v as 0 | 1);
                setPage(1);
              }}
              options={[
                { value: 1, label: ss('stu.active') },
                { value: 0, label: ss('stu.archived') },
              ]}
            />
          </>
        }
        actions={
          <>
            <Button type="primary" onClick={() => navigate('/principal_educationalsStudent_add')}>
              {ss('stu.add')}
            </Button>
            <Button onClick={() => setImporting(true)}>{ss('stu.import')}</Button>
          </>
        }
        exportAs={{ action: 'studentExport', params: { ...filters, format: 'xlsx' }, filename: `学生名单-${stamp}.xlsx`, label: ss('stu.export') }}
      />
      <ServerTable<StudentRow>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE_SIZE}
        scroll={{ x: 1100 }}
        columns={[
          col.name,
          col.gender,
          col.school,
          col.care,
          {
            title: ss('stu.guardians'),
            key: 'guardians',
            render: (_, s) => s.guardians.map((g) => <div key={g.user_id}>{`${g.name}（${g.relation}）${g.mobile}`}</div>),
          },
          col.shuttle,
          col.dinner,
          col.allergies,
          {
            title: ss('stu.actions'),
            key: 'actions',
            width: 200,
            fixed: 'right',
            render: (_, s) => (
              <Space size={0} wrap>
                <Button type="link" size="small" onClick={() => navigate(`/principal_educationals_student?id=${s.id}`)}>
                  {ss('stu.edit')}
                </Button>
                <Button type="link" size="small" onClick={() => navigate(`/principal_educationals_studentrecord?id=${s.id}`)}>
                  {ss('stu.record')}
                </Button>
                {s.status === 1 && (
                  <Popconfirm
                    title={ss('stu.archive')}
                    description={<div style={{ maxWidth: 260 }}>{ss('stu.archive_confirm')}</div>}
                    onConfirm={() => archive(s)}
                  >
                    <Button type="link" size="small" danger>
                      {ss('stu.archive')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <ImportDialog open={importing} onClose={() => setImporting(false)} onImported={() => void q.refetch()} />
    </Card>
  );
}
