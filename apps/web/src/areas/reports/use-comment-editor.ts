import { useQuery, useQueryClient } from '@tanstack/react-query';
import { COMMENT_PHOTOS_MAX, commentSaysSomething } from '@wantuo/shared';
import { useState } from 'react';
import { feedback } from '../../api/feedback';
import { get, post, upload } from '../../api/http';
import { reportsStrings } from './strings';

/** classReportStatus of a class (none: the caller's first) on a day: the children, whose report went, who lacks a comment. */
export function useClassReportStatus(classId: number | undefined, day: string) {
  return useQuery({
    queryKey: ['classReportStatus', classId ?? null, day],
    queryFn: () => get('classReportStatus', { ...(classId ? { class_id: classId } : {}), day }),
  });
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
    queryKey: ['dailyReport', studentId, day],
    queryFn: () => get('dailyReport', { student_id: studentId, day }),
  });
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [text, setText] = useState<string | null>(null);
  const [pics, setPics] = useState<string[] | null>(null);
  const [uploading, setUploading] = useState(0);
  const [saving, setSaving] = useState(false);
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
      return true;
    } catch {
      // shown; a stale version: the reload below shows the newer comment
      void current.refetch();
      return false;
    } finally {
      setSaving(false);
    }
  };

  return { current, presets, free, setText, photos, room, uploading, saving, toggle, addPhotos, removePhoto, save };
}
