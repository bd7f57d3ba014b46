import { Button, Drawer, Flex, Image, Input, Tag, Typography } from 'antd';
import { COMMENT_CATEGORIES, COMMENT_PHOTOS_MAX, COMMENT_TEXT_MAX, presetsOf } from '@wantuo/shared';
import { useRef } from 'react';
import { LoadError, Loading } from '../../components/states';
import { usePreferences } from '../../stores/preferences';
import { reportsStrings } from './strings';
import { useCommentEditor } from './use-comment-editor';

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
  const {
    current,
    presets,
    free,
    setText,
    photos,
    room,
    uploading,
    saving,
    toggle,
    addPhotos,
    removePhoto,
    save: store,
  } = useCommentEditor(studentId, day);
  const fileInput = useRef<HTMLInputElement>(null);
  const save = async () => {
    if (await store()) onClose();
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
