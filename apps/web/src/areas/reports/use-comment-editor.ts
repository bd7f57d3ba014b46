import { useQuery, useQueryClient } from '@tanstack/react-query';
import { COMMENT_PHOTOS_MAX, commentSaysSomething } from '@wantuo/shared';
import { useState } from 'react';
import { feedback } from '../../api/feedback';
import { useAction } from '../../api/action';
import { get, upload } from '../../api/http';
import { queryKey } from '../../api/query';
import { reportsStrings } from './strings';

/** classReportStatus of a class (none: the caller's first) on a day: the children, whose report went, who lacks a comment. */
export function useClassReportStatus(classId: number | undefined, day: string) {
  const input = { ...(classId ? { class_id: classId } : {}), day };
  return useQuery({ queryKey: queryKey('classReportStatus', input), queryFn: () => get('classReportStatus', input) });
}

/**
 * The quick comment of a child's day without a UI kit: the comment read (dailyReport), the preset phrases chosen,
 * the free text, the photos (uploaded with the upload action, at most COMMENT_PHOTOS_MAX) and the save with the
 * version read (a stale one is refused: the newer comment is read again). The desktop's drawer (comment-picker.tsx)
 * and the phone's bottom sheet use it. `save` answers whether the comment was saved.
 */
export function useCommentEditor(studentId: number, day: string) {
  const s = reportsStrings.use();
  const qc = useQueryClient();
  const current = useQuery({
    queryKey: queryKey('dailyReport', { student_id: studentId, day }),
    queryFn: () => get('dailyReport', { student_id: studentId, day }),
  });
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [text, setText] = useState<string | null>(null);
  const [pics, setPics] = useState<string[] | null>(null);
  const [uploading, setUploading] = useState(0);
  // a refusal is shown by the request wrapper; a stale version: the newer comment is read again
  const saveComment = useAction('saveDailyComment', {
    success: s('saved'),
    onDone: () =>
      Promise.all([qc.invalidateQueries({ queryKey: queryKey('classReportStatus') }), qc.invalidateQueries({ queryKey: queryKey('dailyReport') })]),
    onError: () => void current.refetch(),
  });
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

  const save = async (): Promise<boolean> => {
    if (!commentSaysSomething({ presets, text: free })) {
      feedback().message.error(s('need_something'));
      return false;
    }
    const saved = await saveComment.run({
      student_id: studentId,
      day,
      presets,
      text: free.trim(),
      photos,
      version: current.data?.comment?.version ?? 0,
    });
    return saved !== undefined;
  };

  return { current, presets, free, setText, photos, room, uploading, saving: saveComment.busy, toggle, addPhotos, removePhoto, save };
}
