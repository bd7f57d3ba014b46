import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Flex, Image, Input, Tag, Typography } from 'antd';
import { COMMENT_CATEGORIES, COMMENT_PHOTOS_MAX, COMMENT_TEXT_MAX, commentSaysSomething, presetsOf } from '@wantuo/shared';
import { useRef, useState } from 'react';
import { feedback } from '../../api/feedback';
import { get, post, upload } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { usePreferences } from '../../stores/preferences';
import { reportsStrings } from './strings';

export interface CommentPickerProps {
  studentId: number;
  studentName: string;
  /** the school's day of the report */
  day: string;
  onClose: () => void;
}

/**
 * The quick-comment picker: preset phrases by 表现 / 作业 / 情绪, free text, photos taken during tutoring (the
 * upload action, at most COMMENT_PHOTOS_MAX), saved with the version read. /teacher_comments and /teacher_today open
 * it (the latter lazily: the default export).
 */
export default function CommentPicker({ studentId, studentName, day, onClose }: CommentPickerProps) {
  const s = reportsStrings.use();
  const lang = usePreferences((p) => p.lang);
  const qc = useQueryClient();
  const current = useQuery({
    queryKey: ['dailyReport', studentId, day],
    queryFn: () => get('dailyReport', { student_id: studentId, day }),
  });
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [text, setText] = useState<string | null>(null);
  const [pics, setPics] = useState<string[] | null>(null);
  const [uploading, setUploading] = useState(0);
  const [saving, setSaving] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const presets = chosen ?? current.data?.comment?.presets ?? [];
  const free = text ?? current.data?.comment?.text ?? '';
  const photos = pics ?? current.data?.comment?.photos ?? [];
  const room = COMMENT_PHOTOS_MAX - photos.length - uploading;
  const toggle = (key: string) => setChosen(presets.includes(key) ? presets.filter((k) => k !== key) : [...presets, key]);

  const addPhotos = async (files: File[]) => {
    const take = files.filter((f) => f.type.startsWith('image/')).slice(0, Math.max(0, room));
    if (files.length > take.length) feedback().message.info(s('photos_max', { n: COMMENT_PHOTOS_MAX }));
    if (!take.length) return;
    setUploading((n) => n + take.length);
    const base = photos;
    await Promise.all(
      take.map(async (file) => {
        const fd = new FormData();
        fd.append('file', file);
        try {
          const res = await upload('upload', fd);
          setPics((prev) => [...(prev ?? base), res.url].slice(0, COMMENT_PHOTOS_MAX));
        } catch {
          // shown by the http layer
        } finally {
          setUploading((n) => n - 1);
        }
      }),
    );
  };
  const removePhoto = (url: string) => setPics(photos.filter((p) => p !== url));

  const save = async () => {
    if (!commentSaysSomething({ presets, text: free })) {
      feedback().message.error(s('need_something'));
      return;
    }
    setSaving(true);
    try {
      await post('saveDailyComment', {
        student_id: studentId,
        day,
        presets,
        text: free.trim(),
        photos,
        version: current.data?.comment?.version ?? 0,
      });
      feedback().message.success(s('saved'));
      await qc.invalidateQueries({ queryKey: ['classReportStatus'] });
      await qc.invalidateQueries({ queryKey: ['dailyReport', studentId] });
      onClose();
    } catch {
      // shown; a stale version: the reload below shows the newer comment
      void current.refetch();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Drawer
      open
      placement="bottom"
      size="auto"
      title={`${s('write')} · ${studentName}`}
      onClose={onClose}
      extra={
        <Button type="primary" loading={saving} onClick={() => void save()} data-testid="comment-save" disabled={current.isLoading || uploading > 0}>
          {s('save')}
        </Button>
      }
    >
      {current.isLoading ? (
        <Loading />
      ) : current.isError ? (
        <LoadError onRetry={() => void current.refetch()} />
      ) : (
        <Flex vertical gap={12}>
          {COMMENT_CATEGORIES.map((c) => (
            <div key={c}>
              <Typography.Text type="secondary">{s(`cat.${c}`)}</Typography.Text>
              <Flex gap={6} wrap style={{ marginTop: 4 }}>
                {presetsOf(c).map((p) => (
                  <Tag.CheckableTag
                    key={p.key}
                    checked={presets.includes(p.key)}
                    onChange={() => toggle(p.key)}
                    data-testid="comment-preset"
                    data-key={p.key}
                    style={{ padding: '4px 10px', fontSize: 14, border: '1px solid #d9d9d9' }}
                  >
                    {lang === 'en' ? p.en : p.zh}
                  </Tag.CheckableTag>
                ))}
              </Flex>
            </div>
          ))}
          <Input.TextArea
            aria-label={s('free_text')}
            placeholder={s('free_text')}
            value={free}
            onChange={(e) => setText(e.target.value)}
            maxLength={COMMENT_TEXT_MAX}
            showCount
            rows={3}
            data-testid="comment-text"
          />
          <div>
            <Typography.Text type="secondary">
              {s('photos')} {photos.length}/{COMMENT_PHOTOS_MAX}
            </Typography.Text>
            <Flex gap={8} wrap align="center" style={{ marginTop: 4 }}>
              {photos.map((p) => (
                <div key={p} style={{ position: 'relative' }} data-testid="comment-photo">
                  <Image src={p} width={72} height={72} style={{ objectFit: 'cover', borderRadius: 4 }} alt={s('photos')} />
                  <Button
                    size="small"
                    shape="circle"
                    danger
                    aria-label={s('photo_remove')}
                    title={s('photo_remove')}
                    onClick={() => removePhoto(p)}
                    data-testid="comment-photo-remove"
                    style={{ position: 'absolute', top: -8, right: -8 }}
                  >
                    ×
                  </Button>
                </div>
              ))}
              <input
                ref={fileInput}
                type="file"
                accept="image/*"
                capture="environment"
                multiple
                hidden
                data-testid="comment-photo-file"
                onChange={(e) => {
                  const files = Array.from(e.target.files ?? []);
                  e.target.value = '';
                  void addPhotos(files);
                }}
              />
              <Button
                onClick={() => fileInput.current?.click()}
                loading={uploading > 0}
                disabled={room <= 0}
                style={{ width: 72, height: 72 }}
                data-testid="comment-photo-add"
              >
                {s('photo_add')}
              </Button>
            </Flex>
          </div>
        </Flex>
      )}
    </Drawer>
  );
}
