import { CenterFiles } from './center-files';
import { coursewareStrings } from './strings';

/** /principalCenter_record: the recorded lessons (video links) of an owned courseware. */
export default function Record() {
  const s = coursewareStrings.use();
  return <CenterFiles kinds={['video']} path="/principalCenter_record" empty={s('center.no_videos')} />;
}
