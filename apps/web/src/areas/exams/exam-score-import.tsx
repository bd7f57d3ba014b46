import { UploadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Typography, Upload } from 'antd';
import type { ExamScoreImportResult } from '@wantuo/shared';
import { useState } from 'react';
import { feedback } from '../../api/feedback';
import { upload } from '../../api/http';
import { queryKey } from '../../api/query';
import { useExamApi } from './common';
import { examStrings } from './strings';

/** The score grid's .xlsx import: checked first (a dry run naming each bad row), then saved. */
export function ImportDialog({ examId, onClose }: { examId: number; onClose: () => void }) {
  const s = examStrings.use();
  const api = useExamApi();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ExamScoreImportResult | null>(null);
  // a file upload (multipart), so not useAction: a refusal is shown by the request wrapper
  const importing = useMutation({
    mutationFn: ({ form }: { form: FormData; dry: boolean }) => upload('examScoreImport', form),
    onSuccess: (r, { dry }) => {
      setResult(r);
      if (!dry && r.saved) {
        feedback().message.success(s('sc.import_done', { n: r.saved }));
        void qc.invalidateQueries({ queryKey: queryKey(api.scores) });
        onClose();
      }
    },
  });
  const busy = importing.isPending;
  const send = (dry: boolean) => {
    if (!file || busy) return;
    const form = new FormData();
    form.append('exam_id', String(examId));
    form.append('dry_run', dry ? '1' : '0');
    form.append('file', file);
    importing.mutate({ form, dry });
  };
  return (
    <Modal
      open
      title={s('sc.import_title')}
      onCancel={onClose}
      footer={[
        <Button key="c" onClick={onClose}>
          {s('cancel')}
        </Button>,
        <Button key="d" disabled={!file} loading={busy} onClick={() => send(true)}>
          {s('sc.import_check')}
        </Button>,
        <Button key="i" type="primary" disabled={!file || (result !== null && result.problems.length > 0)} loading={busy} onClick={() => send(false)}>
          {s('sc.import_go')}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary">{s('sc.import_help')}</Typography.Paragraph>
      <Upload
        accept=".xlsx"
        maxCount={1}
        beforeUpload={(f) => {
          setFile(f);
          setResult(null);
          return false;
        }}
        onRemove={() => {
          setFile(null);
          setResult(null);
        }}
      >
        <Button icon={<UploadOutlined />}>{s('sc.import_pick')}</Button>
      </Upload>
      {result &&
        (result.problems.length ? (
          <Alert
            style={{ marginTop: 12 }}
            type="error"
            title={s('sc.problems', { n: result.problems.length })}
            description={
              <ul style={{ margin: 0, paddingLeft: 18 }}>
                {result.problems.map((p, i) => (
                  <li key={i}>{s('sc.row_error', { row: p.row, name: p.column, msg: p.message })}</li>
                ))}
              </ul>
            }
          />
        ) : (
          <Alert style={{ marginTop: 12 }} type="success" title={s('sc.import_ok', { n: result.rows })} />
        ))}
    </Modal>
  );
}
