import { useState } from 'react';
import { useAction } from '../../api/action';
import { upload } from '../../api/http';
import { newRequestId } from '../../lib/request-id';
import { homeworkStrings } from './strings';

/**
 * A guardian's "done at home" of one homework (parentDoneHomeWork with the photo and an optional note): one request id
 * per attempt that succeeded (a retry of a lost answer is the same request), the day's homework reloaded after. No
 * antd: the consoles' dialog and the phone's sheet share it. `submit` answers whether it was saved (a refusal is shown).
 */
export function useDoneAtHome(studentId: number) {
  const s = homeworkStrings.use();
  const [requestId, setRequestId] = useState(newRequestId);
  const done = useAction('parentDoneHomeWork', {
    success: s('parent.saved'),
    invalidates: ['wantuoStudentHomeWork'],
    onDone: () => setRequestId(newRequestId()),
  });
  const submit = async (homeworkId: number, photoUrl: string, note?: string): Promise<boolean> =>
    (await done.run({
      homework_id: homeworkId,
      student_id: studentId,
      photo_url: photoUrl,
      note: note?.trim() || undefined,
      request_id: requestId,
    })) !== undefined;
  return { submit, saving: done.busy };
}

/** Uploads a photo of the homework (the upload action): answers its URL. */
export async function uploadHomeworkPhoto(file: Blob): Promise<string> {
  const fd = new FormData();
  fd.append('file', file);
  return (await upload('upload', fd)).url;
}
