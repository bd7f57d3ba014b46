import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { feedback } from '../../api/feedback';
import { post, upload } from '../../api/http';
import { newRequestId } from '../../lib/request-id';
import { homeworkStrings } from './strings';

/**
 * A guardian's "done at home" of one homework (parentDoneHomeWork with the photo and an optional note): one request id
 * per attempt that succeeded (a retry of a lost answer is the same request), the day's homework reloaded after. No
 * antd: the consoles' dialog and the phone's sheet share it. `submit` answers whether it was saved (a refusal is shown).
 */
export function useDoneAtHome(studentId: number) {
  const s = homeworkStrings.use();
  const qc = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [requestId, setRequestId] = useState(newRequestId);
  const submit = async (homeworkId: number, photoUrl: string, note?: string): Promise<boolean> => {
    setSaving(true);
    try {
      await post('parentDoneHomeWork', {
        homework_id: homeworkId,
        student_id: studentId,
        photo_url: photoUrl,
        note: note?.trim() || undefined,
        request_id: requestId,
      });
      feedback().message.success(s('parent.saved'));
      setRequestId(newRequestId());
      await qc.invalidateQueries({ queryKey: ['wantuoStudentHomeWork'] });
      return true;
    } catch {
      // shown by the request wrapper
      return false;
    } finally {
      setSaving(false);
    }
  };
  return { submit, saving };
}

/** Uploads a photo of the homework (the upload action): answers its URL. */
export async function uploadHomeworkPhoto(file: Blob): Promise<string> {
  const fd = new FormData();
  fd.append('file', file);
  return (await upload('upload', fd)).url;
}
