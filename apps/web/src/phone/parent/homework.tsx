import Button from 'antd-mobile/es/components/button';
import Card from 'antd-mobile/es/components/card';
import DatePicker from 'antd-mobile/es/components/date-picker';
import Image from 'antd-mobile/es/components/image';
import ImageUploader, { type ImageUploadItem } from 'antd-mobile/es/components/image-uploader';
import ImageViewer from 'antd-mobile/es/components/image-viewer';
import Popup from 'antd-mobile/es/components/popup';
import Tag from 'antd-mobile/es/components/tag';
import TextArea from 'antd-mobile/es/components/text-area';
import Toast from 'antd-mobile/es/components/toast';
import LeftOutline from 'antd-mobile-icons/es/LeftOutline';
import RightOutline from 'antd-mobile-icons/es/RightOutline';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { addDays, guardianMayMarkDone, type HomeworkAttachment, type HomeworkState, type ParentChild, type StudentHomework } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { homeworkStrings } from '../../areas/homework/strings';
import { uploadHomeworkPhoto, useDoneAtHome } from '../../areas/homework/use-done-at-home';
import { useSchoolToday } from '../../lib/school-time';
import { PhonePage, QueryView } from '../ui/page';
import { ChildGate } from './more-parts';
import { moreStrings } from './more-strings';

const STATE_COLOR: Record<HomeworkState, string> = { todo: 'default', done: 'primary', checked: 'success' };
const isImage = (url: string) => /\.(png|jpe?g|gif|webp|bmp)(\?|$)/i.test(url);

/** A calendar day picked on the phone's wheel (a date, not an instant): its YYYY-MM-DD, from the parts it shows. */
const dayOfPicked = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const pickedOfDay = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d);
};

/** /m/parent_homework: the chosen child's homework of a day (today first), the teacher's note, done at home with a photo. */
export default function ParentHomeworkPhone() {
  const s = homeworkStrings.use();
  const today = useSchoolToday();
  const [day, setDay] = useState(today);
  const qc = useQueryClient();
  const refresh = () =>
    Promise.all([
      qc.refetchQueries({ queryKey: queryKey('parentChildren') }),
      qc.refetchQueries({ queryKey: queryKey('wantuoStudentHomeWork'), type: 'active' }),
    ]);
  return (
    <PhonePage onRefresh={refresh}>
      <ChildGate empty={s('parent.no_children')}>
        {(kid) => <ChildHomework key={kid.id} kid={kid} day={day} today={today} onDay={setDay} />}
      </ChildGate>
    </PhonePage>
  );
}

function ChildHomework({ kid, day, today, onDay }: { kid: ParentChild; day: string; today: string; onDay: (day: string) => void }) {
  const s = homeworkStrings.use();
  const t = moreStrings.use();
  const [picking, setPicking] = useState(false);
  const [doing, setDoing] = useState<StudentHomework | null>(null);
  const q = useQuery({
    queryKey: queryKey('wantuoStudentHomeWork', { student_id: kid.id, day }),
    queryFn: () => get('wantuoStudentHomeWork', { student_id: kid.id, day }),
  });
  return (
    <>
      <div className="m-section m-daybar">
        <Button fill="none" aria-label={t('pm.prev_day')} onClick={() => onDay(addDays(day, -1))} data-testid="hw-prev">
          <LeftOutline />
        </Button>
        <Button fill="none" className="m-day" onClick={() => setPicking(true)} data-testid="hw-day">
          {day === today ? `${t('pm.today')} ${day}` : day}
        </Button>
        <Button fill="none" aria-label={t('pm.next_day')} onClick={() => onDay(addDays(day, 1))} data-testid="hw-next">
          <RightOutline />
        </Button>
      </div>
      <DatePicker
        visible={picking}
        title={t('pm.choose_day')}
        value={pickedOfDay(day)}
        onClose={() => setPicking(false)}
        onConfirm={(d) => onDay(dayOfPicked(d))}
        confirmText={s('parent.submit')}
        cancelText={s('cancel')}
      />
      <QueryView query={q} isEmpty={(d) => d.list.length === 0} empty={s('parent.empty')}>
        {(d) => d.list.map((h) => <HomeworkCard key={h.id} h={h} onDone={() => setDoing(h)} />)}
      </QueryView>
      <DoneSheet homework={doing} studentId={kid.id} onClose={() => setDoing(null)} />
    </>
  );
}

function HomeworkCard({ h, onDone }: { h: StudentHomework; onDone: () => void }) {
  const s = homeworkStrings.use();
  const t = moreStrings.use();
  return (
    <Card
      className="m-card"
      title={h.title}
      extra={
        <Tag color={STATE_COLOR[h.state]} fill="outline">
          {s(`state.${h.state}`)}
        </Tag>
      }
      data-testid="parent-homework"
    >
      <div className="m-row">
        <Tag color={h.kind === 'care' ? 'primary' : 'warning'} fill="outline">
          {s(`kind.${h.kind}`)}
        </Tag>
        <span className="m-muted">
          {h.class_name} · {h.teacher_name} · {s('due', { day: h.due_day })}
        </span>
      </div>
      <div className="m-text">{h.content}</div>
      <Attachments files={h.attachments} />
      {h.note && (
        <div className="m-text">
          {s('teacher_note')}：{h.note}
        </div>
      )}
      {h.photo_url && (
        <div className="m-row" aria-label={t('pm.home_photo')}>
          <Image
            src={h.photo_url}
            width={64}
            height={64}
            fit="cover"
            alt={s('photo')}
            onClick={() => ImageViewer.show({ image: h.photo_url! })}
            style={{ borderRadius: 4 }}
          />
          {h.home_note && <span className="m-muted">{h.home_note}</span>}
        </div>
      )}
      {guardianMayMarkDone(h.state) && (
        <Button block color="primary" size="large" onClick={onDone} style={{ marginTop: 12 }} data-testid="hw-done-open">
          {s('parent.mark_done')}
        </Button>
      )}
    </Card>
  );
}

/** The teacher's attachments: pictures as thumbnails (full screen on a tap), other files as links. */
function Attachments({ files }: { files: HomeworkAttachment[] }) {
  if (!files.length) return null;
  const pictures = files.filter((f) => isImage(f.url));
  return (
    <div className="m-thumbs">
      {pictures.map((f, i) => (
        <Image
          key={f.url}
          src={f.url}
          alt={f.name}
          width={64}
          height={64}
          fit="cover"
          onClick={() => ImageViewer.Multi.show({ images: pictures.map((p) => p.url), defaultIndex: i })}
        />
      ))}
      {files
        .filter((f) => !isImage(f.url))
        .map((f) => (
          <a key={f.url} className="m-file-link" href={f.url} target="_blank" rel="noreferrer">
            {f.name}
          </a>
        ))}
    </div>
  );
}

/** 在家完成: a bottom sheet with the photo (camera or album, uploaded at once) and an optional note. */
function DoneSheet({ homework, studentId, onClose }: { homework: StudentHomework | null; studentId: number; onClose: () => void }) {
  const s = homeworkStrings.use();
  const t = moreStrings.use();
  const done = useDoneAtHome(studentId);
  const [photos, setPhotos] = useState<ImageUploadItem[]>([]);
  const [note, setNote] = useState('');
  const close = () => {
    setPhotos([]);
    setNote('');
    onClose();
  };
  const submit = async () => {
    if (!homework) return;
    const photo = photos[0]?.url;
    if (!photo) {
      Toast.show({ content: t('pm.choose_photo') });
      return;
    }
    if (await done.submit(homework.id, photo, note)) close();
  };
  return (
    <Popup visible={homework !== null} onMaskClick={close} onClose={close} bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12 }}>
      <div className="m-sheet" data-testid="hw-done-sheet">
        <div className="m-sheet-title">{s('parent.dialog')}</div>
        <div className="m-muted" style={{ marginBottom: 12 }}>
          {homework?.title}
        </div>
        <ImageUploader
          value={photos}
          onChange={setPhotos}
          maxCount={1}
          accept="image/*"
          upload={async (file) => ({ url: await uploadHomeworkPhoto(file) })}
          onUploadQueueChange={(tasks) => {
            if (tasks.some((x) => x.status === 'fail')) Toast.show({ icon: 'fail', content: t('pm.upload_failed') });
          }}
        />
        <div className="m-muted" style={{ margin: '4px 0 12px' }}>
          {s('parent.upload')}
        </div>
        <TextArea placeholder={s('parent.note')} value={note} onChange={setNote} maxLength={200} rows={2} showCount />
        <Button
          block
          color="primary"
          size="large"
          loading={done.saving}
          onClick={() => void submit()}
          style={{ marginTop: 12 }}
          data-testid="hw-done-submit"
        >
          {s('parent.submit')}
        </Button>
        <Button block size="large" onClick={close}>
          {s('cancel')}
        </Button>
      </div>
    </Popup>
  );
}
