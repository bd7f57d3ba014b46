import Button from 'antd-mobile/es/components/button';
import Image from 'antd-mobile/es/components/image';
import TextArea from 'antd-mobile/es/components/text-area';
import { COMMENT_CATEGORIES, COMMENT_PHOTOS_MAX, COMMENT_TEXT_MAX, presetsOf } from '@wantuo/shared';
import { useRef } from 'react';
import { reportsStrings } from '../../areas/reports/strings';
import { useCommentEditor } from '../../areas/reports/use-comment-editor';
import { usePreferences } from '../../stores/preferences';
import { PhoneError, PhoneLoading } from '../ui/states';
import { Sheet } from './parts';
import { teacherPhoneStrings } from './strings';

export interface CommentSheetProps {
  studentId: number;
  studentName: string;
  /** the school's day of the report */
  day: string;
  onClose: () => void;
}

/**
 * A child's quick comment (评语) as a bottom sheet: preset phrases by 表现 / 作业 / 情绪, free text, photos from the
 * camera or the album, saved with the version read (use-comment-editor.ts, the desktop drawer's logic).
 */
export default function CommentSheet({ studentId, studentName, day, onClose }: CommentSheetProps) {
  const s = reportsStrings.use();
  const tp = teacherPhoneStrings.use();
  const lang = usePreferences((p) => p.lang);
  const { current, presets, free, setText, photos, room, uploading, saving, toggle, addPhotos, removePhoto, save } = useCommentEditor(studentId, day);
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <Sheet open onClose={onClose} title={`${s('write')} · ${studentName}`} testId="comment-sheet">
      {current.isPending ? (
        <PhoneLoading rows={4} />
      ) : current.data === undefined ? (
        <PhoneError error={current.error} onRetry={() => void current.refetch()} />
      ) : (
        <>
          {COMMENT_CATEGORIES.map((c) => (
            <div key={c}>
              <div className="m-sheet-sub">{s(`cat.${c}`)}</div>
              <div className="m-photos">
                {presetsOf(c).map((p) => (
                  <button
                    key={p.key}
                    type="button"
                    className={presets.includes(p.key) ? 'm-chip m-chip-on' : 'm-chip'}
                    aria-pressed={presets.includes(p.key)}
                    onClick={() => toggle(p.key)}
                    data-testid="comment-preset"
                    data-key={p.key}
                  >
                    {lang === 'en' ? p.en : p.zh}
                  </button>
                ))}
              </div>
            </div>
          ))}
          <div className="m-sheet-sub">{s('free_text')}</div>
          <div className="m-section" style={{ margin: 0, border: '1px solid #eee', padding: 8 }}>
            <TextArea
              aria-label={s('free_text')}
              placeholder={s('free_text')}
              value={free}
              onChange={setText}
              maxLength={COMMENT_TEXT_MAX}
              showCount
              autoSize={{ minRows: 3, maxRows: 6 }}
              data-testid="comment-text"
            />
          </div>
          <div className="m-sheet-sub">
            {s('photos')} {photos.length}/{COMMENT_PHOTOS_MAX}
          </div>
          <div className="m-photos">
            {photos.map((p) => (
              <div key={p} className="m-photo" data-testid="comment-photo">
                <Image src={p} width={72} height={72} fit="cover" alt={s('photos')} />
                <button type="button" className="m-photo-remove" aria-label={s('photo_remove')} onClick={() => removePhoto(p)}>
                  <span aria-hidden>×</span>
                </button>
              </div>
            ))}
            <input
              ref={fileInput}
              type="file"
              accept="image/*"
              multiple
              hidden
              data-testid="comment-photo-file"
              onChange={(e) => {
                const files = Array.from(e.target.files ?? []);
                e.target.value = '';
                void addPhotos(files);
              }}
            />
            <Button className="m-photo-add" onClick={() => fileInput.current?.click()} loading={uploading > 0} disabled={room <= 0}>
              {tp('tp.photos_add')}
            </Button>
          </div>
          <Button
            block
            color="primary"
            loading={saving}
            disabled={uploading > 0}
            style={{ marginTop: 16 }}
            onClick={() => void save().then((ok) => ok && onClose())}
            data-testid="comment-save"
          >
            {s('save')}
          </Button>
        </>
      )}
    </Sheet>
  );
}
